"""Frequency l-diversity (no sensitive value above 1/l of a class: Ghinita et al.'s definition,
VLDB 2007) requested of the 1D algorithms and of Mondrian, end to end on every engine, re-checked
by pandas and pycanon; on a fixture where distinct l-diversity leaves classes dominated by one
value, and on Adult."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from independent import pycanon_alpha, top_share

from anonsql import api
from anonsql.demo import ADULT_QIDS, adult_spec
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.samples import load_adult
from anonsql.sql import TableName

SKEWED = TableName("skewed", "main")
QIDS = ["age", "zone"]


def skewed() -> pa.Table:
    """300 rows, 10 for each of 30 ages: at ages 0-9 eight rows of value a and one each of b
    and c, at 10-19 mostly b, at 20-29 mostly c. Each age alone is 3-diverse in the distinct
    sense while one value holds 80 % of it; each value holds 100 rows, a third."""
    ages, values = [], []
    for age in range(30):
        main = "abc"[age // 10]
        ages += [age] * 10
        values += [main] * 8 + [v for v in "abc" if v != main]
    return pa.table(
        {
            "age": pa.array(ages, pa.int64()),
            "zone": pa.array([age % 7 for age in ages], pa.int64()),
            "disease": pa.array(values),
        }
    )


def skewed_spec(algorithm: str, model: dict[str, Any]) -> dict[str, Any]:
    return {
        "source": str(SKEWED),
        "output": {"schema": "anon", "name": "skewed"},
        "columns": {
            "age": {"role": "quasi_identifier", "type": "numeric"},
            "zone": {"role": "quasi_identifier", "type": "numeric"},
            "disease": {"role": "sensitive", "acknowledge_linked": True},
        },
        "privacy": [{"k_anonymity": {"k": 2}}, model],
        "algorithm": algorithm,
    }


def release(engine: Engine, spec: dict[str, Any]) -> tuple[Any, Any]:
    result = api.run(spec, engine=engine)
    frame = engine.query_arrow("select_all", relation=result.names.main).to_pandas()
    return result, frame


@pytest.mark.parametrize("algorithm", ["hilbert", "idistance", "mondrian"])
def test_skewed_fixture(engine: Engine, algorithm: str, tmp_path: Path) -> None:
    engine.load_arrow(SKEWED, skewed())
    distinct_model = {"distinct_l_diversity": {"column": "disease", "l": 3}}
    _, distinct = release(engine, skewed_spec(algorithm, distinct_model))
    # distinct 3-diversity leaves classes in which one value holds 80 %
    assert top_share(distinct, QIDS, "disease").max() >= 0.8
    frequency_model = {"frequency_l_diversity": {"column": "disease", "l": 3}}
    result, frame = release(engine, skewed_spec(algorithm, frequency_model))
    assert len(frame) == 300
    assert result.certificate["verified"]
    assert top_share(frame, QIDS, "disease").max() <= 1 / 3
    if engine.dialect == "duckdb":
        assert pycanon_alpha(frame, QIDS, "disease", tmp_path) <= 1 / 3


@pytest.mark.parametrize("algorithm", ["hilbert", "mondrian"])
def test_adult(engine: Engine, algorithm: str, tmp_path: Path) -> None:
    load_adult(engine)
    spec = adult_spec(":memory:", acknowledged=True, name=f"adult_f3_{algorithm}")
    spec["columns"]["occupation"] = {"role": "sensitive", "acknowledge_linked": True}
    spec["privacy"] = [{"frequency_l_diversity": {"column": "occupation", "l": 3}}]
    spec["algorithm"] = algorithm
    result = api.run(spec, engine=engine)
    qids = [q for q in ADULT_QIDS if q != "occupation"]
    frame = engine.query_arrow("select_all", relation=result.names.main).to_pandas()
    assert len(frame) == 30162
    assert result.certificate["verified"]
    assert top_share(frame, qids, "occupation").max() <= 1 / 3
    if engine.dialect == "duckdb":
        assert pycanon_alpha(frame, qids, "occupation", tmp_path) <= 1 / 3


def test_l_above_the_values(engine: Engine) -> None:
    """Three values cannot each hold at most a quarter: refused before anything runs, naming
    the largest l and no value."""
    engine.load_arrow(SKEWED, skewed())
    spec = skewed_spec("hilbert", {"frequency_l_diversity": {"column": "disease", "l": 4}})
    with pytest.raises(SpecError) as caught:
        api.run(spec, engine=engine)
    assert caught.value.key == "privacy[1].frequency_l_diversity.l"
    assert "use l <= 3" in str(caught.value)
    assert "'a'" not in str(caught.value)
    assert not engine.exists(TableName("skewed", "anon"))
