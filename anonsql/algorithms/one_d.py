"""Optimal 1D k-anonymity over items in key order (Ghinita, Karras, Kalnis, Mamoulis,
"Fast Data Anonymization with Low Information Loss", VLDB 2007, §4; digest 001 §6).

Items are the distinct quasi-identifier vectors sorted by their 1D key, each with its number of
rows (weight), so that rows with equal vectors always share a group and the published relation
stays a function of the vector. Groups are runs of consecutive items holding at least ``k``
rows; the dynamic program minimizes the size-weighted information loss
``sum |G| * NCP(G)`` with NCP measured in the original multi-dimensional space (tight numeric
ranges, categorical lowest common ancestors).

Only runs that cannot be cut into two runs of ``>= k`` rows are candidates (cutting never raises
the size-weighted cost), so with unit weights the groups have ``k..2k-1`` rows as in the paper.
Ties go to the smallest last group.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from anonsql.algorithms.lca import HierarchyArrays
from anonsql.privacy.base import FloatArray, IntArray


def optimal_groups(
    weights: IntArray,
    numeric: FloatArray,
    spans: Sequence[float],
    categorical: IntArray,
    hierarchies: Sequence[HierarchyArrays],
    k: int,
) -> tuple[IntArray, float]:
    """Group id (0, 1, ...) of each item, and the optimal cost ``sum |G| * NCP(G)`` (NCP
    averaged over the quasi-identifiers); items must already be in key order.

    ``numeric`` is (items, numeric QIDs) of values with attribute ranges ``spans``;
    ``categorical`` is (items, categorical QIDs) of leaf ranks in ``hierarchies``.
    """
    n_items = len(weights)
    total = int(weights.sum())
    if total < k:
        raise ValueError(f"k = {k} exceeds the {total} rows")
    dims = len(spans) + len(hierarchies)
    lca_cache: list[dict[tuple[int, int], float]] = [{} for _ in hierarchies]

    def categorical_ncp(c: int, lo: int, hi: int) -> float:
        cached = lca_cache[c].get((lo, hi))
        if cached is None:
            h = hierarchies[c]
            node = h.lca(np.array([lo]), np.array([hi]))
            cached = float(h.ncp_of(node)[0])
            lca_cache[c][(lo, hi)] = cached
        return cached

    inf = float("inf")
    opt = [inf] * (n_items + 1)
    start = [-1] * (n_items + 1)
    opt[0] = 0.0
    for end in range(n_items):
        num_lo = numeric[end].copy()
        num_hi = numeric[end].copy()
        cat_lo = categorical[end].copy()
        cat_hi = categorical[end].copy()
        rows = 0
        suffix_start = -1  # start of the shortest run ending at `end` with >= k rows
        prefix_rows = 0  # rows before suffix_start in the current run
        j = end
        while j >= 0:
            w = int(weights[j])
            if j != end:
                np.minimum(num_lo, numeric[j], out=num_lo)
                np.maximum(num_hi, numeric[j], out=num_hi)
                np.minimum(cat_lo, categorical[j], out=cat_lo)
                np.maximum(cat_hi, categorical[j], out=cat_hi)
            rows += w
            if suffix_start < 0:
                if rows >= k:
                    suffix_start = j
            else:
                prefix_rows += w
                if prefix_rows >= k:
                    break  # this run splits into two runs of >= k rows: never better
            if suffix_start >= 0 and opt[j] < inf:
                ncp = sum(
                    (num_hi[a] - num_lo[a]) / spans[a] if spans[a] > 0 else 0.0
                    for a in range(len(spans))
                ) + sum(
                    categorical_ncp(c, int(cat_lo[c]), int(cat_hi[c]))
                    for c in range(len(hierarchies))
                )
                cost = opt[j] + rows * ncp / dims
                # ties: keep the larger start (smaller last group), found first going down
                if cost < opt[end + 1] - 1e-12:
                    opt[end + 1] = cost
                    start[end + 1] = j
            j -= 1
    if opt[n_items] == inf:
        raise ValueError("no grouping with every group of at least k rows")
    groups = np.empty(n_items, dtype=np.int64)
    boundaries = []
    end = n_items
    while end > 0:
        boundaries.append((start[end], end))
        end = start[end]
    for gid, (lo, hi) in enumerate(reversed(boundaries)):
        groups[lo:hi] = gid
    return groups, opt[n_items]
