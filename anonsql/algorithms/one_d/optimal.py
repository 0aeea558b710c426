"""Optimal 1D k-anonymity over items in key order (Ghinita, Karras, Kalnis, Mamoulis,
"Fast Data Anonymization with Low Information Loss", VLDB 2007, §4; digest 001 §6).

Items are the distinct quasi-identifier vectors sorted by their 1D key, each with its number of
rows (weight), so that rows with equal vectors always share a group and the published relation
stays a function of the vector. Groups are runs of consecutive items holding at least ``k``
rows; the dynamic program minimizes the size-weighted information loss
``sum |G| * NCP(G)`` with NCP measured in the original multi-dimensional space (tight numeric
ranges, categorical lowest common ancestors).

Only runs that cannot be cut into two runs of ``>= k`` rows are candidates (cutting never raises
the size-weighted cost), so with unit weights the groups have ``k..2k-1`` rows as in the paper,
and a run never spans more than ``2k - 1`` items. Ties go to the smallest last group.

The program streams: :class:`OptimalPartitioner` takes the items in batches (as the engine
returns them in key order) and keeps only the last ``2k - 1`` items' values and costs between
batches, plus one small integer per item (how far back its best group starts) for the final
backtracking. Within a batch the candidate costs are computed column-wise with NumPy (one pass
per look-back distance over all the batch's ends), and the recurrence is solved in waves: every
end whose candidate starts all lie before the first unsolved end is solved at once (``k`` ends
per wave with unit weights).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from anonsql.algorithms.lca import HierarchyArrays
from anonsql.arrays import FloatArray, IntArray

#: Cost ties closer than this go to the smaller last group, as exact ties would.
_TIE = 1e-12
#: Ends per block of the cost matrix (look-back distances x ends), to bound its memory.
_MATRIX_CELLS = 1 << 21

#: How far back (in items) each end's best group starts: < 2k, so 32 bits are plenty.
BackArray = npt.NDArray[np.int32]


class OptimalPartitioner:
    """Streaming optimal 1D k-anonymity: :meth:`feed` items in key order, then :meth:`finish`.

    ``spans`` are the ranges of the numeric quasi-identifiers and ``hierarchies`` those of the
    categorical ones (values given as leaf ranks); a group's cost is ``rows * NCP`` with NCP
    averaged over all quasi-identifiers.
    """

    def __init__(self, spans: Sequence[float], hierarchies: Sequence[HierarchyArrays], k: int):
        if k < 1:
            raise ValueError("k must be at least 1")
        self.k = k
        self.hierarchies = list(hierarchies)
        self.inverse_span = np.array([1.0 / s if s > 0 else 0.0 for s in spans], np.float64)
        self.dims = len(spans) + len(self.hierarchies)
        self.items = 0
        # the window carried between batches: the last items' values, and the cumulative rows
        # and optimal costs at the prefix boundaries from the window's first item on
        self._numeric = np.zeros((0, len(spans)), np.float64)
        self._categorical = np.zeros((0, len(self.hierarchies)), np.int64)
        self._rows_before = np.zeros(1, np.int64)
        self._opt = np.zeros(1, np.float64)
        self._back: list[BackArray] = []

    @property
    def rows(self) -> int:
        return int(self._rows_before[-1])

    def feed(self, weights: IntArray, numeric: FloatArray, categorical: IntArray) -> None:
        """Add the next items (row counts, numeric values, categorical leaf ranks)."""
        if len(weights) == 0:
            return
        if (weights < 1).any():
            raise ValueError("every item must hold at least one row")
        carried = len(self._numeric)
        num = np.concatenate([self._numeric, numeric.astype(np.float64, copy=False)])
        cat = np.concatenate([self._categorical, categorical.astype(np.int64, copy=False)])
        rows_before = np.concatenate(
            [self._rows_before, self._rows_before[-1] + np.cumsum(weights, dtype=np.int64)]
        )
        opt = np.concatenate([self._opt, np.full(len(weights), np.inf)])
        back = np.zeros(len(weights), np.int32)
        ends = np.arange(carried, len(num))
        # s: the latest start whose run to the end holds >= k rows (-1: none);
        # lo: the earliest start whose run before s holds < k rows (else it splits in two)
        s = np.searchsorted(rows_before, rows_before[ends + 1] - self.k, side="right") - 1
        if self.items == 0:
            s[rows_before[ends + 1] < self.k] = -1
        lo = np.searchsorted(rows_before, rows_before[np.maximum(s, 0)] - self.k, side="right")
        block = max(64, _MATRIX_CELLS // (2 * self.k))
        for first in range(0, len(ends), block):
            part = slice(first, first + block)
            self._solve(ends[part], s[part], lo[part], num, cat, rows_before, opt, back, carried)
        self._back.append(back)
        self.items += len(weights)
        keep = min(len(num), 2 * self.k)
        self._numeric = num[len(num) - keep :]
        self._categorical = cat[len(cat) - keep :]
        self._rows_before = rows_before[len(num) - keep :]
        self._opt = opt[len(num) - keep :]

    def _solve(
        self,
        ends: IntArray,
        s: IntArray,
        lo: IntArray,
        num: FloatArray,
        cat: IntArray,
        rows_before: IntArray,
        opt: FloatArray,
        back: BackArray,
        carried: int,
    ) -> None:
        valid_any = s >= 0
        if not valid_any.any():
            return
        depth = int((ends - lo)[valid_any].max()) + 1
        cost = np.full((depth, len(ends)), np.inf)
        num_lo, num_hi = num[ends].copy(), num[ends].copy()
        cat_lo, cat_hi = cat[ends].copy(), cat[ends].copy()
        for t in range(depth):
            starts = ends - t
            if t:
                before = np.maximum(starts, 0)
                np.minimum(num_lo, num[before], out=num_lo)
                np.maximum(num_hi, num[before], out=num_hi)
                np.minimum(cat_lo, cat[before], out=cat_lo)
                np.maximum(cat_hi, cat[before], out=cat_hi)
            idx = np.nonzero((starts >= lo) & (starts <= s))[0]
            if len(idx) == 0:
                continue
            ncp = ((num_hi[idx] - num_lo[idx]) * self.inverse_span).sum(axis=1)
            for c, h in enumerate(self.hierarchies):
                ncp += h.ncp_of(h.lca(cat_lo[idx, c], cat_hi[idx, c]))
            rows = rows_before[ends[idx] + 1] - rows_before[starts[idx]]
            cost[t, idx] = rows * ncp / self.dims
        # waves: ends whose candidate starts are all solved prefixes are solved together
        offsets = np.arange(depth)[:, None]
        position = 0
        while position < len(ends):
            solved = ends[position]  # prefixes up to this boundary are final
            stop = int(np.searchsorted(s, solved, side="right"))
            stop = max(stop, position + 1)
            wave = slice(position, stop)
            candidates = opt[np.maximum(ends[wave][None, :] - offsets, 0)] + cost[:, wave]
            best = candidates.min(axis=0)
            choice = np.argmax(candidates <= best + _TIE, axis=0)
            opt[ends[wave] + 1] = best
            back[ends[wave] - carried] = choice
            position = stop

    def finish(self) -> tuple[IntArray, float]:
        """Start positions (item indexes, ascending) of the optimal groups, and the cost."""
        if self.rows < self.k:
            raise ValueError(f"k = {self.k} exceeds the {self.rows} rows")
        cost = float(self._opt[-1])
        if not np.isfinite(cost):
            raise ValueError("no grouping with every group of at least k rows")
        back = np.concatenate(self._back) if self._back else np.zeros(0, np.int32)
        starts: list[int] = []
        end = self.items
        while end > 0:
            start = end - 1 - int(back[end - 1])
            starts.append(start)
            end = start
        return np.array(starts[::-1], dtype=np.int64), cost


def group_ids(starts: IntArray, items: int) -> IntArray:
    """Group id (0, 1, ...) of each item from the groups' start positions."""
    marks = np.zeros(items, np.int64)
    marks[starts] = 1
    return np.cumsum(marks) - 1


def optimal_groups(
    weights: IntArray,
    numeric: FloatArray,
    spans: Sequence[float],
    categorical: IntArray,
    hierarchies: Sequence[HierarchyArrays],
    k: int,
    batch: int = 1 << 16,
) -> tuple[IntArray, float]:
    """Group id (0, 1, ...) of each item, and the optimal cost ``sum |G| * NCP(G)`` (NCP
    averaged over the quasi-identifiers); items must already be in key order.

    ``numeric`` is (items, numeric QIDs) of values with attribute ranges ``spans``;
    ``categorical`` is (items, categorical QIDs) of leaf ranks in ``hierarchies``.
    """
    partitioner = OptimalPartitioner(spans, hierarchies, k)
    for first in range(0, len(weights), batch):
        part = slice(first, first + batch)
        partitioner.feed(weights[part], numeric[part], categorical[part])
    starts, cost = partitioner.finish()
    return group_ids(starts, len(weights)), cost
