"""Top-down local recoding (J. Xu, W. Wang, J. Pei, X. Wang, B. Shi, A. W.-C. Fu,
"Utility-Based Anonymization Using Local Recoding", KDD 2006, Section 4.2), the thesis's second
baseline.

A group of ``2k`` or more records is split in two: seeds ``u, v`` far apart (from a random
record, alternately take the record farthest from the last one, for ``rounds`` rounds or until
the distance stops growing), then every other record, in random order, joins the group whose
total certainty penalty ``|G| · NCP(G)`` grows least (ties to ``u``'s group). If a group ends
with fewer than ``k`` records it takes, one at a time, the records of the other group that raise
its penalty least. Both halves are split again; groups of fewer than ``2k`` records are final
(sizes ``k .. 2k - 1``, nothing suppressed). ``NCP`` is anonsql's (equal weights): numeric
``(max - min) / range``, categorical ``leaves under the LCA / leaves`` (0 for one leaf).

The per-record assignment is inherently sequential (each record changes its group's
generalization): a plain Python loop of O(|QI|) per record and level, O(|R| log(|R|/k)) steps
overall, plus vectorized O(|R|) seed searches per split. Inputs beyond ``max_records`` (default
100,000) are refused (times: BENCHMARKS.md "Dependency-preserving generalization").
It ignores functional dependencies (it is the baseline).
"""

from __future__ import annotations

import time

import numpy as np

from anonsql.algorithms.dependency.encoding import EncodedRecords
from anonsql.algorithms.dependency.result import ClusteringResult, check_k, check_size, finish
from anonsql.arrays import FloatArray, IntArray

KEY = "algorithm.top_down"
DEFAULT_MAX_RECORDS = 100_000
#: Attributes with at most this many codes get a Python table of range penalties.
TABLE_LIMIT = 1024


class _Ncp:
    """NCP of code ranges per quasi-identifier, vectorized and as Python tables."""

    def __init__(self, records: EncodedRecords) -> None:
        self.records = records
        self.tables: list[list[list[float]] | None] = []
        for a, attribute in enumerate(records.qi):
            d = attribute.domain
            if d <= TABLE_LIMIT:
                c = np.arange(d)
                lo = np.minimum(c[:, None], c[None, :])
                hi = np.maximum(c[:, None], c[None, :])
                self.tables.append(self.attribute(a, lo, hi).tolist())
            else:
                self.tables.append(None)

    def attribute(self, a: int, lo: IntArray, hi: IntArray) -> FloatArray:
        attribute = self.records.qi[a]
        if attribute.values is not None:
            span = float(attribute.values[-1] - attribute.values[0])
            if span <= 0:
                return np.zeros(np.shape(lo))
            return (attribute.values[hi] - attribute.values[lo]) / span
        tree = attribute.tree
        assert tree is not None
        node = tree.lca(lo, hi)
        leaves = (tree.last_leaf[node] - tree.first_leaf[node] + 1).astype(np.float64)
        return np.where(leaves <= 1, 0.0, leaves / tree.leaf_count)

    def of(self, lo: IntArray, hi: IntArray) -> FloatArray:
        out = np.zeros(lo.shape[:-1])
        for a in range(self.records.qi_count):
            out += self.attribute(a, lo[..., a], hi[..., a])
        return out

    def one(self, a: int, lo: int, hi: int) -> float:
        table = self.tables[a]
        if table is not None:
            return table[lo][hi]
        return float(self.attribute(a, np.array(lo), np.array(hi)))


