"""The measure step reads the release's class table (``__classes``) instead of re-grouping the
published view, and the acknowledged columns' exposure reads the release grouped once: the
figures must be those of the direct computation on what analysts read (the guarded view)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import linkage_reference as reference
import pyarrow as pa
import pytest
from helpers import CITY_HIERARCHY, people, people_spec

from anonsql import api
from anonsql.engines import Engine
from anonsql.measure.exposure import linked_exposure
from anonsql.measure.measure import metric_context, release_context
from anonsql.metrics.registry import compute_all
from anonsql.privacy import PrivacyModel
from anonsql.release import read_release
from anonsql.risk import measure_risk
from anonsql.sql import TableName

COUNTRY = {line.split(";")[0]: line.split(";")[1] for line in CITY_HIERARCHY.splitlines()}


def _load(engine: Engine) -> None:
    """People with ``zone``, the country of their city: published unchanged, it gives the city
    away up to the country (acknowledged)."""
    table = people(400, seed=3)
    zone = [COUNTRY[c] for c in table.column("city").to_pylist()]
    engine.load_arrow(TableName("people", "main"), table.append_column("zone", pa.array(zone)))


def _spec(tmp_path: Path) -> dict[str, object]:
    # full-domain generalization suppresses rows here: the view leaves them out
    spec = people_spec(
        tmp_path,
        k=6,
        suppression_limit=0.05,
        algorithm="full_domain",
        privacy=[
            {"k_anonymity": {"k": 6}},
            {"distinct_l_diversity": {"column": "disease", "l": 2}},
        ],
    )
    columns = dict(spec["columns"])
    columns["zone"] = {"role": "insensitive", "acknowledge_linked": True}
    spec["columns"] = columns
    return spec


def test_class_table_gives_the_figures_of_the_published_view(
    engine: Engine, tmp_path: Path
) -> None:
    _load(engine)
    result = api.run(_spec(tmp_path), engine=engine)
    release = read_release(engine, result.names.main, fix="re-run anonsql")
    models: list[PrivacyModel] = list(release.models)
    direct = release_context(engine, release)
    assert direct.classes is None
    keyed = metric_context(
        engine,
        release.names,
        release.layout,
        direct.qids,
        models,
        release.individuals,
        direct.inputs,
        classes=True,
    )
    assert keyed.classes == release.names.classes
    by_view = {(m.name, m.attribute): m.value for m in compute_all(direct)}
    by_table = {(m.name, m.attribute): m.value for m in compute_all(keyed)}
    assert by_view.keys() == by_table.keys()
    for key, value in by_view.items():
        assert by_table[key] == pytest.approx(value, rel=1e-12, abs=1e-12), key
    # and both are what the run certified
    for m in result.metrics:
        assert by_view[(m.name, m.attribute)] == pytest.approx(m.value)
    assert result.certificate["suppressed_rows"] > 0  # the view leaves rows out
    qids = [q.column for q in direct.qids]
    # the class table is the published view grouped by its quasi-identifiers
    published = engine.query_arrow("select_all", relation=release.names.main).to_pylist()
    sizes = Counter(tuple(r[q] for q in qids) for r in published)
    diseases: dict[tuple[object, ...], set[object]] = {}
    for r in published:
        diseases.setdefault(tuple(r[q] for q in qids), set()).add(r["disease"])
    expected = sorted((*key, n, len(diseases[key])) for key, n in sizes.items())
    stored = engine.query_arrow("select_all", relation=release.names.classes).to_pylist()
    assert sorted(tuple(r.values()) for r in stored) == expected
    assert list(stored[0]) == [*qids, "class_size", "distinct disease"]
    view = measure_risk(engine, release.names.main, qids)
    table = measure_risk(engine, release.names.main, qids, classes=release.names.classes)
    assert view.figures() == table.figures()


def test_exposure_counts_match_a_row_by_row_oracle(engine: Engine, tmp_path: Path) -> None:
    """The acknowledged columns' exposure (the certificate's ``linked_columns``) against the
    independent recomputation of tests/support/linkage_reference.py, on what analysts read."""
    _load(engine)
    result = api.run(_spec(tmp_path), engine=engine)
    names = result.names
    source = engine.query_arrow("select_all", relation=TableName("people", "main")).to_pandas()
    published = engine.query_arrow("select_all", relation=names.main).to_pandas()
    paths = [line.split(";") for line in CITY_HIERARCHY.splitlines()]
    qids = {"age": None, "city": paths, "income": None}
    exposure = linked_exposure(result.certificate)
    # the spec acknowledges every column it publishes unchanged: the gate read none
    assert exposure.columns.recovery == () and exposure.columns.classes == ()
    found = {a.column: a for a in exposure.acknowledged}
    assert found["zone"].recovered_rows == reference.recovered(published, source, qids, ["zone"])
    assert found["zone"].small_class_rows == reference.small_rows(
        published, ["age", "city", "income", "zone"], k=6
    )
    assert found["zone"].determines == ()  # near a dependency, not one: the zone's cities vary
    assert found["zone"].recovered_rows["city"] > 0  # not vacuous: the zone gives cities away
    assert found["disease"].small_class_rows is None  # sensitive: not the adversary's
    assert found["disease"].recovered_rows == reference.recovered(
        published, source, qids, ["disease"]
    )
    assert exposure.combined is not None
    assert exposure.columns.acknowledged == ("disease", "note", "zone")
    assert exposure.combined.recovered_rows == reference.recovered(
        published, source, qids, ["disease", "note", "zone"]
    )
    assert exposure.combined.small_class_rows == reference.small_rows(
        published, ["age", "city", "income", "note", "zone"], k=6
    )
    assert any(w.startswith("zone (acknowledged, insensitive)") for w in result.warnings())
