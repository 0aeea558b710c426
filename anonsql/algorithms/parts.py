"""The ``parts`` table every algorithm leaves behind: one row per partition with its tight
generalization (numeric min/max, categorical lowest common ancestor), from per-partition stats
(the ``mondrian/stats`` query's columns: pid, n, min<i>, max<i>)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pyarrow as pa

from anonsql import arrow
from anonsql.algorithms.lca import HierarchyArrays
from anonsql.algorithms.workspace import Dimension
from anonsql.arrays import BoolArray


def parts_table(
    stats: pa.Table,
    dims: Sequence[Dimension],
    arrays: Mapping[int, HierarchyArrays],
    suppressed: BoolArray,
) -> pa.Table:
    """Rows of the parts table for the partitions in ``stats`` (``suppressed`` flags them)."""
    columns: dict[str, pa.Array] = {
        "pid": arrow.array(arrow.to_numpy(stats.column("pid")), pa.int64()),
        "n": arrow.array(arrow.to_numpy(stats.column("n")), pa.int64()),
        "suppressed": arrow.array(suppressed),
    }
    for d in dims:
        lo = stats.column(f"min{d.index}")
        hi = stats.column(f"max{d.index}")
        if d.is_numeric:
            columns[f"lo{d.index}"] = lo
            columns[f"hi{d.index}"] = hi
        else:
            node = arrays[d.index].lca(
                arrow.to_numpy(lo).astype(np.int64), arrow.to_numpy(hi).astype(np.int64)
            )
            columns[f"node{d.index}"] = arrow.array(node, pa.int32())
    return arrow.table(columns)
