"""Grouping, ordering and key lookups on numpy columns, for Mondrian's per-round planning.

A round's planning works on a few thousand to a few hundred thousand candidate rows; pandas'
per-call overhead (index alignment, merges, object dtypes) cost more than the arithmetic itself
(BENCHMARKS.md "Mondrian's rounds in memory"). These helpers do the same on plain arrays and
keep pandas' semantics where a result depends on them: stable orderings, first-appearance group
order, and Kahan-compensated group sums (what pandas 2's ``Series.groupby(...).sum()``
computed), so a release does not change by a last bit in a tie between two candidate splits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from anonsql.arrays import BoolArray, FloatArray, IntArray

#: A column of any dtype.
Column = npt.NDArray[Any]


def codes(*columns: IntArray) -> IntArray:
    """Dense int64 codes of the rows' keys, ordered as the keys sort lexicographically."""
    if not columns or columns[0].shape[0] == 0:
        return np.zeros(0 if not columns else columns[0].shape[0], np.int64)
    key: IntArray = np.zeros(columns[0].shape[0], np.int64)
    for column in columns:
        values, code = np.unique(column, return_inverse=True)
        # key < rows and code < rows, so key * cardinality + code stays far below 2^63
        key = key * np.int64(values.shape[0]) + code.astype(np.int64)
        _, key = np.unique(key, return_inverse=True)
        key = key.astype(np.int64)
    return key


def order_by(*keys: Column) -> IntArray:
    """The stable order sorting rows by ``keys`` (the first key first), ascending; negate a
    numeric key to sort it descending."""
    order: IntArray = np.lexsort(keys[::-1]).astype(np.int64)
    return order


def starts(sorted_key: Column) -> BoolArray:
    """True at the first row of each run of equal values of an already sorted key."""
    first = np.ones(sorted_key.shape[0], bool)
    first[1:] = sorted_key[1:] != sorted_key[:-1]
    return first


def group_index(first: BoolArray) -> IntArray:
    """0, 1, 2, ... numbering the runs that ``first`` marks."""
    return (np.cumsum(first) - 1).astype(np.int64)


def rank_in_group(first: BoolArray) -> IntArray:
    """Position of each row within its run (``groupby(...).cumcount()`` on sorted rows)."""
    positions = np.arange(first.shape[0], dtype=np.int64)
    rank: IntArray = positions - np.maximum.accumulate(np.where(first, positions, 0))
    return rank


def groups_in_order(key: IntArray) -> tuple[IntArray, IntArray]:
    """Groups of equal keys numbered in the order they first appear (pandas' ``sort=False``
    groups): each row's group, and each group's first row (``drop_duplicates`` keeping the
    first)."""
    _, index, inverse = np.unique(key, return_index=True, return_inverse=True)
    order = np.argsort(index, kind="stable")
    rank = np.empty(order.shape[0], np.int64)
    rank[order] = np.arange(order.shape[0], dtype=np.int64)
    return rank[inverse.reshape(-1)], index[order].astype(np.int64)


def combined_key(keys: Sequence[Column], *, span: int = (1 << 62) - 1) -> IntArray | None:
    """One int64 key ordering rows as ``keys`` (integer columns, the first key first) do
    lexicographically, or None when a key is not a signed or small integer or the keys' ranges
    multiply past ``span`` (then :func:`codes` or :func:`order_by` serve)."""
    count = keys[0].shape[0]
    combined: IntArray = np.zeros(count, np.int64)
    if count == 0:
        return combined
    product = 1
    for key in keys:
        if not fits_int64(key):
            return None
        wide = key.astype(np.int64)
        low = int(wide.min())
        width = int(wide.max()) - low + 1
        product *= width
        if product > span:
            return None
        combined = combined * width + (wide - low)
    return combined


def small_key(keys: Sequence[IntArray]) -> npt.NDArray[np.uint16] | None:
    """:func:`combined_key` as uint16, or None when the keys' ranges multiply past 2^16: numpy
    sorts keys this narrow with a stable radix sort, in linear time."""
    combined = combined_key(keys, span=1 << 16)
    return None if combined is None else combined.astype(np.uint16)


