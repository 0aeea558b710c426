"""Brute-force references of PAIR-ENUM and k-ASSEMBLE (the digest's clean readings): every
candidate clustering is scored by recomputing its utility from scratch (Def. 10) with
:func:`anonsql.algorithms.dependency.loss.utility`, so the incremental bookkeeping of the package is
checked against the definition. Plain Python loops: tiny inputs only."""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt

from anonsql.algorithms.dependency.distance import Metrics
from anonsql.algorithms.dependency.encoding import EncodedRecords
from anonsql.algorithms.dependency.loss import utility
from anonsql.algorithms.dependency.result import canonical_labels

TIE = 1e-9


def _labels(n: int, clusters: list[list[int]]) -> npt.NDArray[np.int64]:
    out = np.full(n, -1, np.int64)
    for i, members in enumerate(clusters):
        out[members] = i
    return out


def split(metrics: Metrics, union: list[int], k: int) -> tuple[list[int], list[int]]:
    d = metrics.tuple_distances(np.array(union), np.array(union))
    sums = d.sum(axis=1)
    center = min(range(len(union)), key=lambda i: (sums[i], union[i]))
    order = sorted(range(len(union)), key=lambda i: (i != center, d[center, i], union[i]))
    main = sorted(union[i] for i in order[:k])
    return main, sorted(union[i] for i in order[k:])


def neighbour_pairs(
    metrics: Metrics, clusters: dict[int, list[int]], open_keys: list[int], q: int
) -> set[tuple[int, int]]:
    """Pairs of each open cluster with its q closest open clusters (ties: lowest key)."""
    lo = {}
    hi = {}
    codes = metrics.records.codes
    qc = metrics.records.qi_count
    for key in open_keys:
        m = np.array(clusters[key])
        lo[key] = codes[m, :qc].min(axis=0)
        hi[key] = codes[m, :qc].max(axis=0)
        for a in range(qc):
            g = metrics.generalize_codes(a, lo[key][a : a + 1], hi[key][a : a + 1])
            lo[key][a], hi[key][a] = g[0][0], g[1][0]
    pairs = set()
    for key in open_keys:
        others = [o for o in open_keys if o != key]
        d = {o: float(metrics.range_distances(lo[key], hi[key], lo[o], hi[o])) for o in others}
        for o in sorted(others, key=lambda o: (d[o], o))[:q]:
            pairs.add((min(key, o), max(key, o)))
    return pairs


def pair_enum(
    records: EncodedRecords, k: int, *, exact: bool = False, q: int | None = None
) -> tuple[npt.NDArray[np.int64], list[float]]:
    metrics = Metrics(records, exact=exact)
    n = records.size
    clusters: dict[int, list[int]] = {i: [i] for i in range(n)}
    history: list[float] = []
    while sum(len(c) for c in clusters.values() if len(c) < k) >= k:
        open_keys = sorted(key for key, c in clusters.items() if len(c) < k)
        if q is None:
            pairs = list(itertools.combinations(open_keys, 2))
        else:
            pairs = sorted(neighbour_pairs(metrics, clusters, open_keys, q))
        scored = []
        for a, b in pairs:
            union = sorted(clusters[a] + clusters[b])
            parts = [union] if len(union) <= k else list(split(metrics, union, k))
            new = {key: c for key, c in clusters.items() if key not in (a, b)}
            for part in parts:
                new[part[0]] = part
            u = utility(records, _labels(n, list(new.values())), k, exact=exact)
            scored.append((u, new))
        top = max(u for u, _ in scored)
        u, clusters = next(s for s in scored if s[0] >= top - TIE)
        history.append(u)
    sealed = [c for c in clusters.values() if len(c) == k]
    return canonical_labels(_labels(n, sorted(sealed))), history


def k_assemble(
    records: EncodedRecords, k: int, *, pool: int, seed: int, exact: bool = False
) -> npt.NDArray[np.int64]:
    metrics = Metrics(records, exact=exact)
    n = records.size
    rng = np.random.default_rng(seed)
    sealed: list[list[int]] = []
    unsealed = np.ones(n, bool)
    while unsealed.sum() >= k:
        open_ = np.flatnonzero(unsealed)
        seeds = rng.choice(open_, size=min(pool, len(open_)), replace=False)
        scored = []
        for s in seeds:
            others = [int(o) for o in open_ if o != s]
            d = metrics.tuple_distances(np.array([s]), np.array(others))[0]
            near = sorted(range(len(others)), key=lambda i: (d[i], others[i]))[: k - 1]
            members = sorted([int(s)] + [others[i] for i in near])
            rest = [[int(o)] for o in open_ if int(o) not in members]
            u = utility(records, _labels(n, [*sealed, members, *rest]), k, exact=exact)
            scored.append((u, members))
        top = max(u for u, _ in scored)
        _, members = next(s for s in scored if s[0] >= top - TIE)
        sealed.append(members)
        unsealed[members] = False
    return canonical_labels(_labels(n, sealed))
