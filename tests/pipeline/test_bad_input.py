"""Bad input: a clear error naming the key and the fix, nothing published, the source unchanged,
and no data value in the message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from helpers import load_people, people_spec, snapshot, work_schemas

from anonsql import api
from anonsql.engines import Engine
from anonsql.errors import InfeasibleError, SpecError, VerificationError
from anonsql.sql import TableName

# data values that must never appear in an error message
SECRET_VALUES = ("Lyon", "Paris", "Boston", "flu", "asthma", "person 1")


def expect_spec_error(engine: Engine, spec: dict[str, Any], key: str, *fragments: str) -> SpecError:
    source = TableName("people", "main")
    before = snapshot(engine, source)
    with pytest.raises(SpecError) as info:
        api.run(spec, engine=engine)
    message = str(info.value)
    assert key in message and "Fix:" in message
    for fragment in fragments:
        assert fragment in message
    for secret in SECRET_VALUES:
        assert secret not in message
    assert engine.relation_kind(TableName("people", "anon")) is None  # nothing published
    assert snapshot(engine, source) == before
    leftovers = work_schemas(engine)
    assert leftovers == []
    return info.value


@pytest.fixture
def people_engine(engine: Engine) -> Engine:
    load_people(engine)
    return engine


def test_unknown_column_suggests_the_closest(people_engine: Engine, tmp_path: Path) -> None:
    spec = people_spec(tmp_path)
    spec["columns"]["agee"] = spec["columns"].pop("age")
    expect_spec_error(people_engine, spec, "columns.agee", "did you mean 'age'")


def test_numeric_type_on_text_column(people_engine: Engine, tmp_path: Path) -> None:
    spec = people_spec(tmp_path)
    spec["columns"]["city"] = {"role": "quasi_identifier", "type": "numeric"}
    expect_spec_error(people_engine, spec, "columns.city.type", "declared numeric")


def test_value_not_covered_by_hierarchy(people_engine: Engine, tmp_path: Path) -> None:
    spec = people_spec(tmp_path)
    short = tmp_path / "short.csv"
    short.write_text("Lyon;FR;*\nParis;FR;*\n", encoding="utf-8")
    spec["columns"]["city"]["hierarchy"] = str(short)
    expect_spec_error(people_engine, spec, "columns.city.hierarchy", "not leaves of the hierarchy")


@pytest.mark.parametrize("weighted", [False, True])
def test_coverage_is_scanned_for_only_when_the_rows_fall_short(
    people_engine: Engine, tmp_path: Path, weighted: bool
) -> None:
    """The working rows join each value to its leaf, so counting them (or summing their
    weights, when Mondrian has them built weighted) checks that every value is covered: the
    scan of the source naming the uncovered column runs only when they fall short, and then
    refuses the run as above."""

    def spec_of() -> dict[str, Any]:
        spec = people_spec(tmp_path)
        if weighted:
            spec["algorithm"] = {"mondrian": {"weighted_from_rows": 0}}
        return spec

    sent: list[str] = []
    people_engine.listeners.append(sent.append)
    try:
        api.run(spec_of(), engine=people_engine)
        assert not any("uncovered0" in sql for sql in sent)
        assert any("SUM(" in sql and "rows_n" in sql for sql in sent) == weighted
        spec = spec_of()
        short = tmp_path / "short.csv"
        short.write_text("Lyon;FR;*\nParis;FR;*\n", encoding="utf-8")
        spec["columns"]["city"]["hierarchy"] = str(short)
        with pytest.raises(SpecError, match="not leaves of the hierarchy"):
            api.run(spec, engine=people_engine)
        assert any("uncovered0" in sql for sql in sent)
    finally:
        people_engine.listeners.remove(sent.append)


def test_missing_hierarchy_file(people_engine: Engine, tmp_path: Path) -> None:
    spec = people_spec(tmp_path)
    spec["columns"]["city"]["hierarchy"] = "nowhere/city.csv"
    expect_spec_error(people_engine, spec, "columns.city.hierarchy", "not found")


@pytest.mark.parametrize("k", [0, -3])
def test_k_below_one(people_engine: Engine, tmp_path: Path, k: int) -> None:
    expect_spec_error(
        people_engine, people_spec(tmp_path, k=k), "privacy[0].k_anonymity.k", "below 1"
    )


def test_k_above_rows(people_engine: Engine, tmp_path: Path) -> None:
    expect_spec_error(
        people_engine, people_spec(tmp_path, k=401), "privacy[0].k_anonymity.k", "400 rows"
    )


def test_l_above_distinct_values(people_engine: Engine, tmp_path: Path) -> None:
    spec = people_spec(tmp_path, privacy=[{"distinct_l_diversity": {"column": "disease", "l": 6}}])
    expect_spec_error(people_engine, spec, "privacy[0].distinct_l_diversity.l")


def test_unknown_model_and_typo_key(people_engine: Engine, tmp_path: Path) -> None:
    spec = people_spec(tmp_path, privacy=[{"k_anonimity": {"k": 3}}])
    expect_spec_error(people_engine, spec, "privacy[0].k_anonimity", "did you mean 'k_anonymity'")
    spec = people_spec(tmp_path)
    spec["suppresion_limit"] = 0.1
    expect_spec_error(people_engine, spec, "suppresion_limit", "did you mean 'suppression_limit'")
    spec = people_spec(tmp_path)
    spec["output"]["materialise"] = "table"
    expect_spec_error(people_engine, spec, "output.materialise", "did you mean 'materialize'")


def test_missing_source(people_engine: Engine, tmp_path: Path) -> None:
    expect_spec_error(
        people_engine, people_spec(tmp_path, source="main.nope"), "source", "does not exist"
    )


def test_null_in_quasi_identifier(engine: Engine, tmp_path: Path) -> None:
    engine.load_arrow(
        TableName("people", "main"),
        pa.table(
            {
                "age": pa.array([30, None, 40], pa.int64()),
                "city": ["Lyon", "Lyon", "Rome"],
                "income": [1, 2, 3],
                "disease": ["flu", "flu", "flu"],
                "note": ["a", "a", "a"],
                "name": ["x", "y", "z"],
            }
        ),
    )
    expect_spec_error(engine, people_spec(tmp_path, k=1), "columns.age", "1 rows have NULL")


def test_infeasible_l_diversity(engine: Engine, tmp_path: Path) -> None:
    """l within the distinct count but one value dominates: recursive (c,l) cannot hold anywhere."""
    engine.load_arrow(
        TableName("people", "main"),
        pa.table(
            {
                "age": list(range(20)),
                "city": ["Lyon"] * 20,
                "income": [1] * 20,
                "disease": ["flu"] * 18 + ["cold", "ulcer"],
                "note": ["a"] * 20,
                "name": [f"person {i}" for i in range(20)],
            }
        ),
    )
    spec = people_spec(
        tmp_path, privacy=[{"recursive_cl_diversity": {"column": "disease", "c": 2, "l": 2}}]
    )
    with pytest.raises(InfeasibleError, match="whole table"):
        api.run(spec, engine=engine)


def test_failed_verification_keeps_previous_output(
    people_engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = api.run(people_spec(tmp_path, k=5), engine=people_engine)
    before = snapshot(people_engine, first.names.main)
    cert_before = snapshot(people_engine, first.names.certificate)
    from anonsql.privacy.k_anonymity import KAnonymity

    # sabotage the search predicate so Mondrian over-splits; the SQL gate must refuse
    monkeypatch.setattr(KAnonymity, "holds", lambda self, parts: parts.counts >= 1)
    monkeypatch.setattr(KAnonymity, "min_rows", lambda self: 1)
    with pytest.raises(VerificationError, match="previous output was left intact"):
        # replace: the unchanged source would otherwise give a version with no new class
        api.run(people_spec(tmp_path, k=5), engine=people_engine, replace=True)
    assert snapshot(people_engine, first.names.main) == before
    assert snapshot(people_engine, first.names.certificate) == cert_before


def test_interrupted_run_leaves_previous_output(
    people_engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from anonsql.algorithms.mondrian import algorithm as mondrian
    from anonsql.errors import InterruptedRun

    first = api.run(people_spec(tmp_path, k=5), engine=people_engine)
    before = snapshot(people_engine, first.names.main)
    calls = {"n": 0}
    original = mondrian._MondrianRun._rewrite

    def interrupt_on_third(self: mondrian._MondrianRun, *args: Any) -> None:
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        original(self, *args)

    monkeypatch.setattr(mondrian._MondrianRun, "_rewrite", interrupt_on_third)
    with pytest.raises(InterruptedRun):
        api.run(people_spec(tmp_path, k=3), engine=people_engine)
    assert snapshot(people_engine, first.names.main) == before
    leftovers = work_schemas(people_engine)
    assert leftovers == []


def test_refuses_to_replace_a_foreign_relation(people_engine: Engine, tmp_path: Path) -> None:
    people_engine.execute("CREATE SCHEMA anon")
    people_engine.execute("CREATE TABLE anon.people AS SELECT 1 AS precious")
    with pytest.raises(SpecError, match="not published by anonsql"):
        api.run(people_spec(tmp_path), engine=people_engine)
    assert people_engine.fetchall("SELECT * FROM anon.people") == [(1,)]


def test_t_closeness_refuses_suppression(people_engine: Engine, tmp_path: Path) -> None:
    spec = people_spec(
        tmp_path,
        privacy=[{"t_closeness": {"column": "disease", "t": 0.3}}],
        suppression_limit=0.05,
    )
    expect_spec_error(people_engine, spec, "privacy[0].t_closeness", "suppression")


def test_ordered_distance_needs_numeric_column(people_engine: Engine, tmp_path: Path) -> None:
    spec = people_spec(
        tmp_path, privacy=[{"t_closeness": {"column": "disease", "t": 0.3, "distance": "ordered"}}]
    )
    expect_spec_error(people_engine, spec, "privacy[0].t_closeness.distance", "numeric")
