"""The imprecision of a set of parts against the spec's workload: Mondrian's ``split: workload``.

K. LeFevre, D. J. DeWitt, R. Ramakrishnan, "Workload-aware anonymization", KDD 2006, judge a
partitioning by the *imprecision* of the workload's selection queries: a query's answer on the
release counts every row of every part that its box overlaps, so the rows of parts that
straddle a query's boundary are the ones it may count wrongly. Their split heuristic picks the
split that lowers that imprecision the most; anonsql ranks Mondrian's allowed candidate splits
the same way, from the part ranges the rounds already have (``mondrian/bin_ranges``: every
part's min and max on every quasi-identifier before it splits).

A part of ``n`` rows that the query's box (its conditions on quasi-identifiers; conditions on
other columns are left out, they cut every part alike) overlaps is imprecise for the query in
the share ``min(1, s + w)`` of its rows: ``s`` is 1 when the part's extent is not inside the
box (the part straddles a bound of the query), 0 otherwise; ``w`` sums the part's normalized
widths on the quasi-identifiers the query groups by (range over the attribute's range; a
categorical node's NCP), 0 on one value each: a part spread over many groups mis-assigns more
of its rows. A part the box does not overlap is precise. A candidate split's **imprecision** is
``n`` times that share, summed over its parts and the workload's queries.
Extents: ``[min, max]`` of a numeric quasi-identifier; the leaves under the lowest common
ancestor of a categorical one (the node the part publishes). A numeric condition listing
values (``=``, ``IN``) holds the extent inside only when the extent is one listed value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from anonsql.algorithms.lca import HierarchyArrays
from anonsql.algorithms.workspace import Dimension
from anonsql.arrays import BoolArray, FloatArray, IntArray
from anonsql.spec.workload import ParsedQuery


@dataclass(frozen=True)
class _NumericBox:
    """A numeric quasi-identifier's conditions: ``low <= x <= high`` (open ends where said)
    and, if given, the listed values."""

    low: float = -np.inf
    high: float = np.inf
    low_open: bool = False
    high_open: bool = False
    points: FloatArray | None = None


@dataclass(frozen=True)
class _QueryBox:
    numeric: dict[int, _NumericBox] = field(default_factory=dict)
    #: Leaf ranks a categorical quasi-identifier's conditions let through (cumulative counts,
    #: one more than the leaves, for the hits of a leaf range).
    categorical: dict[int, IntArray] = field(default_factory=dict)
    grouped: tuple[int, ...] = ()


class WorkloadImprecision:
    """The workload's queries as boxes over the quasi-identifiers (see the module doc)."""

    def __init__(
        self,
        queries: Sequence[ParsedQuery],
        dims: Sequence[Dimension],
        arrays: dict[int, HierarchyArrays],
    ) -> None:
        self.arrays = arrays
        #: the range of each numeric quasi-identifier (0: one value)
        self.spans = {d.index: d.span for d in dims if d.is_numeric}
        by_column = {d.column: d for d in dims}
        #: first leaf rank of each node, per categorical dimension
        self.first_leaf = {
            d.index: np.array([n.first_leaf for n in d.hierarchy.nodes], np.int64)
            for d in dims
            if not d.is_numeric and d.hierarchy is not None
        }
        self.boxes = [self._box(q, by_column) for q in queries]

    def _box(self, query: ParsedQuery, dims: dict[str, Dimension]) -> _QueryBox:
        numeric: dict[int, _NumericBox] = {}
        categorical: dict[int, IntArray] = {}
        for c in query.where:
            d = dims.get(c.column)
            if d is None:
                continue
            if d.is_numeric:
                box = numeric.get(d.index, _NumericBox())
                numeric[d.index] = _narrow(box, c.op, [float(v) for v in c.values])
            elif d.hierarchy is not None:
                ranks = {n.label: n.first_leaf for n in d.hierarchy.nodes if n.is_leaf}
                selected = np.zeros(d.hierarchy.leaf_count, np.int64)
                for v in c.values:
                    if str(v) in ranks:
                        selected[ranks[str(v)]] = 1
                if d.index in categorical:  # a second condition: both must hold
                    selected &= np.diff(categorical[d.index])
                categorical[d.index] = np.concatenate([[0], np.cumsum(selected)])
        grouped = tuple(dims[g].index for g in query.group_by if g in dims)
        return _QueryBox(numeric, categorical, grouped)

    def of_parts(
        self, n: IntArray, lo: dict[int, FloatArray], hi: dict[int, FloatArray]
    ) -> FloatArray:
        """Each part's rows times the number of queries it is imprecise for."""
        extents = {}
        for index, first in self.first_leaf.items():
            node = self.arrays[index].lca(lo[index].astype(np.int64), hi[index].astype(np.int64))
            extents[index] = (first[node], self.arrays[index].last_leaf[node])
        total = np.zeros(n.shape[0], np.float64)
        for box in self.boxes:
            overlaps = np.ones(n.shape[0], bool)
            inside = np.ones(n.shape[0], bool)
            for index, numeric in box.numeric.items():
                o, i = _numeric(numeric, lo[index], hi[index])
                overlaps &= o
                inside &= i
            for index, cumulative in box.categorical.items():
                first, last = extents[index]
                hits = cumulative[last + 1] - cumulative[first]
                overlaps &= hits > 0
                inside &= hits == last - first + 1
            share = np.where(inside, 0.0, 1.0)
            for index in box.grouped:
                share += self._width(index, lo[index], hi[index])
            total += np.where(overlaps, n * np.minimum(share, 1.0), 0.0)
        return total

    def _width(self, index: int, lo: FloatArray, hi: FloatArray) -> FloatArray:
        """The normalized width of each part on a grouped quasi-identifier: its range over the
        attribute's (numeric) or its node's NCP (categorical); 0 on one value."""
        if index in self.spans:
            span = self.spans[index]
            return (hi - lo) / span if span > 0 else np.zeros(lo.shape[0])
        arrays = self.arrays[index]
        width: FloatArray = arrays.ncp_of(arrays.lca(lo.astype(np.int64), hi.astype(np.int64)))
        return width


