"""Clusters back into the engine and the dependency loss of a release computed in SQL, on both
engines: encoded fetch = in-memory encoding, decision tables, row assignment, a published
relation that is k-anonymous, and SQL Δ equal to the NumPy Δ; also Δ of a release published by
anonsql's own pipeline (Mondrian), whose format the SQL must read."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
import random_data
from dependency_fixtures import FDS, hierarchies, quasis, table3
from helpers import load_people, people_spec

from anonsql import api
from anonsql.algorithms.dependency.encoding import (
    EncodedRecords,
    Quasi,
    encode_table,
    fetch_records,
)
from anonsql.algorithms.dependency.k_assemble import k_assemble
from anonsql.algorithms.dependency.k_member import k_member
from anonsql.algorithms.dependency.loss import dependency_loss
from anonsql.algorithms.dependency.pair_enum import pair_enum
from anonsql.algorithms.dependency.release import assign_rows, decision_table, write_release
from anonsql.algorithms.dependency.result import ClusteringResult
from anonsql.algorithms.dependency.top_down import top_down
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.hierarchies import materialize
from anonsql.hierarchies.model import Hierarchy
from anonsql.metrics.dependency_loss import release_loss
from anonsql.spec.dependencies import parse_fds
from anonsql.sql import TableName

_names = itertools.count()


def name(prefix: str) -> TableName:
    return TableName(f"{prefix}{next(_names)}", "main")


Algorithm = Callable[[EncodedRecords], ClusteringResult]


def lookups(
    engine: Engine, hs: dict[str, Hierarchy]
) -> tuple[dict[str, TableName], dict[str, TableName]]:
    leaves, nodes = {}, {}
    for column, h in hs.items():
        leaves[column], nodes[column] = name("leaves"), name("nodes")
        materialize(engine, h, leaves[column], nodes[column])
    return leaves, nodes


def publish(
    engine: Engine,
    source: TableName,
    qs: list[Quasi],
    fds: list[str],
    leaves: dict[str, TableName],
    nodes: dict[str, TableName],
    run: Algorithm,
    passthrough: list[str],
) -> tuple[TableName, EncodedRecords, ClusteringResult]:
    parsed = parse_fds(fds)
    records = fetch_records(engine, source, qs, parsed, leaves)
    result = run(records)
    decisions, parts, assigned, release = name("dec"), name("parts"), name("asg"), name("rel")
    engine.load_arrow(decisions, decision_table(records, result))
    engine.load_arrow(parts, result.parts)
    assign_rows(engine, source, qs, parsed, leaves, decisions, assigned)
    write_release(engine, assigned, parts, qs, nodes, passthrough, release)
    return release, records, result


def test_fixture_release_and_its_loss(engine: Engine) -> None:
    source = name("t3_")
    engine.load_arrow(source, table3())
    leaves, nodes = lookups(engine, hierarchies())
    for run, want in ((lambda r: pair_enum(r, 2), 0.5), (lambda r: k_assemble(r, 2), 0.0)):
        release, _, _ = publish(engine, source, quasis(), FDS, leaves, nodes, run, ["ID", "DIAG"])
        loss = release_loss(engine, source, release, parse_fds(FDS), quasis(), leaves, nodes)
        assert loss.loss == pytest.approx(want)
        assert loss.instances == 6
        rows = engine.query("select_all", relation=release)
        assert len(rows) == 8
        if want == 0.0:
            assert sorted(r[:3] for r in rows) == sorted(
                [("V6J", "BC", "ibuprofen")] * 2
                + [("J5B", "QC", "*"), ("K2H", "ON", "*")] * 2
                + [("R7A", "MB", "diazepam")] * 2
            )


@pytest.mark.parametrize("algorithm", ["pair_enum", "k_assemble", "k_member", "top_down"])
def test_random_release_is_k_anonymous_and_sql_loss_matches(engine: Engine, algorithm: str) -> None:
    k = 3
    data = random_data.table(70, 7)
    source = name("rnd")
    engine.load_arrow(source, data)
    qs = random_data.quasis()
    fds = [*random_data.FDS, "family, age -> note", "drug -> age"]
    leaves, nodes = lookups(engine, random_data.hierarchies())
    runs: dict[str, Algorithm] = {
        "pair_enum": lambda r: pair_enum(r, k, neighbours=3),
        "k_assemble": lambda r: k_assemble(r, k, pool=2, seed=1),
        "k_member": lambda r: k_member(r, k, seed=1),
        "top_down": lambda r: top_down(r, k, seed=1),
    }
    release, records, result = publish(
        engine, source, qs, fds, leaves, nodes, runs[algorithm], ["family", "note"]
    )
    # the engine's encoding is the in-memory one, so every engine clusters the same way
    local = encode_table(data, qs, parse_fds(fds))
    assert np.array_equal(local.codes, records.codes)
    published = engine.count_rows(release)
    assert published == 70 - result.suppressed
    violations = engine.query(
        "privacy/k_anonymity", relation=release, qids=[q.column for q in qs], k=k
    )
    assert violations == []
    sql = release_loss(engine, source, release, parse_fds(fds), qs, leaves, nodes)
    numpy = dependency_loss(records, result.labels)
    assert sql.instances == numpy.instances
    assert [g.loss for g in sql.groups] == pytest.approx([g.loss for g in numpy.groups])


def test_release_loss_counts_missing_attributes_and_checks_inputs(engine: Engine) -> None:
    source = name("t3_")
    engine.load_arrow(source, table3())
    leaves, nodes = lookups(engine, hierarchies())
    release, _, _ = publish(
        engine, source, quasis(), FDS, leaves, nodes, lambda r: k_assemble(r, 2), ["ID"]
    )
    # DIAG is not published: p5, p6 lose DIAG (1/2 each) and MED is * for t3..t6, but
    # ibuprofen and diazepam stay on t1, t2, t7, t8
    loss = release_loss(engine, source, release, parse_fds(FDS), quasis(), leaves, nodes)
    assert [g.loss for g in loss.groups] == pytest.approx([0.0, 1.0])
    with pytest.raises(SpecError, match="does not exist"):
        release_loss(engine, source, name("none"), parse_fds(FDS), quasis(), leaves, nodes)


def test_fetch_refuses_values_outside_the_hierarchy(engine: Engine) -> None:
    data = table3().to_pydict()
    data["PC"][0] = "X0X"
    source = name("bad")
    engine.load_arrow(source, pa.table(data))
    leaves, _ = lookups(engine, hierarchies())
    with pytest.raises(SpecError) as err:
        fetch_records(engine, source, quasis(), parse_fds(FDS), leaves)
    assert "1 rows" in err.value.problem and "X0X" not in str(err.value)


def test_loss_of_a_mondrian_release_published_by_the_pipeline(
    engine: Engine, tmp_path: Path
) -> None:
    source = load_people(engine)
    result = api.run(people_spec(tmp_path, k=5), engine=engine)
    city = Hierarchy(
        [line.split(";") for line in (tmp_path / "city.csv").read_text().splitlines()],
        name="city",
    )
    leaves, nodes = lookups(engine, {"city": city})
    qs = [Quasi("age"), Quasi("city", city), Quasi("income")]
    fds = parse_fds(["city -> disease", "age, city -> note", "income -> age"])
    sql = release_loss(engine, source, TableName("people", "anon"), fds, qs, leaves, nodes)
    # the same release rebuilt in NumPy from the pipeline's partitions (its recoding map)
    data = engine.query_arrow("select_all", relation=source)
    records = encode_table(data, qs, fds)
    recoding = engine.query_arrow("select_all", relation=result.names.recoding).to_pydict()
    pid = {
        (float(a), c, float(i)): (-1 if s else p)
        for a, c, i, s, p in zip(
            recoding["age"],
            recoding["city"],
            recoding["income"],
            recoding["__anonsql_suppressed"],
            recoding["__anonsql_pid"],
            strict=True,
        )
    }
    age, _, income = records.qi
    assert age.values is not None and income.values is not None
    labels = np.array(
        [
            pid[(age.values[r[0]], city.leaves[r[1]], income.values[r[2]])]
            for r in records.codes.tolist()
        ]
    )
    numpy = dependency_loss(records, labels)
    assert sql.instances == numpy.instances
    assert [g.loss for g in sql.groups] == pytest.approx([g.loss for g in numpy.groups])
    assert 0.0 < sql.loss < sql.instances
