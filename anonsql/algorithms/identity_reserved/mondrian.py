"""Person-level Mondrian with the identity-reserved models as its split condition, in memory
(beyond Wang et al., KAIS 2019: their models on LeFevre, DeWitt, Ramakrishnan's top-down
Mondrian, ICDE 2006, instead of DAnonyIR's bottom-up clustering), for comparison.

Individuals are partitioned top-down: a part is cut on the quasi-identifier with the widest
normalized spread (numeric: range / domain; categorical: values present / domain size) at the
median individual (numeric by value, categorical by value code), trying the next attribute when
a cut is not allowed; a cut is allowed when both halves satisfy the model (``holds`` over
:class:`~anonsql.privacy.base.PartStats` with its fields for individuals). Leaves publish their set
generalization (the same text form, loss and metrics as DAnonyIR's). Nothing is suppressed; if
the whole data fails the model everything is one class and the release would fail its check.

This is the in-memory reference of the person-level Mondrian that ``algorithm: one_to_many``
runs in SQL with these models (:mod:`anonsql.algorithms.one_to_many`). Work: O(n log n)
vectorized per part; a part's statistics are built from its own individuals.
"""

from __future__ import annotations

import time

import numpy as np

from anonsql.algorithms.identity_reserved.encoding import Individuals, individual_part_stats
from anonsql.algorithms.identity_reserved.generalization import Clustering, clustering_from_labels
from anonsql.arrays import BoolArray, FloatArray, IntArray
from anonsql.privacy.identity_reserved import IdentityReservedModel


def _spreads(individuals: Individuals, rows: IntArray) -> FloatArray:
    """Normalized spread of each quasi-identifier (numeric first) over ``rows``."""
    spreads = []
    for a, domain in enumerate(individuals.numeric):
        width = individuals.high[rows, a].max() - individuals.low[rows, a].min()
        spreads.append(width / domain.span if domain.span > 0 else 0.0)
    for c, cat in enumerate(individuals.categorical):
        present = np.unique(individuals.codes[rows, c]).shape[0]
        spreads.append((present - 1) / (cat.size - 1) if cat.size > 1 else 0.0)
    return np.asarray(spreads, dtype=np.float64)


def _cut(individuals: Individuals, rows: IntArray, attribute: int) -> BoolArray | None:
    """The left half of a median cut of ``rows`` on ``attribute``, None if it cannot cut."""
    n_num = len(individuals.numeric)
    if attribute < n_num:
        values = (individuals.low[rows, attribute] + individuals.high[rows, attribute]) / 2
    else:
        values = individuals.codes[rows, attribute - n_num].astype(np.float64)
    median = float(np.median(values))
    left: BoolArray = values <= median
    if left.all():
        left = values < median
    if not left.any() or left.all():
        return None
    return left


def _allowed(
    individuals: Individuals,
    model: IdentityReservedModel,
    rows: IntArray,
    left: BoolArray,
) -> bool:
    part = individuals.take(rows)
    stats = individual_part_stats(part, left.astype(np.int64) ^ 1, 2, model.column)
    return bool(model.holds(stats).all())


def person_mondrian(individuals: Individuals, model: IdentityReservedModel) -> Clustering:
    """Partition ``individuals`` top-down with ``model`` as the split condition."""
    started = time.perf_counter()
    labels = np.full(len(individuals), -1, dtype=np.int64)
    pending = [np.arange(len(individuals), dtype=np.int64)]
    classes = cuts = 0
    while pending:
        rows = pending.pop()
        done = True
        for attribute in np.argsort(-_spreads(individuals, rows), kind="stable"):
            left = _cut(individuals, rows, int(attribute))
            if left is not None and _allowed(individuals, model, rows, left):
                pending += [rows[left], rows[~left]]
                cuts += 1
                done = False
                break
        if done:
            labels[rows] = classes
            classes += 1
    return clustering_from_labels(
        individuals,
        labels,
        algorithm="person_mondrian",
        model=model.describe(),
        seconds=time.perf_counter() - started,
        steps=cuts,
    )
