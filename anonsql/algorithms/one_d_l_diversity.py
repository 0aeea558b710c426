"""The linear l-diversity heuristic over a 1D order (Ghinita, Karras, Kalnis, Mamoulis, "Fast Data
Anonymization with Low Information Loss", VLDB 2007; digest 001 §8, reconstruction §8.2).

Records are taken in key order from one FIFO queue per sensitive value (the "frontier of
search": the first unassigned record of each value). Each step forms one group of ``l..2l-1``
records with pairwise distinct sensitive values such that the remaining records stay
*eligible* (``l * max_s count(s) <= remaining``, the condition under which a set can be split
into l-diverse groups): values that would otherwise dominate the remainder give a record now,
the rest of the group comes from the values whose next record has the smallest key. Groups are
l-diverse in the frequency sense (no value above ``1/l`` of the group), which implies distinct
and entropy l-diversity, and a union of such groups keeps the property.

Items are (distinct QID vector, sensitive value) pairs with a row count, so the queues hold
per-item data, not per-row data. Rows of one QID vector may land in several groups; those
groups are merged (:func:`merge_sharing_vectors`), so the published generalization stays a
function of the vector; then, if ``k`` is also required, consecutive groups (in key order of
their first record) are merged until each holds ``k`` rows (digest §13 A25).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from anonsql.privacy.base import IntArray


class NotEligible(ValueError):
    """The records cannot be split into l-diverse groups: one value is too frequent."""

    def __init__(self, most_frequent: int, total: int, ell: int) -> None:
        self.most_frequent = most_frequent
        self.total = total
        self.largest_l = total // most_frequent if most_frequent else 0
        super().__init__(
            f"l = {ell} is infeasible: the most frequent sensitive value holds {most_frequent} "
            f"of {total} rows, so at most l = {self.largest_l} can hold"
        )


@dataclass(frozen=True)
class Groups:
    """Groups as runs of picks: group ``g`` took one record from each item in
    ``items[starts[g]:starts[g + 1]]``."""

    items: IntArray
    starts: IntArray

    @property
    def count(self) -> int:
        return len(self.starts) - 1


def linear_l_diverse(values: IntArray, counts: IntArray, ell: int) -> Groups:
    """Group the records of ``items`` (given in key order, each with a sensitive value code
    ``values[i]`` and ``counts[i]`` records) into l-diverse groups of distinct values."""
    if ell < 1:
        raise ValueError("l must be at least 1")
    codes, dense = np.unique(values, return_inverse=True)
    m = len(codes)
    remaining_per_value = np.bincount(dense, weights=counts, minlength=m).astype(np.int64)
    total = int(remaining_per_value.sum())
    if total == 0:
        return Groups(np.zeros(0, np.int64), np.zeros(1, np.int64))
    if ell * int(remaining_per_value.max()) > total:
        raise NotEligible(int(remaining_per_value.max()), total, ell)
    # one FIFO per value: its items in key order, a head pointer and the head's records left
    order = np.argsort(dense, kind="stable")
    bounds = np.searchsorted(dense[order], np.arange(m + 1))
    head = bounds[:-1].copy()
    head_left = np.where(head < bounds[1:], counts[order[np.minimum(head, len(order) - 1)]], 0)
    never = len(values)
    head_item = np.where(head < bounds[1:], order[np.minimum(head, len(order) - 1)], never)
    c = remaining_per_value
    remaining = total
    picks: list[int] = []
    starts = [0]
    while remaining > 0:
        nonempty = np.nonzero(c > 0)[0]
        chosen: IntArray | None = None
        for size in range(ell, 2 * ell):
            if size > len(nonempty):
                break
            rest = remaining - size
            if 0 < rest < ell:
                continue  # a non-empty remainder below l is never eligible
            critical = nonempty[ell * c[nonempty] > rest]
            if len(critical) > size:
                continue
            fill_from = nonempty[ell * c[nonempty] <= rest]
            # smallest head first; a tie (same item order) goes to the smaller value code
            fill = fill_from[
                np.argsort(head_item[fill_from], kind="stable")[: size - len(critical)]
            ]
            group = np.concatenate([critical, fill])
            if (ell * (c[group] - 1) > rest).any():
                continue
            chosen = group
            break
        if chosen is None:  # pragma: no cover - impossible for an eligible remainder (§8.3)
            raise RuntimeError("the l-diversity heuristic found no group for an eligible input")
        for value in chosen.tolist():
            picks.append(int(head_item[value]))
            head_left[value] -= 1
            if head_left[value] == 0:
                head[value] += 1
                if head[value] < bounds[value + 1]:
                    item = int(order[head[value]])
                    head_item[value] = item
                    head_left[value] = counts[item]
                else:
                    head_item[value] = never
        c[chosen] -= 1
        remaining -= len(chosen)
        starts.append(len(picks))
    return Groups(np.array(picks, np.int64), np.array(starts, np.int64))


def merge_sharing_vectors(groups: Groups, vector_of_item: IntArray) -> IntArray:
    """A merged group id (0, 1, ... in order of first pick) per group, such that groups taking
    rows of the same QID vector share an id."""
    parent = list(range(groups.count))

    def find(g: int) -> int:
        while parent[g] != g:
            parent[g] = parent[parent[g]]
            g = parent[g]
        return g

    owner: dict[int, int] = {}
    group_of_pick = np.repeat(np.arange(groups.count), np.diff(groups.starts))
    for g, vector in zip(
        group_of_pick.tolist(), vector_of_item[groups.items].tolist(), strict=True
    ):
        first = owner.setdefault(vector, g)
        if first != g:
            a, b = find(first), find(g)
            if a != b:
                parent[max(a, b)] = min(a, b)
    roots = np.array([find(g) for g in range(groups.count)], np.int64)
    _, merged = np.unique(roots, return_inverse=True)
    return merged.astype(np.int64)


def merge_to_k(first_item: IntArray, rows: IntArray, k: int) -> IntArray:
    """A new id per group so that every merged group holds ``>= k`` rows: groups in order of
    ``first_item`` are accumulated until ``k`` rows; a short tail joins the last full group."""
    order = np.argsort(first_item, kind="stable")
    new_id = np.zeros(len(rows), np.int64)
    current, held = 0, 0
    for g in order.tolist():
        new_id[g] = current
        held += int(rows[g])
        if held >= k:
            current, held = current + 1, 0
    if held and current > 0:  # the tail is short: fold it into the previous group
        new_id[new_id == current] = current - 1
    return new_id
