"""``algorithm: full_domain`` through ``anonsql.api.run`` on both engines: ARX's Adult optima
(spec hierarchies in ARX's format), the chosen node and search statistics in the certificate,
the release's classes being exactly the chosen node's, the suppression limit from the spec, the
risk metric and the source's risk in the certificate, and the models it refuses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.csv as pa_csv
import pytest
from fd_helpers import ADULT_ARX, ADULT_ARX_HIERARCHIES
from helpers import load_people, people_spec

from anonsql import api
from anonsql.engines import Engine
from anonsql.errors import AnonsqlError
from anonsql.sql import TableName

ADULT = TableName("adult_arx", "main")

# (k, suppression limit, ARX's optimal transformation, ARX's information loss): ARX's
# TestAnonymizationKAnonymity cases (20 s and more each: slow; the search alone, without
# publishing, is tested fast in test_arx_adult.py).
ARX_OPTIMA = [
    pytest.param(5, 0.0, (1, 2, 1, 1, 3, 2, 2, 1, 1), 407289.5388925293, marks=pytest.mark.slow),
    pytest.param(100, 0.0, (0, 4, 1, 1, 3, 2, 2, 1, 1), 453196.8932458743, marks=pytest.mark.slow),
    pytest.param(5, 0.04, (1, 0, 1, 1, 3, 2, 2, 0, 1), 255559.85455731067, marks=pytest.mark.slow),
    pytest.param(100, 0.04, (1, 1, 1, 1, 3, 2, 2, 1, 1), 379417.3460570988, marks=pytest.mark.slow),
]


def adult_spec(k: int, limit: float) -> dict[str, Any]:
    columns = pa_csv.read_csv(
        ADULT_ARX, parse_options=pa_csv.ParseOptions(delimiter=";")
    ).column_names
    return {
        "source": str(ADULT),
        "output": {"schema": "anon", "name": "adult_fd"},
        "columns": {
            c: {
                "role": "quasi_identifier",
                "type": "categorical",
                "hierarchy": str(ADULT_ARX_HIERARCHIES / f"{c}.csv"),
            }
            for c in columns
        },
        "privacy": [{"k_anonymity": {"k": k}}],
        "suppression_limit": limit,
        "algorithm": {"full_domain": {"objective": "entropy", "monotonic": True}},
    }


def load_adult(engine: Engine) -> None:
    data = pa_csv.read_csv(
        ADULT_ARX,
        parse_options=pa_csv.ParseOptions(delimiter=";"),
        convert_options=pa_csv.ConvertOptions(column_types={"age": "string"}),
    )
    engine.drop(ADULT)
    engine.load_arrow(ADULT, data)


@pytest.mark.parametrize(("k", "limit", "node", "loss"), ARX_OPTIMA)
def test_arx_optimum_through_the_pipeline(
    engine: Engine, k: int, limit: float, node: tuple[int, ...], loss: float
) -> None:
    load_adult(engine)
    result = api.run(adult_spec(k, limit), engine=engine)
    search = json.loads(result.certificate["search"])
    assert tuple(search["node"].values()) == node
    assert search["objective"]["value"] == pytest.approx(loss, rel=1e-15, abs=0)
    assert search["objective"]["name"] == "entropy"
    assert result.check.holds
    # every published class has at least k rows; suppression within the spec's limit
    assert result.certificate["suppressed_rows"] <= int(limit * 30162)
    sizes = api.recompute_metrics(engine, result.names.main)
    assert {m.name for m in sizes} >= {"ncp", "risk.prosecutor.highest_risk"}
    highest = next(m.value for m in sizes if m.name == "risk.prosecutor.highest_risk")
    assert highest <= 1 / k
    # the published values are the chosen node's levels of ARX's hierarchies: one label per
    # (column, level) for every row
    published = engine.query_arrow("select_all", relation=result.names.main).to_pandas()
    for column, level in search["node"].items():
        lines = (ADULT_ARX_HIERARCHIES / f"{column}.csv").read_text().splitlines()
        labels = {line.split(";")[level] for line in lines}
        assert set(published[column].astype(str)) <= labels | {"*"}, column


def people_fd(tmp_path: Path, **overrides: Any) -> dict[str, Any]:
    spec = people_spec(tmp_path, **overrides)
    spec["columns"].pop("note")
    spec.setdefault("algorithm", "full_domain")
    return spec


def test_people_release_certificate_and_risk(engine: Engine, tmp_path: Path) -> None:
    load_people(engine)
    spec = people_fd(
        tmp_path,
        k=4,
        suppression_limit=0.05,
        risk={"threshold": 0.25, "population_size": 10_000},
        algorithm={"full_domain": {"objective": "loss", "gs_factor": 0.5}},
    )
    result = api.run(spec, engine=engine)
    cert = result.certificate
    search = json.loads(cert["search"])
    assert search["objective"]["name"] == "loss" and list(search["node"]) == [
        "age",
        "city",
        "income",
    ]
    assert search["statistics"]["checked"] >= 1
    assert search["suppressed_rows"] == cert["suppressed_rows"]
    assert cert["suppressed_rows"] <= 20
    # the release's classes: each published row's class has >= k rows
    published = engine.query_arrow("select_all", relation=result.names.main).to_pandas()
    sizes = published.groupby(["age", "city", "income"], dropna=False).size()
    assert sizes.min() >= 4 and len(sizes) == cert["classes"]
    # the release's risk (rows published) and the source's (400 rows)
    assert result.metric("risk.records") == len(published)
    assert result.metric("risk.prosecutor.highest_risk") == pytest.approx(1 / sizes.min())
    assert result.metric("risk.population_size") == 10_000
    source = json.loads(cert["source_risk"])
    assert source["records"] == 400
    assert source["prosecutor.highest_risk"] == 1.0  # age x city x income: uniques abound
    assert json.loads(cert["risk_settings"])["threshold"] == 0.25
    # api.risk on the source agrees with the certificate
    report = api.risk(engine, "main.people", ["age", "city", "income"], population_size=10_000)
    assert report.figures()["sample_uniques"] == source["sample_uniques"]


def test_refused_models_say_why(engine: Engine, tmp_path: Path) -> None:
    load_people(engine)
    spec = people_fd(
        tmp_path,
        algorithm="mondrian",
        privacy=[{"average_reidentification_risk": {"threshold": 0.2}}],
    )
    with pytest.raises(AnonsqlError, match="average_reidentification_risk"):
        api.run(spec, engine=engine)
