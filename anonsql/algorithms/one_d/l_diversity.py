"""The linear l-diversity heuristic over a 1D order (Ghinita, Karras, Kalnis, Mamoulis, "Fast Data
Anonymization with Low Information Loss", VLDB 2007; digest 001 §8, reconstruction §8.2 with
the "grow until l-diverse and the remainder is eligible" variant of §8.6).

The unit is a distinct quasi-identifier vector with its histogram of sensitive values, so rows
with equal vectors always share a group (the published generalization stays a function of the
vector) and Python holds per-(vector, value) data, never per-row data. Groups are grown one
vector at a time from the search *frontier*: the first unassigned vector (in key order)
holding each sensitive value.

* A value is *critical* when the remainder could not stay *eligible* without it
  (``l * left(s) > remaining - target size``; eligible means ``l * max_s count(s) <= size``,
  the condition under which a set splits into l-diverse groups): the head vector of the most
  critical value is added first.
* Otherwise the group takes the head vector with the smallest key among the values that are
  not its most frequent (the first vector of a group is the next one in key order).
* A group closes once it is l-diverse in the frequency sense (no value above ``1/l`` of it),
  holds at least ``k`` rows, and leaves a remainder that is empty or eligible with at least
  ``k`` rows. So the last group, the whole remainder, is l-diverse and ``k``-anonymous too.

Frequency l-diversity implies distinct l-diversity and entropy l-diversity (min-entropy never
exceeds entropy). With one row per vector this reproduces the digest's traces (§8.4, §4.6).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from anonsql.arrays import IntArray
from anonsql.privacy.base import EPSILON


class NotEligible(ValueError):
    """The rows cannot be split into groups that satisfy the requirement: the whole table does
    not (with the frequency definition, one value is too frequent: ``largest_l`` says how far
    l may go)."""

    def __init__(self, message: str, largest_l: int | None = None) -> None:
        self.largest_l = largest_l
        super().__init__(message)

    @classmethod
    def too_frequent(cls, most_frequent: int, total: int, ell: int) -> NotEligible:
        largest = total // most_frequent
        return cls(
            f"l = {ell} is infeasible: the most frequent sensitive value holds "
            f"{most_frequent} of {total} rows, so at most l = {largest} can hold",
            largest,
        )


@dataclass(frozen=True)
class Diversity:
    """What every group, and every remainder (eligibility), must satisfy: at least ``k`` rows,
    no value above ``1/frequency_l`` of the rows (the paper's definition), at least
    ``distinct_l`` distinct values, and entropy at least ``log(entropy_l)``. All are closed
    under union, so a remainder that satisfies them can always be split into groups that do."""

    k: int = 1
    frequency_l: int = 1
    distinct_l: int = 1
    entropy_l: float = 1.0

    def holds(self, held: IntArray, size: int) -> bool:
        if size < self.k or self.frequency_l * int(held.max()) > size:
            return False
        if self.distinct_l > 1 and int((held > 0).sum()) < self.distinct_l:
            return False
        if self.entropy_l > 1:
            share = held[held > 0] / size
            if float(-(share * np.log(share)).sum()) < math.log(self.entropy_l) - EPSILON:
                return False
        return True


def l_diverse_groups(
    vector: IntArray, values: IntArray, counts: IntArray, need: Diversity
) -> IntArray:
    """Group id (0, 1, ...) of each vector, from (vector, value, rows) items sorted by vector
    (vector ids 0..V-1 in key order) with sensitive value codes ``values``."""
    n_vectors = int(vector.max()) + 1 if len(vector) else 0
    codes, value = np.unique(values, return_inverse=True)
    m = len(codes)
    left = np.bincount(value, weights=counts, minlength=m).astype(np.int64)
    remaining = int(left.sum())
    if remaining == 0:
        return np.zeros(n_vectors, np.int64)
    if need.frequency_l * int(left.max()) > remaining:
        raise NotEligible.too_frequent(int(left.max()), remaining, need.frequency_l)
    if not need.holds(left, remaining):
        raise NotEligible(
            "the whole table does not satisfy the l-diversity (and k) required of every group, "
            "so no grouping can"
        )
    # each vector's histogram (CSR over the items) and each value's vectors in key order
    item_start = np.searchsorted(vector, np.arange(n_vectors + 1))
    by_value = np.lexsort((vector, value))
    queue = vector[by_value]
    queue_start = np.searchsorted(value[by_value], np.arange(m + 1))
    head = queue_start[:-1].copy()
    head_vector = queue[np.minimum(head, len(queue) - 1)].copy()
    assigned = np.zeros(n_vectors, bool)
    group = np.full(n_vectors, -1, np.int64)
    ell = need.frequency_l
    current = 0
    while remaining > 0:
        held = np.zeros(m, np.int64)
        size = 0
        while True:
            if size and need.holds(held, size):
                rest = remaining - size
                if rest == 0 or need.holds(left - held, rest):
                    break
            unassigned = left - held
            available = unassigned > 0
            candidates = np.zeros(0, np.int64)
            if ell > 1:
                target = max(ell, need.k, size + 1)
                pressure = ell * unassigned - (remaining - target)
                critical = (pressure > 0) & available
                if critical.any():
                    # the most critical value; ties to the smaller head key
                    candidates = np.nonzero(critical)[0]
                    candidates = candidates[pressure[candidates] == pressure[candidates].max()]
            if len(candidates) == 0 and size:
                # a value the group lacks, else one below its most frequent
                candidates = np.nonzero(available & (held == 0))[0]
                if len(candidates) == 0:
                    candidates = np.nonzero(available & (held < held.max()))[0]
            if len(candidates) == 0:
                candidates = np.nonzero(available)[0]
            chosen = int(head_vector[candidates[np.argmin(head_vector[candidates])]])
            items = slice(item_start[chosen], item_start[chosen + 1])
            np.add.at(held, value[items], counts[items])
            size += int(counts[items].sum())
            assigned[chosen] = True
            group[chosen] = current
            for s in value[items].tolist():  # advance the frontier past assigned vectors
                h = head[s]
                while h < queue_start[s + 1] and assigned[queue[h]]:
                    h += 1
                head[s] = h
                head_vector[s] = queue[h] if h < queue_start[s + 1] else n_vectors
        left -= held
        remaining -= size
        current += 1
    return group