class _TopDown:
    def __init__(self, records: EncodedRecords, k: int, seed: int, rounds: int) -> None:
        self.k = k
        self.codes = records.codes[:, : records.qi_count]
        self.ncp = _Ncp(records)
        self.rng = np.random.default_rng(seed)
        self.rounds = rounds
        self.splits = 0

    def _farthest(self, group: IntArray, r: int) -> tuple[int, float]:
        c = self.codes
        d = self.ncp.of(np.minimum(c[group], c[r]), np.maximum(c[group], c[r]))
        i = int(np.argmax(d))
        return int(group[i]), float(d[i])

    def _seeds(self, group: IntArray) -> tuple[int, int]:
        u = int(group[self.rng.integers(len(group))])
        v, best = self._farthest(group, u)
        for _ in range(self.rounds - 1):
            w, d = self._farthest(group, v)
            if d <= best:
                break
            u, v, best = v, w, d
        return u, v

    def split(self, group: IntArray) -> tuple[IntArray, IntArray]:
        u, v = self._seeds(group)
        q = self.codes.shape[1]
        lo = [self.codes[u].tolist(), self.codes[v].tolist()]
        hi = [list(lo[0]), list(lo[1])]
        pen = [0.0, 0.0]
        size = [1, 1]
        sides: list[list[int]] = [[u], [v]]
        rest = group[(group != u) & (group != v)]
        order = self.rng.permutation(rest)
        rows = self.codes[order].tolist()
        one = self.ncp.one
        for record, row in zip(order.tolist(), rows, strict=True):
            inc = [0.0, 0.0]
            new = [0.0, 0.0]
            for s in (0, 1):
                total = 0.0
                glo, ghi = lo[s], hi[s]
                for a in range(q):
                    c = row[a]
                    total += one(a, c if c < glo[a] else glo[a], c if c > ghi[a] else ghi[a])
                new[s] = total
                inc[s] = (size[s] + 1) * total - size[s] * pen[s]
            s = 0 if inc[0] <= inc[1] else 1
            glo, ghi = lo[s], hi[s]
            for a in range(q):
                c = row[a]
                if c < glo[a]:
                    glo[a] = c
                if c > ghi[a]:
                    ghi[a] = c
            pen[s] = new[s]
            size[s] += 1
            sides[s].append(record)
        a_side = np.array(sides[0], np.int64)
        b_side = np.array(sides[1], np.int64)
        if len(a_side) < self.k:
            a_side, b_side = self._fill(a_side, b_side)
        elif len(b_side) < self.k:
            b_side, a_side = self._fill(b_side, a_side)
        self.splits += 1
        return a_side, b_side

    def _fill(self, small: IntArray, large: IntArray) -> tuple[IntArray, IntArray]:
        """Move records of ``large`` into ``small`` (least penalty increase first) until it
        holds ``k``."""
        c = self.codes
        lo, hi = c[small].min(axis=0), c[small].max(axis=0)
        small_l, large_l = list(small), list(large)
        while len(small_l) < self.k:
            cand = np.array(large_l, np.int64)
            cost = self.ncp.of(np.minimum(c[cand], lo), np.maximum(c[cand], hi))
            i = int(np.argmin(cost))
            r = large_l.pop(i)
            small_l.append(r)
            lo, hi = np.minimum(lo, c[r]), np.maximum(hi, c[r])
        return np.array(small_l, np.int64), np.array(large_l, np.int64)

    def run(self, n: int) -> IntArray:
        labels = np.full(n, -1, np.int64)
        if n < self.k:
            return labels
        stack = [np.arange(n, dtype=np.int64)]
        label = 0
        while stack:
            group = stack.pop()
            if len(group) < 2 * self.k:
                labels[group] = label
                label += 1
                continue
            a_side, b_side = self.split(group)
            stack.append(b_side)
            stack.append(a_side)
        return labels


def top_down(
    records: EncodedRecords,
    k: int,
    *,
    seed: int = 0,
    rounds: int = 3,
    max_records: int = DEFAULT_MAX_RECORDS,
) -> ClusteringResult:
    """Cluster ``records`` with Xu et al.'s top-down partitioning (module docstring)."""
    check_k(records, k, KEY)
    check_size(records, max_records, KEY, "O(records · log(records / k)) sequential steps")
    started = time.perf_counter()
    state = _TopDown(records, k, seed, rounds)
    labels = state.run(records.size)
    return finish(
        records, "top_down", k, labels, time.perf_counter() - started, {"splits": state.splits}
    )