def lookup(left: tuple[IntArray, ...], right: tuple[IntArray, ...]) -> IntArray:
    """For each row of ``left``, the index of the row of ``right`` with the same key, or -1
    (``right``'s keys are unique)."""
    n_left = left[0].shape[0]
    if n_left == 0:
        return np.zeros(0, np.int64)
    if right[0].shape[0] == 0:
        return np.full(n_left, -1, np.int64)
    keys = _search_keys(left, right)
    if keys is not None:
        # one sort of the right-hand keys and a binary search (no dense recoding)
        lkey, rkey = keys
        order = np.argsort(rkey)
        at = np.minimum(np.searchsorted(rkey[order], lkey), rkey.shape[0] - 1)
        hit: IntArray = np.where(rkey[order][at] == lkey, order[at], -1).astype(np.int64)
        return hit
    key = codes(*(np.concatenate([a, b]) for a, b in zip(left, right, strict=True)))
    table = np.full(int(key.max()) + 1, -1, np.int64)
    table[key[n_left:]] = np.arange(right[0].shape[0], dtype=np.int64)
    found: IntArray = table[key[:n_left]]
    return found


def _search_keys(
    left: tuple[IntArray, ...], right: tuple[IntArray, ...]
) -> tuple[IntArray, IntArray] | None:
    """int64 keys of the left and right rows that are equal exactly when the rows' keys are, or
    None (then :func:`codes` serves)."""
    if len(left) == 1 and fits_int64(left[0]) and fits_int64(right[0]):
        return left[0].astype(np.int64), right[0].astype(np.int64)  # one key: as it is
    combined = combined_key([np.concatenate([a, b]) for a, b in zip(left, right, strict=True)])
    if combined is None:
        return None
    n_left = left[0].shape[0]
    return combined[:n_left], combined[n_left:]


def fits_int64(key: Column) -> bool:
    """Whether a column's integers (or booleans) all fit int64 whatever their values."""
    return key.dtype.kind in "iub" and key.dtype != np.uint64


def kahan_sums(values: FloatArray, group: IntArray, groups: int) -> FloatArray:
    """Per group, the compensated (Kahan) sum of ``values`` in row order, bit for bit what
    pandas 2's groupby ``sum`` returned (pandas 3 sums otherwise: this keeps releases the same
    whichever pandas is installed)."""
    order = np.argsort(group, kind="stable")
    sorted_group = group[order]
    first = starts(sorted_group)
    rank = rank_in_group(first)
    total = np.zeros(groups, np.float64)
    compensation = np.zeros(groups, np.float64)
    for step in range(int(rank.max(initial=-1)) + 1):
        at = order[rank == step]
        lab = group[at]
        y = values[at] - compensation[lab]
        t = total[lab] + y
        c = (t - total[lab]) - y
        compensation[lab] = np.where(np.isnan(c), 0.0, c)  # an infinite value: no compensation
        total[lab] = t
    return total


def segment_reduce(ufunc: np.ufunc, values: Column, first: BoolArray) -> Column:
    """``ufunc`` (add, minimum, maximum) over each run of rows that ``first`` marks."""
    if values.shape[0] == 0:
        return values[:0]
    return ufunc.reduceat(values, np.nonzero(first)[0])  # type: ignore[no-any-return, unused-ignore]


@dataclass(frozen=True)
class Rows:
    """Equal-length named columns: the few frame operations the planner needs."""

    columns: Mapping[str, Column]

    def __getitem__(self, name: str) -> Column:
        return self.columns[name]

    def __len__(self) -> int:
        return next(iter(self.columns.values())).shape[0] if self.columns else 0

    def take(self, index: IntArray | BoolArray) -> Rows:
        """The rows at ``index`` (positions or a mask), in that order."""
        return Rows({name: column[index] for name, column in self.columns.items()})

    def with_columns(self, **columns: Column) -> Rows:
        return Rows({**self.columns, **columns})

    @staticmethod
    def concat(parts: Sequence[Rows]) -> Rows:
        names = list(parts[0].columns)
        return Rows({name: np.concatenate([p[name] for p in parts]) for name in names})


__all__ = [
    "Column",
    "Rows",
    "codes",
    "combined_key",
    "group_index",
    "groups_in_order",
    "kahan_sums",
    "lookup",
    "order_by",
    "rank_in_group",
    "segment_reduce",
    "starts",
]
