"""PAIR-ENUM (Gorla, "Dependency-Preserving Generalization for Data Publishing", MSc thesis,
McMaster University, 2019, Algorithm 1, Ch. 4.1), in the digest's clean reading (§3.1):

start from singletons; while at least ``k`` records are unsealed, score every candidate merge of
two unsealed clusters by the utility (Def. 10) of the clustering it produces, apply the first
best (pairs ordered by their clusters' smallest record index), and seal clusters of size ``k``.
A merge whose union exceeds ``k`` keeps the ``k`` closest records (the record with the smallest
total tuple distance to the others and its ``k - 1`` nearest; digest A6) and leaves the rest as a
new unsealed cluster. Leftover unsealed records (< k) are suppressed (label -1).

Opt-1 (Ch. 5.1): with ``neighbours`` (the thesis's q) each unsealed cluster is paired only with
its q closest unsealed clusters (clustering distance of :mod:`.distance`
between the clusters' generalized tuples, ties to the lowest slot). The lists are kept exact at
every iteration: a list is recomputed when it loses a member or when a new cluster is at most as
far as its last neighbour.

Opt-2 (Ch. 5.2) aims at scoring a candidate in O(k·|Γ|) rather than O(|R|·|Γ|); this
implementation reaches that *exactly*, so it has no M: per instance it keeps the three best
``preserve`` values over all clusters (a merge removes at most two), every candidate's gain is
cached, and after a merge only the gains on the instances whose top three changed are updated.

Limits: a dense ``|Γ| x |R|`` matrix of ``preserve`` values (``max_cells``, default 6e7, about
540 MB with its companion) and ``|R|`` merges, each touching every cached candidate on the
changed instances: roughly O(|R|²·q) for the neighbour lists plus O(|R|·candidates·changed).
Without Opt-1 the candidates are all ``C(|R|, 2)`` pairs, refused beyond
``max_records_all_pairs`` (default 1,000) records.
The merges are inherently sequential. Peak RSS measured (synthetic, 8 QIs, k = 5, q = 5): 0.8 GB
at 10,000 records, 1.4 GB at 20,000; refused beyond ``max_records`` (default 20,000). Times:
BENCHMARKS.md "Dependency-preserving generalization (Gorla 2019) through the pipeline".
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

import numpy as np

from anonsql.algorithms.dependency.distance import Metrics
from anonsql.algorithms.dependency.encoding import EncodedRecords
from anonsql.algorithms.dependency.result import ClusteringResult, check_k, check_size, finish
from anonsql.algorithms.dependency.scoring import (
    BLOCK_CELLS,
    Group,
    groups_of,
    mismatches,
    qi_deltas,
    qi_penalties,
)
from anonsql.arrays import BoolArray, FloatArray, IntArray
from anonsql.errors import SpecError

KEY = "algorithm.pair_enum"
DEFAULT_MAX_RECORDS = 20_000
DEFAULT_MAX_CELLS = 60_000_000
DEFAULT_MAX_RECORDS_ALL_PAIRS = 1_000
TIE = 1e-9


def top3(matrix: FloatArray) -> tuple[FloatArray, IntArray]:
    """The three largest values of each row and their columns (descending; -1 padding)."""
    rows, cols = matrix.shape
    vals = np.full((rows, 3), -1.0)
    ids = np.full((rows, 3), -1, np.int64)
    if cols == 0 or rows == 0:
        return vals, ids
    take = min(3, cols)
    part = (
        np.argpartition(-matrix, take - 1, axis=1)[:, :take]
        if cols > take
        else (np.broadcast_to(np.arange(cols), (rows, cols)).copy())
    )
    v = np.take_along_axis(matrix, part, axis=1)
    order = np.lexsort((part, -v), axis=1)
    vals[:, :take] = np.take_along_axis(v, order, axis=1)
    ids[:, :take] = np.take_along_axis(part, order, axis=1)
    return vals, ids


@dataclass
class _Candidates:
    """Cached candidate merges, sorted by key ``u * N + v`` (u < v slots)."""

    keys: IntArray
    gain: FloatArray
    mlo: IntArray
    mhi: IntArray
    mne: FloatArray
    msize: IntArray
    rlo: IntArray
    rhi: IntArray
    rne: FloatArray
    rsize: IntArray
    split: BoolArray
    mmem: IntArray
    rmem: IntArray

    def take(self, index: IntArray) -> _Candidates:
        return _Candidates(*(getattr(self, f)[index] for f in _FIELDS))

    @staticmethod
    def concat(a: _Candidates, b: _Candidates) -> _Candidates:
        return _Candidates(*(np.concatenate([getattr(a, f), getattr(b, f)]) for f in _FIELDS))


_FIELDS = (
    "keys", "gain", "mlo", "mhi", "mne", "msize", "rlo", "rhi", "rne", "rsize", "split", "mmem",
    "rmem",
)  # fmt: skip


class PairEnum:
    """The state of one PAIR-ENUM run (slots are clusters, named by their smallest record)."""

    def __init__(
        self,
        records: EncodedRecords,
        k: int,
        *,
        exact: bool,
        neighbours: int | None,
        ties: Literal["first", "closest"] = "first",
    ) -> None:
        self.records = records
        self.ties = ties
        self.k = k
        self.q = neighbours
        self.metrics = Metrics(records, exact=exact)
        self.groups = groups_of(records)
        n = records.size
        self.n = n
        self.codes = records.codes
        qc = records.qi_count
        self.alive = np.ones(n, bool)
        self.sealed = np.zeros(n, bool)
        self.size = np.ones(n, np.int64)
        self.members: list[IntArray] = [np.array([i], np.int64) for i in range(n)]
        self.lo = self.codes[:, :qc].copy()
        self.hi = self.codes[:, :qc].copy()
        total = sum(g.size for g in self.groups)
        self.preserve = np.empty((total, n))
        self.kept = np.zeros((total, n), np.int8)
        for g in self.groups:
            rows = np.arange(g.size)
            step = max(1, BLOCK_CELLS // max(1, g.size))
            for start in range(0, n, step):
                block = self.codes[start : start + step]
                level = mismatches(g, rows, block, kept_only=False)
                self.preserve[g.offset : g.offset + g.size, start : start + step] = (
                    1.0 - level / g.width
                ) / k
                if g.kept:
                    self.kept[g.offset : g.offset + g.size, start : start + step] = mismatches(
                        g, rows, block, kept_only=True
                    )
        self.vals, self.ids = top3(self.preserve)
        self.nbrs: IntArray | None = None
        #: distance of each list's last neighbour (inf while a list is not full)
        self.nbr_worst = np.full(n, np.inf)
        if neighbours is not None:
            self.nbrs = np.full((n, neighbours), -1, np.int64)
            self._refresh_neighbours(np.arange(n))
        self.cands = self._create(self._candidate_keys())
        self.merges = 0
        self.evaluated = len(self.cands.keys)
        #: utility of the current clustering (Def. 10), updated by each merge's gain
        self.utility = float(self.vals[:, 0].sum())
        #: per merge: (slot u, slot v, utility after it, candidates tied at the maximum)
        self.history: list[tuple[int, int, float, int]] = []

    # -- neighbour lists (Opt-1) ------------------------------------------------------------
    def _open(self) -> IntArray:
        return np.flatnonzero(self.alive & ~self.sealed)

    def _refresh_neighbours(self, slots: IntArray) -> None:
        assert self.nbrs is not None and self.q is not None
        open_slots = self._open()
        q = self.q
        step = max(1, BLOCK_CELLS // max(1, len(open_slots) * max(1, self.lo.shape[1])))
        for start in range(0, len(slots), step):
            chunk = slots[start : start + step]
            d = self.metrics.range_distances(
                self.lo[chunk][:, None, :],
                self.hi[chunk][:, None, :],
                self.lo[open_slots][None, :, :],
                self.hi[open_slots][None, :, :],
            )
            d[open_slots[None, :] == chunk[:, None]] = np.inf
            for i, slot in enumerate(chunk):
                row = d[i]
                take = min(q, len(open_slots) - 1)
                self.nbrs[slot] = -1
                self.nbr_worst[slot] = np.inf
                if take <= 0:
                    continue
                threshold = np.partition(row, take - 1)[take - 1]
                below = np.flatnonzero(row < threshold)
                ties = np.flatnonzero(row == threshold)[: take - len(below)]
                self.nbrs[slot, :take] = open_slots[np.concatenate([below, ties])]
                if take == q:
                    self.nbr_worst[slot] = threshold

    def _candidate_keys(self) -> IntArray:
        open_slots = self._open()
        if self.nbrs is None:
            u, v = np.triu_indices(len(open_slots), 1)
            return np.sort(open_slots[u] * self.n + open_slots[v])
        lists = self.nbrs[open_slots]
        u = np.repeat(open_slots, lists.shape[1])
        v = lists.reshape(-1)
        valid = v >= 0
        u, v = u[valid], v[valid]
        keys: IntArray = np.unique(np.minimum(u, v) * self.n + np.maximum(u, v))
        return keys

    # -- candidates --------------------------------------------------------------------------
    def _split(self, union: IntArray) -> tuple[IntArray, IntArray]:
        """The k closest records of ``union`` and the rest (digest A6)."""
        d = self.metrics.tuple_distances(union, union)
        center = int(np.argmin(d.sum(axis=1)))
        row = d[center].copy()
        row[center] = -np.inf
        order = np.lexsort((union, row))
        main = np.sort(union[order[: self.k]])
        rest = np.sort(union[order[self.k :]])
        return main, rest

    def _ranges_of(self, members: IntArray) -> tuple[IntArray, IntArray]:
        codes = self.codes[members]
        qc = self.records.qi_count
        lo = codes[:, :qc].min(axis=0)
        hi = codes[:, :qc].max(axis=0)
        for a in range(qc):
            glo, ghi = self.metrics.generalize_codes(a, lo[a : a + 1], hi[a : a + 1])
            lo[a], hi[a] = glo[0], ghi[0]
        return lo, hi

    def _create(self, keys: IntArray) -> _Candidates:
        """Merged clusters of the candidate pairs ``keys`` and their utility gains."""
        b = len(keys)
        qc = self.records.qi_count
        u, v = keys // self.n, keys % self.n
        msize = self.size[u] + self.size[v]
        split = msize > self.k
        mlo = np.minimum(self.lo[u], self.lo[v])
        mhi = np.maximum(self.hi[u], self.hi[v])
        for a in range(qc):
            mlo[:, a], mhi[:, a] = self.metrics.generalize_codes(a, mlo[:, a], mhi[:, a])
        rlo = np.zeros((b, qc), np.int64)
        rhi = np.zeros((b, qc), np.int64)
        rsize = np.zeros(b, np.int64)
        mmem = np.full((b, self.k), -1, np.int64)
        rmem = np.full((b, self.k), -1, np.int64)
        for i in np.flatnonzero(split):
            union = np.sort(np.concatenate([self.members[u[i]], self.members[v[i]]]))
            main, rest = self._split(union)
            mmem[i, : len(main)] = main
            rmem[i, : len(rest)] = rest
            mlo[i], mhi[i] = self._ranges_of(main)
            rlo[i], rhi[i] = self._ranges_of(rest)
            msize[i] = len(main)
            rsize[i] = len(rest)
        cands = _Candidates(
            keys,
            np.zeros(b),
            mlo,
            mhi,
            qi_penalties(self.metrics, mlo, mhi),
            np.minimum(msize, self.k),
            rlo,
            rhi,
            qi_penalties(self.metrics, rlo, rhi),
            rsize,
            split,
            mmem,
            rmem,
        )
        for g in self.groups:
            rows = np.arange(g.size)
            step = max(1, BLOCK_CELLS // max(1, 3 * g.size))
            for start in range(0, b, step):
                index = np.arange(start, min(b, start + step))
                best = self._best_new(g, rows, cands, index)
                cands.gain[index] += self._terms(
                    g, rows, best, cands, index, self.vals, self.ids
                ).sum(axis=1)
        return cands

    def _kept_min(
        self, g: Group, rows: IntArray, cands: _Candidates, index: IntArray, rest: bool
    ) -> IntArray:
        """min over a candidate's (main or rest) records of kept mismatches: (B, R)."""
        keys = cands.keys[index]
        u, v = keys // self.n, keys % self.n
        grow = g.offset + rows
        out = np.minimum(self.kept[grow][:, u], self.kept[grow][:, v]).T.astype(np.int64)
        split = np.flatnonzero(cands.split[index])
        if len(split):
            mem = (cands.rmem if rest else cands.mmem)[index[split]]
            best = np.full((len(split), len(rows)), np.iinfo(np.int64).max, np.int64)
            for s in range(mem.shape[1]):
                valid = mem[:, s] >= 0
                m = mismatches(g, rows, self.codes[np.maximum(mem[:, s], 0)], kept_only=True).T
                best = np.where(valid[:, None], np.minimum(best, m), best)
            out[split] = best
        result: IntArray = out
        return result

    def _preserve(
        self, g: Group, rows: IntArray, cands: _Candidates, index: IntArray, rest: bool
    ) -> FloatArray:
        lo = (cands.rlo if rest else cands.mlo)[index]
        hi = (cands.rhi if rest else cands.mhi)[index]
        ne = (cands.rne if rest else cands.mne)[index]
        size = (cands.rsize if rest else cands.msize)[index]
        total = qi_deltas(self.metrics, g, rows, lo, hi, ne)
        if g.kept:
            total = total + self._kept_min(g, rows, cands, index, rest)
        out = (1.0 - total / g.width) * (size[:, None] / self.k)
        return np.where(size[:, None] > 0, out, -1.0)

    def _best_new(
        self, g: Group, rows: IntArray, cands: _Candidates, index: IntArray
    ) -> FloatArray:
        """The better preserve of each candidate's new clusters (main, rest) on ``rows``."""
        best = self._preserve(g, rows, cands, index, rest=False)
        if cands.rsize[index].any():
            best = np.maximum(best, self._preserve(g, rows, cands, index, rest=True))
        return best

    def _terms(
        self,
        g: Group,
        rows: IntArray,
        best_new: FloatArray,
        cands: _Candidates,
        index: IntArray,
        vals: FloatArray,
        ids: IntArray,
    ) -> FloatArray:
        """Per candidate and instance: new best preserve minus the current best (B, R), given
        the candidates' own best (``best_new``) and the top three ``vals``/``ids`` of the
        instances ``rows`` (group-local)."""
        keys = cands.keys[index]
        u, v = (keys // self.n)[:, None], (keys % self.n)[:, None]
        grow = g.offset + rows
        top_v = vals[grow]
        top_i = ids[grow]
        first = (top_i[None, :, 0] != u) & (top_i[None, :, 0] != v)
        second = (top_i[None, :, 1] != u) & (top_i[None, :, 1] != v)
        excl = np.where(
            first, top_v[None, :, 0], np.where(second, top_v[None, :, 1], top_v[None, :, 2])
        )
        terms: FloatArray = np.maximum(excl, best_new) - top_v[None, :, 0]
        return terms

    # -- one merge ---------------------------------------------------------------------------
    def _column(self, members: IntArray) -> tuple[FloatArray, IntArray]:
        """Preserve and kept-mismatch minimum of a cluster for every instance."""
        lo, hi = self._ranges_of(members)
        pres = np.empty(self.preserve.shape[0])
        kept = np.zeros(self.preserve.shape[0], np.int64)
        for g in self.groups:
            rows = np.arange(g.size)
            total = qi_deltas(self.metrics, g, rows, lo[None, :], hi[None, :])[0]
            if g.kept:
                km = mismatches(g, rows, self.codes[members], kept_only=True).min(axis=1)
                kept[g.offset : g.offset + g.size] = km
                total = total + km
            pres[g.offset : g.offset + g.size] = (1.0 - total / g.width) * len(members) / self.k
        return pres, kept

    def step(self) -> bool:
        """Apply the best candidate merge; False when there is none."""
        cands = self.cands
        if len(cands.keys) == 0:
            return False
        tied = np.flatnonzero(cands.gain >= cands.gain.max() - TIE)
        pick = int(tied[0])
        if self.ties == "closest" and len(tied) > 1:
            tu, tv = cands.keys[tied] // self.n, cands.keys[tied] % self.n
            d = self.metrics.range_distances(self.lo[tu], self.hi[tu], self.lo[tv], self.hi[tv])
            pick = int(tied[np.flatnonzero(d == d.min())[0]])
        u, v = int(cands.keys[pick] // self.n), int(cands.keys[pick] % self.n)
        self.utility += float(cands.gain[pick])
        self.history.append((u, v, self.utility, len(tied)))
        if cands.split[pick]:
            main = cands.mmem[pick][cands.mmem[pick] >= 0]
            rest = cands.rmem[pick][cands.rmem[pick] >= 0]
        else:
            main = np.sort(np.concatenate([self.members[u], self.members[v]]))
            rest = np.zeros(0, np.int64)
        # forget the two clusters and every candidate involving them
        cu, cv = cands.keys // self.n, cands.keys % self.n
        survive = np.flatnonzero((cu != u) & (cu != v) & (cv != u) & (cv != v))
        cands = cands.take(survive)
        self.alive[[u, v]] = False
        self.preserve[:, [u, v]] = -1.0
        touched = [u, v]
        for part in (main, rest):
            if len(part) == 0:
                continue
            slot = int(part[0])
            self.alive[slot] = True
            self.sealed[slot] = len(part) == self.k
            self.size[slot] = len(part)
            self.members[slot] = part
            self.lo[slot], self.hi[slot] = self._ranges_of(part)
            column, kept = self._column(part)
            self.preserve[:, slot] = column
            self.kept[:, slot] = kept
            touched.append(slot)
        # refresh the top three where a touched column was or now enters
        refresh = np.isin(self.ids, touched).any(axis=1)
        for slot in touched[2:]:
            refresh |= self.preserve[:, slot] > self.vals[:, 2]
        rows = np.flatnonzero(refresh)
        old_vals, old_ids = self.vals.copy(), self.ids.copy()
        if len(rows):
            self.vals[rows], self.ids[rows] = top3(self.preserve[rows])
        changed = rows[
            (self.vals[rows] != old_vals[rows]).any(axis=1)
            | (self.ids[rows] != old_ids[rows]).any(axis=1)
        ]
        if len(changed) and len(cands.keys):
            self._update_gains(cands, changed, old_vals, old_ids)
        # candidate set for the next round
        stale = set(touched)
        if self.nbrs is not None:
            open_slots = self._open()
            closed = ~(self.alive & ~self.sealed)
            self.nbrs[closed] = -1
            refresh_slots = open_slots[np.isin(self.nbrs[open_slots], list(stale)).any(axis=1)]
            new_open = [s for s in touched[2:] if self.alive[s] and not self.sealed[s]]
            # a new cluster may be closer than some list's last neighbour: those lists are
            # recomputed too, so every list stays its cluster's q closest open clusters
            closer = []
            for slot in new_open:
                d = self.metrics.range_distances(
                    self.lo[slot][None, :],
                    self.hi[slot][None, :],
                    self.lo[open_slots],
                    self.hi[open_slots],
                )
                closer.append(open_slots[(d <= self.nbr_worst[open_slots]) & (open_slots != slot)])
            todo = np.unique(np.concatenate([refresh_slots, np.array(new_open, np.int64), *closer]))
            if len(todo):
                self._refresh_neighbours(todo)
        keys = self._candidate_keys()
        known = np.searchsorted(cands.keys, keys)
        known = np.minimum(known, max(len(cands.keys) - 1, 0))
        have = (cands.keys[known] == keys) if len(cands.keys) else np.zeros(len(keys), bool)
        kept_cands = cands.take(known[have])
        fresh = self._create(keys[~have])
        self.evaluated += len(fresh.keys)
        merged = _Candidates.concat(kept_cands, fresh)
        self.cands = merged.take(np.argsort(merged.keys, kind="stable"))
        self.merges += 1
        return True

    def _update_gains(
        self, cands: _Candidates, changed: IntArray, old_vals: FloatArray, old_ids: IntArray
    ) -> None:
        """Add to every cached gain the change of its terms on the instances whose top three
        changed. Where the best value itself is unchanged, only candidates involving a cluster
        of the old or new top three can see a different term."""
        index_all = np.arange(len(cands.keys))
        cu, cv = cands.keys // self.n, cands.keys % self.n
        for g in self.groups:
            local = changed[(changed >= g.offset) & (changed < g.offset + g.size)] - g.offset
            if len(local) == 0:
                continue
            grow = g.offset + local
            same_best = self.vals[grow, 0] == old_vals[grow, 0]
            jobs = [(local[~same_best], index_all)]
            if same_best.any():
                rows = local[same_best]
                slots = np.unique(
                    np.concatenate([self.ids[g.offset + rows], old_ids[g.offset + rows]])
                )
                involved = np.flatnonzero(np.isin(cu, slots) | np.isin(cv, slots))
                jobs.append((rows, involved))
            for rows, pairs in jobs:
                if len(rows) == 0 or len(pairs) == 0:
                    continue
                step = max(1, BLOCK_CELLS // max(1, 3 * len(rows)))
                for start in range(0, len(pairs), step):
                    index = pairs[start : start + step]
                    best = self._best_new(g, rows, cands, index)
                    new = self._terms(g, rows, best, cands, index, self.vals, self.ids)
                    old = self._terms(g, rows, best, cands, index, old_vals, old_ids)
                    cands.gain[index] += (new - old).sum(axis=1)

    def unsealed_records(self) -> int:
        return int(self.size[self.alive & ~self.sealed].sum())

    def labels(self) -> IntArray:
        out = np.full(self.n, -1, np.int64)
        for label, slot in enumerate(np.flatnonzero(self.alive & self.sealed)):
            out[self.members[slot]] = label
        return out


def pair_enum(
    records: EncodedRecords,
    k: int,
    *,
    neighbours: int | None = 5,
    exact_distance: bool = False,
    ties: Literal["first", "closest"] = "first",
    max_records: int = DEFAULT_MAX_RECORDS,
    max_cells: int = DEFAULT_MAX_CELLS,
    max_records_all_pairs: int = DEFAULT_MAX_RECORDS_ALL_PAIRS,
) -> ClusteringResult:
    """Cluster ``records`` into clusters of exactly ``k`` with PAIR-ENUM (module docstring);
    ``neighbours`` is Opt-1's q (None: every pair, the thesis's unoptimised candidate set).
    ``ties``: among merges of equal utility, ``first`` takes the first in pair order (the
    thesis's rule, Example 4.2), ``closest`` the pair of closest clusters (then pair order), an
    extension: when few instances discriminate (Adult has 16), utility ties are common and pair
    order groups unrelated records."""
    check_k(records, k, KEY)
    if neighbours is not None and neighbours < 1:
        raise SpecError(
            f"{KEY}.neighbours",
            f"neighbours = {neighbours} is below 1",
            "use neighbours >= 1, or leave it unset to try every pair",
        )
    check_size(records, max_records, KEY, "O(records²) merges and neighbour lists")
    if neighbours is None:
        check_size(
            records, max_records_all_pairs, KEY, "without neighbours every pair is a candidate"
        )
    cells = records.instances * records.size
    if cells > max_cells:
        raise SpecError(
            f"{KEY}.max_cells",
            f"{records.instances} dependency instances x {records.size} records = {cells} "
            f"preserve values exceed the limit of {max_cells}",
            "anonymize fewer records, declare fewer dependencies, use k_assemble, or raise "
            "max_cells knowingly (8 bytes each)",
        )
    started = time.perf_counter()
    state = PairEnum(records, k, exact=exact_distance, neighbours=neighbours, ties=ties)
    while state.unsealed_records() >= k and state.step():
        pass
    return finish(
        records,
        "pair_enum",
        k,
        state.labels(),
        time.perf_counter() - started,
        {"merges": state.merges, "candidates_evaluated": state.evaluated},
    )
