"""The whole pipeline on a small table: outputs, companions, determinism, suppression."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pytest
from helpers import load_people, people_spec, snapshot
from independent import class_sizes, distinct_sensitive

from anonsql import api
from anonsql.engines import Engine
from anonsql.sql import TableName


def test_publishes_view_and_companions(engine: Engine, tmp_path: Path) -> None:
    source = load_people(engine)
    before = snapshot(engine, source)
    result = api.run(people_spec(tmp_path, k=5), engine=engine)
    out = TableName("people", "anon")
    assert engine.relation_kind(out) == "view"
    for kind in ("classes", "certificate", "metrics"):
        assert engine.relation_kind(out.with_name(f"people__{kind}")) == "table"
    # what holds original values lives apart, in the private schema
    private = TableName("people", "anon_private")
    for kind in ("recoding", "attributes", "hierarchy_nodes"):
        assert engine.relation_kind(private.with_name(f"people__{kind}")) == "table"
        assert engine.relation_kind(out.with_name(f"people__{kind}")) is None
    for kind in ("source", "released"):
        assert engine.relation_kind(private.with_name(f"people__{kind}")) == "view"
    # one catalog query for several relations, missing names and schemas included
    expected = {
        out: "view",
        out.with_name("people__classes"): "table",
        private.with_name("people__recoding"): "table",
        private.with_name("people__source"): "view",
        out.with_name("people__recoding"): None,
        TableName("people", "no_such_schema"): None,
    }
    assert engine.relation_kinds(list(expected)) == expected
    analysts_see = engine.query("publish/versions", schema="anon", prefix="")
    assert sorted(r[0] for r in analysts_see) == [
        "people",
        "people__certificate",
        "people__classes",
        "people__metrics",
    ]
    frame = engine.query_arrow("select_all", relation=out).to_pandas()
    assert list(frame.columns) == ["age", "city", "income", "disease", "note"]  # identifier dropped
    assert class_sizes(frame, ["age", "city", "income"]).min() >= 5
    assert len(frame) == 400
    # numeric QIDs are "[lo, hi]" or a plain value; categorical ones are hierarchy labels
    labels = {
        "Lyon",
        "Paris",
        "Nice",
        "Rome",
        "Milan",
        "Boston",
        "Austin",
        "Toronto",
        "FR",
        "IT",
        "US",
        "CA",
        "EU",
        "NA",
        "*",
    }
    assert set(frame["city"]) <= labels
    assert all(v.isdigit() or (v.startswith("[") and v.endswith("]")) for v in frame["age"])
    cert = result.certificate
    assert (
        cert["verified"]
        and cert["source_rows"] == 400
        and json.loads(cert["dropped_columns"]) == ["name"]
    )
    assert snapshot(engine, source) == before  # the source is never modified
    # the working schema is gone
    assert engine.relation_kind(TableName("rows", f"anonsql_work_{cert['run_id']}")) is None


def test_same_input_same_output(engine: Engine, tmp_path: Path) -> None:
    load_people(engine)
    first = api.run(people_spec(tmp_path, k=4), engine=engine)
    rows_first = snapshot(engine, first.names.main)
    second = api.run(people_spec(tmp_path, k=4), engine=engine)
    assert snapshot(engine, second.names.main) == rows_first


def test_materialize_table_is_a_frozen_copy(engine: Engine, tmp_path: Path) -> None:
    load_people(engine)
    spec = people_spec(tmp_path, k=5)
    spec["output"]["materialize"] = "table"
    result = api.run(spec, engine=engine)
    assert engine.relation_kind(result.names.main) == "table"
    # publishing a view over the same name later replaces the table
    spec["output"]["materialize"] = "view"
    api.run(spec, engine=engine)
    assert engine.relation_kind(result.names.main) == "view"


def test_l_diversity_and_k_together(engine: Engine, tmp_path: Path) -> None:
    load_people(engine)
    spec = people_spec(
        tmp_path,
        k=6,
        privacy=[
            {"k_anonymity": {"k": 6}},
            {"distinct_l_diversity": {"column": "disease", "l": 3}},
        ],
    )
    result = api.run(spec, engine=engine)
    frame = engine.query_arrow("select_all", relation=result.names.main).to_pandas()
    qids = ["age", "city", "income"]
    assert class_sizes(frame, qids).min() >= 6
    assert distinct_sensitive(frame, qids, "disease").min() >= 3


def test_suppression_within_limit_and_counted(engine: Engine, tmp_path: Path) -> None:
    load_people(engine)
    spec = people_spec(tmp_path, k=8, suppression_limit=0.05)
    result = api.run(spec, engine=engine)
    suppressed = result.certificate["suppressed_rows"]
    assert 0 <= suppressed <= 20
    assert result.certificate["published_rows"] + suppressed == 400
    assert result.metric("suppressed_rows") == suppressed
    no_supp = api.run(
        people_spec(tmp_path, k=8, output={"schema": "anon", "name": "p0"}), engine=engine
    )
    # suppressing outliers can only help utility (NCP charges a suppressed row 1 per QID)
    assert result.metric("discernibility") > 0
    assert no_supp.certificate["suppressed_rows"] == 0


def test_metrics_recomputed_from_published_output(engine: Engine, tmp_path: Path) -> None:
    load_people(engine)
    result = api.run(people_spec(tmp_path, k=5), engine=engine)
    again = {(m.name, m.attribute): m.value for m in api.recompute_metrics(engine, "anon.people")}
    for m in result.metrics:
        assert again[(m.name, m.attribute)] == pytest.approx(m.value)
    assert api.check_output(engine, "anon.people").holds


def test_hand_computed_ncp(engine: Engine, tmp_path: Path) -> None:
    """Four rows, k=2: NCP by hand from the published values."""
    import pyarrow as pa

    engine.load_arrow(
        TableName("tiny", "main"),
        pa.table(
            {
                "age": [20, 22, 40, 50],
                "city": ["Lyon", "Paris", "Rome", "Milan"],
                "d": ["a", "b", "a", "b"],
            }
        ),
    )
    spec = people_spec(tmp_path, k=2)
    spec.update(
        source="main.tiny",
        output={"schema": "anon", "name": "tiny"},
        columns={
            "age": {"role": "quasi_identifier", "type": "numeric"},
            "city": {"role": "quasi_identifier", "hierarchy": spec["columns"]["city"]["hierarchy"]},
            # it splits each class of two: acknowledged, the test is about NCP
            "d": {"role": "insensitive", "acknowledge_linked": True},
        },
    )
    result = api.run(spec, engine=engine)
    rows = sorted(engine.query("select_all", relation=result.names.main))
    # age splits at the median 22 into {20,22} and {40,50}; cities generalize to FR and IT
    assert rows == [
        ("[20, 22]", "FR", "a"),
        ("[20, 22]", "FR", "b"),
        ("[40, 50]", "IT", "a"),
        ("[40, 50]", "IT", "b"),
    ]
    age = (2 / 30 + 10 / 30) / 2
    city = 3 / 8 * 0.5 + 2 / 8 * 0.5
    assert result.metric("ncp", "age") == pytest.approx(100 * age)
    assert result.metric("ncp", "city") == pytest.approx(100 * city)
    assert result.metric("ncp") == pytest.approx(100 * (age + city) / 2)
    assert result.metric("discernibility") == 8


def test_bounded_rounds_give_the_same_output(engine: Engine, tmp_path: Path) -> None:
    """Deciding at most a few partitions per round (bounded Python memory) changes the order of
    work, not the result."""
    load_people(engine)
    unbounded = api.run(people_spec(tmp_path, k=4), engine=engine)
    expected = snapshot(engine, unbounded.names.main)
    spec = people_spec(tmp_path, k=4, algorithm={"mondrian": {"max_partitions_per_round": 3}})
    bounded = api.run(spec, engine=engine)
    assert snapshot(engine, bounded.names.main) == expected
    assert bounded.partitioning.rounds > unbounded.partitioning.rounds
    assert bounded.partitioning.partitions == unbounded.partitioning.partitions
    # every round issues the same handful of statements, whatever the number of partitions
    assert max(bounded.partitioning.statements_per_round) <= 20


def test_joined_source_publishes_as_the_single_table(engine: Engine, tmp_path: Path) -> None:
    """A source split into two tables and joined by anonsql (`join: using`) publishes the same
    rows as the one-table source, through a view over the join."""
    frame = engine.query_arrow("select_all", relation=load_people(engine)).to_pandas()
    frame["person"] = range(len(frame))
    left = frame[["person", "name", "age", "disease", "note"]]
    right = frame[["person", "city", "income"]]
    for name, part in (("left_half", left), ("right_half", right)):
        engine.load_arrow(TableName(name, "main"), pa.Table.from_pandas(part, preserve_index=False))
    single = api.run(people_spec(tmp_path, k=5), engine=engine)
    expected = snapshot(engine, single.names.main)
    joined = people_spec(
        tmp_path,
        k=5,
        source="main.left_half",
        join=[{"table": "main.right_half", "using": "person"}],
        output={"schema": "anon", "name": "people_joined"},
    )
    result = api.run(joined, engine=engine)
    assert result.certificate["verified"]
    rows = engine.query_arrow("select_all", relation=result.names.main).to_pandas()
    reordered = rows[["age", "city", "income", "disease", "note"]]
    assert sorted(map(tuple, reordered.itertuples(index=False)), key=repr) == expected
    assert api.check_output(engine, result.names.main).holds
