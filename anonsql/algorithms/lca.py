"""Vectorized lowest common ancestors over a hierarchy's leaf ranks."""

from __future__ import annotations

import numpy as np

from anonsql.arrays import FloatArray, IntArray
from anonsql.hierarchies.model import Hierarchy


class HierarchyArrays:
    """A hierarchy as numpy arrays, for per-partition lookups without Python loops."""

    def __init__(self, hierarchy: Hierarchy) -> None:
        nodes = hierarchy.nodes
        self.parent = np.array(
            [-1 if n.parent is None else n.parent for n in nodes], dtype=np.int64
        )
        self.last_leaf = np.array([n.last_leaf for n in nodes], dtype=np.int64)
        self.depth = np.array([n.depth for n in nodes], dtype=np.int64)
        self.ncp = np.array([hierarchy.ncp(n) for n in nodes], dtype=np.float64)
        self.leaf_node = np.array(
            [hierarchy.leaf_node(r).id for r in range(hierarchy.leaf_count)], dtype=np.int64
        )

    def lca(self, first_rank: IntArray, last_rank: IntArray) -> IntArray:
        """Node ids of the lowest common ancestors of leaf-rank ranges."""
        node = self.leaf_node[first_rank]
        pending = self.last_leaf[node] < last_rank
        while pending.any():
            node[pending] = self.parent[node[pending]]
            pending = self.last_leaf[node] < last_rank
        return node

    def ncp_of(self, node: IntArray) -> FloatArray:
        return self.ncp[node]

    def ancestors_by_depth(self) -> IntArray:
        """``[depth, leaf rank] -> node id`` of each leaf's ancestors below the root (the leaf
        included), -1 elsewhere: the ``ancestors`` working table (``prepare/ancestors.py``) as
        an array, with a row to spare below the deepest leaf."""
        table = np.full((int(self.depth.max(initial=0)) + 2, self.leaf_node.shape[0]), -1)
        leaves = np.arange(self.leaf_node.shape[0], dtype=np.int64)
        node = self.leaf_node.copy()
        below_root = self.parent[node] >= 0
        while below_root.any():
            table[self.depth[node[below_root]], leaves[below_root]] = node[below_root]
            node = np.where(below_root, self.parent[node], node)
            below_root &= self.parent[node] >= 0
        ancestors: IntArray = table.astype(np.int64)
        return ancestors
