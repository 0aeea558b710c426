"""Each leaf's ancestors as a table: what Mondrian's categorical splits and the 1:M
fingerprint rounds join to move a partition one level down its hierarchy."""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa

from anonsql import arrow
from anonsql.algorithms.workspace import Dimension
from anonsql.hierarchies import Hierarchy


def ancestors_table(dims: Sequence[Dimension]) -> pa.Table:
    """(dim, leaf_rank, depth, node_id): each leaf's ancestor at each depth below the root."""
    tables = []
    for d in dims:
        if d.hierarchy is None:
            continue
        t = hierarchy_ancestors(d.hierarchy)
        tables.append(t.add_column(0, "dim", arrow.array([d.index] * t.num_rows, pa.int32())))
    if not tables:
        empty = hierarchy_ancestors(None)
        return empty.add_column(0, "dim", arrow.array([], pa.int32()))
    return pa.concat_tables(tables)


def hierarchy_ancestors(h: Hierarchy | None) -> pa.Table:
    """(leaf_rank, depth, node_id, ordinal): each leaf's ancestors below the root, the leaf
    included; ``ordinal`` is the ancestor's position among its parent's children."""
    leaf_col: list[int] = []
    depth_col: list[int] = []
    node_col: list[int] = []
    ordinal_col: list[int] = []
    for rank in range(h.leaf_count if h is not None else 0):
        assert h is not None
        node = h.leaf_node(rank)
        while node.parent is not None:
            parent = h.nodes[node.parent]
            leaf_col.append(rank)
            depth_col.append(node.depth)
            node_col.append(node.id)
            ordinal_col.append(parent.children.index(node.id))
            node = parent
    return arrow.table(
        {
            "leaf_rank": arrow.array(leaf_col, pa.int32()),
            "depth": arrow.array(depth_col, pa.int32()),
            "node_id": arrow.array(node_col, pa.int32()),
            "ordinal": arrow.array(ordinal_col, pa.int32()),
        }
    )
