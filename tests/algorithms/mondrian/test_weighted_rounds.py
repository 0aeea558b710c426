"""Mondrian's rounds run on distinct vectors weighted by their row counts (the weighted working
rows, ``prepare/_coded.sql``): the per-partition statistics must equal those of the rows they
stand for, medians included (PERCENTILE_DISC(0.5) over the rows against the cumulative-weight
median over the vectors), on every engine."""

from __future__ import annotations

import collections
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonsql import api
from anonsql.algorithms.workspace import Dimension
from anonsql.demo import adult_spec
from anonsql.engines import Engine
from anonsql.samples import load_adult
from anonsql.sql import TableName

DIMS = (
    Dimension(index=0, column="a", kind="numeric"),
    Dimension(index=1, column="b", kind="numeric"),
    Dimension(index=2, column="c", kind="categorical"),
)


def _table(rows: list[tuple[int, int, int, int, int]]) -> pa.Table:
    pid, a, b, c, s = (np.array(col, np.int64) for col in zip(*rows, strict=True))
    return pa.table(
        {"pid": pid, "q0": a, "q1": b.astype(np.float64), "q2": c.astype(np.int32), "s0": s}
    )


def _stats(engine: Engine, work: TableName, weight: str | None) -> list[tuple[object, ...]]:
    table = engine.query_arrow(
        "mondrian/stats", work=work, dims=DIMS, window=(0, 10), weight=weight
    )
    return [tuple(float(v) for v in row.values()) for row in table.to_pylist()]


rows_strategy = st.lists(
    st.tuples(
        st.integers(0, 3),  # pid
        st.integers(0, 6),  # a: few values, many ties
        st.integers(-3, 3),  # b
        st.integers(0, 4),  # c (a leaf rank)
        st.integers(0, 2),  # s0
    ),
    min_size=1,
    max_size=60,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rows=rows_strategy)
def test_weighted_statistics_equal_the_rows(
    engine: Engine, rows: list[tuple[int, int, int, int, int]]
) -> None:
    schema = "weighted_stats"
    engine.ensure_schema(schema)
    raw, vectors = TableName("raw", schema), TableName("vectors", schema)
    engine.drop(raw)
    engine.drop(vectors)
    engine.load_arrow(raw, _table(rows))
    # the distinct rows with their counts, grouped here (the weighted working rows' grouping
    # is held to Python's in tests/pipeline/test_sensitive_codes.py)
    counted = collections.Counter(rows)
    distinct = _table(list(counted)).append_column(
        "rows_n", pa.array(list(counted.values()), pa.int64())
    )
    engine.load_arrow(vectors, distinct)
    assert _stats(engine, vectors, "rows_n") == _stats(engine, raw, None)


def _release(
    engine: Engine, spec: dict[str, Any]
) -> tuple[list[tuple[Any, ...]], dict[Any, float], Any]:
    result = api.run(spec, engine=engine)
    rows = sorted(engine.query("select_all", relation=result.names.main), key=repr)
    metrics = {(m.name, m.attribute): m.value for m in result.metrics}
    return rows, metrics, result.certificate["source_risk"]


@pytest.mark.parametrize("privacy", ["k", "l"])
def test_weighted_rounds_publish_the_same_release(
    engine: Engine, tmp_path: Path, privacy: str
) -> None:
    """Adult (30,162 rows, under the default threshold) partitioned on its rows and on its
    weighted distinct vectors: the same release, metrics included, and the same source risk
    in the certificate (grouped from the source, and from the weighted vectors' codes)."""
    load_adult(engine)
    releases = []
    for name, weighted_from in (("rows", 10**9), ("vectors", 0)):
        spec = adult_spec(":memory:", acknowledged=True, k=10, name=f"adult_{name}")
        if privacy == "l":
            spec["columns"]["occupation"] = {"role": "sensitive", "acknowledge_linked": True}
            spec["privacy"] = [
                {"k_anonymity": {"k": 10}},
                {"distinct_l_diversity": {"column": "occupation", "l": 3}},
            ]
        spec["suppression_limit"] = 0.01
        spec["algorithm"] = {"mondrian": {"weighted_from_rows": weighted_from}}
        releases.append(_release(engine, spec))
    assert releases[0][0] == releases[1][0]
    assert releases[0][1] == pytest.approx(releases[1][1])
    assert releases[0][2] == releases[1][2]
