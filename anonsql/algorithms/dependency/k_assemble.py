"""k-ASSEMBLE (Gorla, "Dependency-Preserving Generalization for Data Publishing", MSc thesis,
McMaster University, 2019, Algorithm 2, Ch. 4.2), in the digest's clean reading (§3.2):

1. each round draw ``pool`` (the thesis's m) distinct seeds among the unsealed records (seeded
   RNG, in draw order);
2. grow each seed into a candidate cluster with its ``k - 1`` nearest unsealed records (tuple
   distance of :mod:`anonsql.algorithms.dependency.distance`; ties to the lowest record index);
3. score each candidate clustering (sealed clusters, the candidate, every other unsealed record
   a singleton) by the utility of Def. 10; seal the first best;
4. stop when fewer than ``k`` records are unsealed: they are suppressed (label -1).

Utility is evaluated exactly and incrementally (the purpose of the thesis's Opt-2): per instance
the best sealed ``preserve`` so far and the number of unsealed records at each mismatch count,
so a candidate costs O(k·|Γ|·|X ∪ Y|) instead of O(|R|·|Γ|). With ``index_size`` (M > 2k) a
candidate is scored only on the instances whose index of M most similar records (fewest
mismatches, ties to the lowest index) meets the candidate: the thesis's approximation, cheaper
and no longer exact.

The rounds are inherently sequential (each seals a cluster the next depends on): ``|R| / k``
rounds, each O(m·|R|·|QI|) for the neighbours plus the scoring, so O(m·|R|²/k) overall; inputs
beyond ``max_records`` (default 50,000) are refused. Times: BENCHMARKS.md "Dependency-preserving
generalization (Gorla 2019) through the pipeline".
"""

from __future__ import annotations

import time

import numpy as np

from anonsql.algorithms.dependency.distance import Metrics
from anonsql.algorithms.dependency.encoding import EncodedRecords
from anonsql.algorithms.dependency.result import ClusteringResult, check_k, check_size, finish
from anonsql.algorithms.dependency.scoring import (
    BLOCK_CELLS,
    Group,
    cluster_ranges,
    groups_of,
    mismatches,
    qi_deltas,
)
from anonsql.arrays import FloatArray, IntArray
from anonsql.errors import SpecError

KEY = "algorithm.k_assemble"
DEFAULT_MAX_RECORDS = 50_000
#: Gains closer than this are ties (the first candidate wins).
TIE = 1e-9