def _narrow(box: _NumericBox, op: str, values: list[float]) -> _NumericBox:
    low, high, low_open, high_open, points = (
        box.low,
        box.high,
        box.low_open,
        box.high_open,
        box.points,
    )
    if op == "between":
        if values[0] > low or (values[0] == low and low_open):
            low, low_open = values[0], False
        if values[1] < high or (values[1] == high and high_open):
            high, high_open = values[1], False
    elif op in (">", ">="):
        if values[0] > low or (values[0] == low and op == ">"):
            low, low_open = values[0], op == ">"
    elif op in ("<", "<="):
        if values[0] < high or (values[0] == high and op == "<"):
            high, high_open = values[0], op == "<"
    else:  # = and IN
        listed = np.unique(np.array(values, np.float64))
        points = listed if points is None else np.intersect1d(points, listed)
    return _NumericBox(low, high, low_open, high_open, points)


def _numeric(box: _NumericBox, lo: FloatArray, hi: FloatArray) -> tuple[BoolArray, BoolArray]:
    """Whether each extent ``[lo, hi]`` overlaps the box, and whether it lies inside it."""
    above_low = (hi > box.low) if box.low_open else (hi >= box.low)
    below_high = (lo < box.high) if box.high_open else (lo <= box.high)
    overlaps = above_low & below_high
    inside = ((lo > box.low) if box.low_open else (lo >= box.low)) & (
        (hi < box.high) if box.high_open else (hi <= box.high)
    )
    if box.points is not None:
        points = box.points[(box.points >= box.low) & (box.points <= box.high)]
        count = np.searchsorted(points, hi, side="right") - np.searchsorted(points, lo, "left")
        overlaps &= count > 0
        inside &= (lo == hi) & (count > 0)
    return overlaps, inside


__all__ = ["WorkloadImprecision"]
