"""k-member clustering (J.-W. Byun, A. Kamra, E. Bertino, N. Li, "Efficient k-Anonymization
Using Clustering Techniques", DASFAA 2007), the thesis's first baseline.

Greedy: from a random record ``r``, repeatedly take the unassigned record furthest from ``r``
as a seed and grow its cluster to ``k`` records, each time adding the record whose addition
yields the least information loss; the last added record is the next ``r``. The fewer than
``k`` records left at the end each join the cluster whose loss grows least (so no record is
suppressed and some clusters exceed ``k``).

Information loss as in the paper: ``IL(e) = |e| · (Σ_numeric (max - min) / range +
Σ_categorical H(Λ(e)) / H(T))`` with ``H(Λ)`` the height of the subtree under the lowest common
ancestor and ``H(T)`` the hierarchy's height; the distance between two records is the same sum
for the pair. It ignores functional dependencies (it is the baseline).

Each added record scans all unassigned ones (vectorized), so O(|R|²·|QI|) time overall and
inherently sequential; inputs beyond ``max_records`` (default 50,000) are refused. Times:
BENCHMARKS.md "Dependency-preserving generalization (Gorla 2019) through the pipeline".
"""

from __future__ import annotations

import time

import numpy as np

from anonsql.algorithms.dependency.distance import PAIR_TABLE_LIMIT
from anonsql.algorithms.dependency.encoding import EncodedAttribute, EncodedRecords
from anonsql.algorithms.dependency.result import ClusteringResult, check_k, check_size, finish
from anonsql.arrays import FloatArray, IntArray
from anonsql.errors import SpecError

KEY = "algorithm.k_member"
DEFAULT_MAX_RECORDS = 50_000


def subtree_heights(attribute: EncodedAttribute) -> FloatArray:
    """Per node of a categorical attribute's hierarchy: height of its subtree / tree height."""
    tree = attribute.tree
    assert tree is not None
    leaf_depth = tree.depth[tree.leaf_node]
    deepest = np.zeros(len(tree.depth), np.int64)
    np.maximum.at(
        deepest,
        tree.ancestors.reshape(-1),
        np.repeat(leaf_depth, tree.ancestors.shape[1]),
    )
    height = (deepest - tree.depth).astype(np.float64)
    top = float(height[0]) if len(height) else 0.0
    return height / top if top > 0 else np.zeros_like(height)


class _Loss:
    """Byun et al.'s normalized per-attribute loss of code ranges, vectorized."""

    def __init__(self, records: EncodedRecords) -> None:
        self.records = records
        self.heights: list[FloatArray | None] = []
        self.spans: list[float] = []
        for attribute in records.qi:
            if attribute.values is not None:
                self.heights.append(None)
                self.spans.append(float(attribute.values[-1] - attribute.values[0]))
            else:
                heights = subtree_heights(attribute)
                tree = attribute.tree
                assert tree is not None
                d = attribute.domain
                if d <= PAIR_TABLE_LIMIT:
                    # tabulated per (lo, hi) leaf pair: one gather per evaluation
                    codes = np.arange(d)
                    lo, hi = np.minimum.outer(codes, codes), np.maximum.outer(codes, codes)
                    heights = heights[tree.lca(lo.reshape(-1), hi.reshape(-1))].reshape(d, d)
                self.heights.append(heights)
                self.spans.append(0.0)

    def of(self, lo: IntArray, hi: IntArray) -> FloatArray:
        """``D`` of generalized records given raw code ranges ``(..., |QI|)``."""
        out = np.zeros(lo.shape[:-1])
        for a, attribute in enumerate(self.records.qi):
            heights = self.heights[a]
            if heights is None:
                assert attribute.values is not None
                if self.spans[a] > 0:
                    width = attribute.values[hi[..., a]] - attribute.values[lo[..., a]]
                    out += width / self.spans[a]
            elif heights.ndim == 2:
                out += heights[lo[..., a], hi[..., a]]
            else:
                assert attribute.tree is not None
                out += heights[attribute.tree.lca(lo[..., a], hi[..., a])]
        return out


def k_member(
    records: EncodedRecords, k: int, *, seed: int = 0, max_records: int = DEFAULT_MAX_RECORDS
) -> ClusteringResult:
    """Cluster ``records`` with k-member (module docstring): clusters of ``k`` or more."""
    check_k(records, k, KEY)
    check_size(records, max_records, KEY, "O(records²) time")
    started = time.perf_counter()
    n = records.size
    q = records.qi_count
    codes = records.codes[:, :q]
    loss = _Loss(records)
    rng = np.random.default_rng(seed)
    labels = np.full(n, -1, np.int64)
    free = np.ones(n, bool)
    if n < k:
        return finish(records, "k_member", k, labels, time.perf_counter() - started)
    r = int(rng.integers(n))
    clusters: list[tuple[IntArray, IntArray, int]] = []
    while int(free.sum()) >= k:
        open_ = np.flatnonzero(free)
        d = loss.of(np.minimum(codes[open_], codes[r]), np.maximum(codes[open_], codes[r]))
        r = int(open_[int(np.argmax(d))])
        free[r] = False
        lo, hi = codes[r].copy(), codes[r].copy()
        size = 1
        label = len(clusters)
        labels[r] = label
        while size < k:
            open_ = np.flatnonzero(free)
            grown = loss.of(np.minimum(codes[open_], lo), np.maximum(codes[open_], hi))
            r = int(open_[int(np.argmin(grown))])
            free[r] = False
            labels[r] = label
            lo, hi = np.minimum(lo, codes[r]), np.maximum(hi, codes[r])
            size += 1
        clusters.append((lo, hi, size))
    if not clusters:
        raise SpecError(KEY, "no cluster could be formed", "use k <= the number of records")
    leftovers = np.flatnonzero(free)
    for r in rng.permutation(leftovers):
        lo = np.stack([c[0] for c in clusters])
        hi = np.stack([c[1] for c in clusters])
        sizes = np.array([c[2] for c in clusters], np.float64)
        before = sizes * loss.of(lo, hi)
        nlo, nhi = np.minimum(lo, codes[r]), np.maximum(hi, codes[r])
        after = (sizes + 1) * loss.of(nlo, nhi)
        best = int(np.argmin(after - before))
        labels[r] = best
        clusters[best] = (nlo[best], nhi[best], clusters[best][2] + 1)
    return finish(
        records, "k_member", k, labels, time.perf_counter() - started, {"clusters": len(clusters)}
    )
