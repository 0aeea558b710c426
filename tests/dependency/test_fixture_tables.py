"""The digest's checks on the thesis's literal tables: k-anonymity of R, R', R'' (T1), the SQL
dependency loss of the literal published views R' and R'' (T6), and the linkage attack (T13)."""

from __future__ import annotations

import pyarrow as pa
import pytest
from dependency_fixtures import FDS, TABLE1, TABLE2, TABLE3, TABLE4, TABLE5, hierarchies, quasis

from anonsql.engines import Engine
from anonsql.hierarchies import materialize
from anonsql.metrics.dependency_loss import release_loss
from anonsql.spec.dependencies import parse_fds
from anonsql.sql import TableName

QI = ["PC", "PRV", "MED"]


def test_k_anonymity_and_loss_of_the_literal_views_t1_t6(engine: Engine) -> None:
    tables = {"r": TABLE3, "r1": TABLE4, "r2": TABLE5}
    for name, data in tables.items():
        engine.load_arrow(TableName(name, "main"), pa.table(data))
    sizes = {
        name: sorted(
            r[-1]
            for r in engine.query(
                "privacy/k_anonymity", relation=TableName(name, "main"), qids=QI, k=2
            )
        )
        for name in tables
    }
    assert sizes == {"r": [1, 1, 1, 1], "r1": [], "r2": []}
    leaves, nodes = {}, {}
    for column, h in hierarchies().items():
        leaves[column] = TableName(f"l{column}", "main")
        nodes[column] = TableName(f"n{column}", "main")
        materialize(engine, h, leaves[column], nodes[column])
    source = TableName("r", "main")
    fds = parse_fds(FDS)
    losses = [
        release_loss(engine, source, TableName(v, "main"), fds, quasis(), leaves, nodes)
        for v in ("r1", "r2", "r")
    ]
    assert [x.loss for x in losses] == pytest.approx([0.5, 0.0, 0.0])
    assert [x.instances for x in losses] == [6, 6, 6]


def test_linkage_attack_t13() -> None:
    voters, patients = pa.table(TABLE1), pa.table(TABLE2)
    joined = voters.join(patients, keys=["AGE", "GEN", "PC"], join_type="inner")
    assert joined.num_rows == 1
    assert joined.column("FNAME").to_pylist() == ["Carol"]
    assert joined.column("DIAG").to_pylist() == ["osteoarthritis"]