class Assembler:
    """The state of one k-ASSEMBLE run; :meth:`round` performs one iteration for given seeds
    (tests drive it with every possible seed choice)."""

    def __init__(
        self, records: EncodedRecords, k: int, *, exact: bool = False, index_size: int | None
    ) -> None:
        self.records = records
        self.k = k
        self.metrics = Metrics(records, exact=exact)
        self.groups = groups_of(records)
        n = records.size
        self.unsealed = np.ones(n, bool)
        self.labels = np.full(n, -1, np.int64)
        self.clusters = 0
        self.best: list[FloatArray] = [np.zeros(g.size) for g in self.groups]
        self.levels: list[IntArray] = []
        for g in self.groups:
            counts = np.zeros((g.size, g.width + 1), np.int64)
            step = max(1, BLOCK_CELLS // max(1, g.size))
            rows = np.arange(g.size)
            for start in range(0, n, step):
                mism = mismatches(g, rows, records.codes[start : start + step], kept_only=False)
                for j in range(g.width + 1):
                    counts[:, j] += (mism == j).sum(axis=1)
            self.levels.append(counts)
        self.index: list[tuple[IntArray, IntArray]] | None = None
        if index_size is not None:
            self.index = [self._build_index(g, index_size) for g in self.groups]

    # -- Opt-2's index ---------------------------------------------------------------------
    def _build_index(self, g: Group, size: int) -> tuple[IntArray, IntArray]:
        """Inverted index: for each record, the instances (of ``g``) listing it among their
        ``size`` most similar records; as CSR (``starts``, ``instances``)."""
        n = self.records.size
        take = min(size, n)
        chosen = np.empty((g.size, take), np.int64)
        step = max(1, BLOCK_CELLS // max(1, n))
        for start in range(0, g.size, step):
            rows = np.arange(start, min(g.size, start + step))
            key = mismatches(g, rows, self.records.codes, kept_only=False) * n + np.arange(n)
            part = (
                np.argpartition(key, take - 1, axis=1)[:, :take]
                if take < n
                else (np.broadcast_to(np.arange(n), key.shape))
            )
            chosen[rows] = part
        record = chosen.reshape(-1)
        instance = np.repeat(np.arange(g.size), take)
        order = np.argsort(record, kind="stable")
        starts = np.searchsorted(record[order], np.arange(n + 1))
        return starts, instance[order]

    def _affected(self, gi: int, members: IntArray) -> IntArray:
        assert self.index is not None
        starts, instances = self.index[gi]
        parts = [instances[starts[r] : starts[r + 1]] for r in members]
        return np.unique(np.concatenate(parts)) if parts else np.zeros(0, np.int64)

    # -- scoring -----------------------------------------------------------------------------
    def _single(self, gi: int, rows: IntArray, remaining: IntArray) -> FloatArray:
        """Best singleton preserve of instances given per-level counts ``(..., width + 1)``."""
        g = self.groups[gi]
        any_left = (remaining > 0).any(axis=-1)
        first = np.argmax(remaining > 0, axis=-1)
        return np.where(any_left, (1.0 - first / g.width) / self.k, 0.0)

    def _score(
        self, gi: int, rows: IntArray, members: IntArray
    ) -> tuple[FloatArray, FloatArray, IntArray]:
        """For candidates ``members`` (B x k) on instances ``rows`` of group ``gi``: their
        preserve (B x R), the instances' best remaining singleton preserve once the candidates'
        records are sealed (B x R), and the candidates' level counts (B x R x levels)."""
        g = self.groups[gi]
        codes = self.records.codes
        lo, hi = cluster_ranges(self.metrics, codes[members])
        total = qi_deltas(self.metrics, g, rows, lo, hi)
        b, size = members.shape
        flat = codes[members.reshape(-1)]
        level = mismatches(g, rows, flat, kept_only=False).T.reshape(b, size, len(rows))
        levels = (level[..., None] == np.arange(g.width + 1)).sum(axis=1)
        if g.kept:
            kept = mismatches(g, rows, flat, kept_only=True).T.reshape(b, size, len(rows))
            total = total + kept.min(axis=1)
        preserve = (1.0 - total / g.width) * (members.shape[1] / self.k)
        single = self._single(gi, rows, self.levels[gi][rows][None, :, :] - levels)
        return preserve, single, levels

    def _current(self, gi: int, rows: IntArray) -> FloatArray:
        return np.maximum(self.best[gi][rows], self._single(gi, rows, self.levels[gi][rows]))

    def gains(self, candidates: IntArray) -> FloatArray:
        """Utility gain of sealing each candidate (B x k members) against the current state."""
        out = np.zeros(candidates.shape[0])
        for gi, g in enumerate(self.groups):
            if self.index is None:
                rows = np.arange(g.size)
                preserve, single, _ = self._score(gi, rows, candidates)
                value = np.maximum(np.maximum(self.best[gi][rows][None, :], preserve), single)
                out += (value - self._current(gi, rows)[None, :]).sum(axis=1)
            else:
                for b in range(candidates.shape[0]):
                    rows = self._affected(gi, candidates[b])
                    if len(rows) == 0:
                        continue
                    preserve, single, _ = self._score(gi, rows, candidates[b : b + 1])
                    value = np.maximum(np.maximum(self.best[gi][rows], preserve[0]), single[0])
                    out[b] += float((value - self._current(gi, rows)).sum())
        return out

    def seal(self, members: IntArray) -> None:
        for gi, g in enumerate(self.groups):
            rows = np.arange(g.size)
            preserve, _, levels = self._score(gi, rows, members[None, :])
            self.best[gi] = np.maximum(self.best[gi], preserve[0])
            self.levels[gi] = self.levels[gi] - levels[0]
        self.labels[members] = self.clusters
        self.unsealed[members] = False
        self.clusters += 1

    # -- neighbours --------------------------------------------------------------------------
    def grow(self, seeds: IntArray) -> IntArray:
        """Each seed with its k - 1 nearest unsealed records (ties: lowest index): (B x k)."""
        unsealed = np.flatnonzero(self.unsealed)
        distances = self.metrics.tuple_distances(seeds, unsealed)
        out = np.empty((len(seeds), self.k), np.int64)
        need = self.k - 1
        for b, seed in enumerate(seeds):
            d = distances[b]
            d[np.searchsorted(unsealed, seed)] = np.inf
            out[b, 0] = seed
            if need == 0:
                continue
            threshold = np.partition(d, need - 1)[need - 1]
            below = np.flatnonzero(d < threshold)
            ties = np.flatnonzero(d == threshold)[: need - len(below)]
            out[b, 1:] = unsealed[np.concatenate([below, ties])]
        return out

    def round(self, seeds: IntArray) -> IntArray:
        """One iteration with the given seeds; returns the sealed cluster's records."""
        candidates = self.grow(np.asarray(seeds, np.int64))
        gains = self.gains(candidates)
        best = int(np.flatnonzero(gains >= gains.max() - TIE)[0])
        chosen: IntArray = candidates[best]
        self.seal(chosen)
        return chosen


def k_assemble(
    records: EncodedRecords,
    k: int,
    *,
    pool: int = 3,
    seed: int = 0,
    index_size: int | None = None,
    exact_distance: bool = False,
    max_records: int = DEFAULT_MAX_RECORDS,
) -> ClusteringResult:
    """Cluster ``records`` into clusters of exactly ``k`` with k-ASSEMBLE (see the module
    docstring); ``pool`` is the thesis's m, ``index_size`` its M (Opt-2, > 2k)."""
    check_k(records, k, KEY)
    if pool < 1:
        raise SpecError(f"{KEY}.pool", f"pool = {pool} is below 1", "use pool >= 1")
    if index_size is not None and index_size <= 2 * k:
        raise SpecError(
            f"{KEY}.index_size",
            f"index_size = {index_size} is not above 2k = {2 * k}",
            f"use index_size > {2 * k} (the thesis requires M > 2k) or leave it unset",
        )
    check_size(records, max_records, KEY, "O(pool x records² / k) time")
    started = time.perf_counter()
    state = Assembler(records, k, exact=exact_distance, index_size=index_size)
    rng = np.random.default_rng(seed)
    rounds = 0
    while int(state.unsealed.sum()) >= k:
        unsealed = np.flatnonzero(state.unsealed)
        seeds = rng.choice(unsealed, size=min(pool, len(unsealed)), replace=False)
        state.round(seeds)
        rounds += 1
    return finish(
        records,
        "k_assemble",
        k,
        state.labels,
        time.perf_counter() - started,
        {"rounds": rounds, "pool": pool},
    )
