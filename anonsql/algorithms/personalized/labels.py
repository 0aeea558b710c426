"""The label table: every label a sensitive cell can publish, for every sensitive attribute.

A categorical attribute's labels are its taxonomy's nodes (ids in depth-first order, so a node
covers the contiguous leaf ranks ``first_leaf..last_leaf``); a numeric attribute's labels are
its fuzzy terms, each a leaf of its own. Checks and metrics read one shape for both: a cell
labelled ``node`` covers the leaves ``first_leaf..last_leaf`` of its attribute.

Columns: ``attr, node, label, parent, depth, first_leaf, last_leaf, leaf_count, descendants``
(nodes below, the paper's N_S of eq. 3), ``levels`` (nodes on the longest root-leaf path, H_T
of eq. 4), ``total_nodes`` (N_T) and ``is_leaf``.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from anonsql import arrow
from anonsql.algorithms.personalized.config import CategoricalSA, PersonalizedConfig
from anonsql.arrays import IntArray
from anonsql.hierarchies import Hierarchy

_SCHEMA = pa.schema(
    [
        ("attr", pa.int32()),
        ("node", pa.int32()),
        ("label", pa.string()),
        ("parent", pa.int32()),
        ("depth", pa.int32()),
        ("first_leaf", pa.int32()),
        ("last_leaf", pa.int32()),
        ("leaf_count", pa.int32()),
        ("descendants", pa.int32()),
        ("levels", pa.int32()),
        ("total_nodes", pa.int32()),
        ("is_leaf", pa.bool_()),
    ]
)


def descendants(hierarchy: Hierarchy) -> IntArray:
    """Number of nodes below each node (by node id)."""
    parent = np.array([-1 if n.parent is None else n.parent for n in hierarchy.nodes], np.int64)
    depth = np.array([n.depth for n in hierarchy.nodes], np.int64)
    size = np.ones(len(parent), np.int64)
    for level in range(int(depth.max()), 0, -1):
        at = np.flatnonzero(depth == level)
        np.add.at(size, parent[at], size[at])
    return np.asarray(size - 1, np.int64)


def _taxonomy_columns(attr: int, hierarchy: Hierarchy) -> dict[str, list[object]]:
    nodes = hierarchy.nodes
    below = descendants(hierarchy)
    return {
        "attr": [attr] * len(nodes),
        "node": [n.id for n in nodes],
        "label": [n.label for n in nodes],
        "parent": [n.parent for n in nodes],
        "depth": [n.depth for n in nodes],
        "first_leaf": [n.first_leaf for n in nodes],
        "last_leaf": [n.last_leaf for n in nodes],
        "leaf_count": [n.leaf_count for n in nodes],
        "descendants": [int(x) for x in below],
        "levels": [hierarchy.height + 1] * len(nodes),
        "total_nodes": [len(nodes)] * len(nodes),
        "is_leaf": [n.is_leaf for n in nodes],
    }


def _term_columns(attr: int, labels: tuple[str, ...]) -> dict[str, list[object]]:
    k = len(labels)
    terms: list[object] = list(range(k))
    return {
        "attr": [attr] * k,
        "node": terms,
        "label": [*labels],
        "parent": [None] * k,
        "depth": [0] * k,
        "first_leaf": terms,
        "last_leaf": terms,
        "leaf_count": [1] * k,
        "descendants": [0] * k,
        "levels": [1] * k,
        "total_nodes": [k] * k,
        "is_leaf": [True] * k,
    }


def labels_table(config: PersonalizedConfig) -> pa.Table:
    """The label table of every sensitive attribute of ``config``."""
    parts = []
    for attr, sa in enumerate(config.sensitive):
        columns = (
            _taxonomy_columns(attr, sa.taxonomy)
            if isinstance(sa, CategoricalSA)
            else _term_columns(attr, sa.terms.labels)
        )
        parts.append(arrow.table(columns, schema=_SCHEMA))
    return pa.concat_tables(parts)
