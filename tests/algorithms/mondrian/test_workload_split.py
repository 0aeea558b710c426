"""Mondrian's ``split: workload`` (LeFevre, DeWitt and Ramakrishnan, KDD 2006): it lowers the
workload's error where the widest rule must cut across the queries, its rounds in the engine
and in memory give one release, and its imprecision is what the module doc says."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from helpers import people_spec

from anonsql import api
from anonsql.algorithms.mondrian.workload_split import WorkloadImprecision
from anonsql.algorithms.workspace import Dimension
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.spec.model import WorkloadQuery
from anonsql.spec.workload import parse_query
from anonsql.sql import TableName

#: y's values crowd at the ends of the queries' ranges: a range the medians do not cut along
#: the queries' bounds is estimated badly.
Y_VALUES = [0, 0, 0, 1, 2, 3, 3, 3, 4, 5, 6, 6, 6, 7, 8, 9, 9, 9]
RANGES = [(0, 2), (3, 5), (6, 9), (0, 0), (9, 9)]


def _source(engine: Engine) -> None:
    rng = random.Random(1)
    rows = [(rng.randint(0, 99), rng.choice(Y_VALUES)) for _ in range(240)]
    engine.ensure_schema("main")
    table = TableName("wl_split", "main")
    engine.drop(table)
    engine.load_arrow(table, pa.table({"x": [r[0] for r in rows], "y": [r[1] for r in rows]}))


def _run(engine: Engine, split: str, name: str, **options: Any) -> Any:
    workload = [
        {"name": f"y{a}_{b}", "sql": f"SELECT COUNT(*) FROM {name} WHERE y BETWEEN {a} AND {b}"}
        for a, b in RANGES
    ]
    return api.run(
        {
            "source": "main.wl_split",
            "output": {"schema": "anon", "name": name},
            "columns": {
                "x": {"role": "quasi_identifier", "type": "numeric"},
                "y": {"role": "quasi_identifier", "type": "numeric"},
            },
            "privacy": [{"k_anonymity": {"k": 20}}],
            "algorithm": {"mondrian": {"split": split, **options}},
            "workload": workload,
        },
        engine=engine,
    )


def test_the_workload_rule_lowers_the_workload_error(engine: Engine) -> None:
    """The widest rule splits x first (a tie at the root, x comes first) and y at its medians;
    the workload rule splits y along the queries' bounds: less than half the error."""
    _source(engine)
    widest = _run(engine, "widest", "wl_widest")
    workload = _run(engine, "workload", "wl_workload")
    assert workload.metric("workload_error") < 0.6 * widest.metric("workload_error")
    assert workload.partitioning.partitions == widest.partitioning.partitions


@pytest.mark.parametrize("suppression", [0.0, 0.05])
def test_rounds_in_the_engine_and_in_memory_agree(engine: Engine, suppression: float) -> None:
    _source(engine)
    releases = []
    for label, limit in (("sql", 0), ("memory", 10**9), ("switch", 120)):
        name = f"wl_{label}"
        result = _run(
            engine,
            "workload",
            name,
            max_rows_in_memory=limit,
            max_partitions_per_round=3,
            weighted_from_rows=0 if label == "switch" else 100_000,
        )
        rows = sorted(engine.query("select_all", relation=result.names.main), key=repr)
        releases.append((rows, result.partitioning.partitions, result.metric("workload_error")))
    assert releases[1] == releases[0]
    assert releases[2] == releases[0]


def test_imprecision_counts_the_rows_of_straddling_parts() -> None:
    dims = [
        Dimension(0, "x", "numeric", global_min=0, global_max=100),
        Dimension(1, "y", "numeric", global_min=0, global_max=10),
    ]
    queries = [
        parse_query(WorkloadQuery(name="a", sql=sql), "q", "t", "s")
        for sql in (
            "SELECT COUNT(*) FROM t WHERE y BETWEEN 0 AND 2",
            "SELECT COUNT(*) FROM t WHERE y > 2 AND x < 50",
            "SELECT x, COUNT(*) FROM t WHERE y IN (4, 7) GROUP BY x",
        )
    ]
    measure = WorkloadImprecision(queries, dims, {})
    n = np.array([10, 20, 30, 40])
    lo = {0: np.array([0.0, 0.0, 60.0, 10.0]), 1: np.array([0.0, 2.0, 3.0, 4.0])}
    hi = {0: np.array([40.0, 70.0, 90.0, 10.0]), 1: np.array([2.0, 5.0, 9.0, 4.0])}
    # part 0: inside q1, outside q2 (y <= 2), outside q3 (no 4 or 7 in [0, 2]) -> 0
    # part 1: straddles q1 and q2 (x and y), straddles q3 (4 in [2, 5]) -> 3
    # part 2: outside q1, outside q2 (x >= 60), straddles q3 (7 in [3, 9]) -> 1
    # part 3: outside q1, inside q2, inside q3 (y = 4 listed, x one value) -> 0
    assert measure.of_parts(n, lo, hi).tolist() == [0.0, 60.0, 30.0, 0.0]
    # a part inside q3's box but spread over x's groups: its width on x, 0.3 of its rows
    inside = {0: np.array([10.0]), 1: np.array([4.0])}, {0: np.array([40.0]), 1: np.array([4.0])}
    assert measure.of_parts(np.array([10]), *inside).tolist() == pytest.approx([3.0])


def test_split_workload_needs_a_workload(tmp_path: Path) -> None:
    from anonsql.api import as_spec
    from anonsql.resolve.resolve import choose_algorithm

    spec = as_spec(dict(people_spec(tmp_path), algorithm={"mondrian": {"split": "workload"}}))
    with pytest.raises(SpecError) as err:
        choose_algorithm(spec).bind(spec, [])
    assert err.value.key == "algorithm.mondrian.split"
