"""Closing the record-count hole of identity-reserved releases (digest 003, D9; not in Wang et
al., KAIS 2019).

A release that links records by ``Id_num`` shows how many records every individual has. An
attacker who knows the target's count (how many diagnoses, visits, ...) restricts the target's
class to the individuals with that count, a subgroup none of the IR/EIR models constrains: in
Table 4's Q2 only Id_num 1 has two records, so knowing "Mike has two diagnoses" re-identifies
him and discloses both of his values.

The models' ``record_counts: protected`` option checks every count-refined class (SQL: the
class key is the quasi-identifiers plus the individual's record count). :func:`by_record_count`
builds releases that pass it: it clusters the individuals of each record count separately, so
each class holds one count and its count-refined class is itself. The price is utility and
suppression: rare counts form small strata that may not satisfy the model at all (they are
then suppressed by Handle, or absorbed by GeneIR's residual step within the stratum).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from scipy import sparse

from anonsql.algorithms.identity_reserved.encoding import Individuals
from anonsql.algorithms.identity_reserved.generalization import Clustering, clustering_from_labels
from anonsql.arrays import IntArray


def by_record_count(
    individuals: Individuals, run: Callable[[Individuals], Clustering]
) -> Clustering:
    """Run a clustering (``run``: DAnonyIR or GeneIR with their options) on each stratum of
    individuals with the same record count and combine the results into one release."""
    started = time.perf_counter()
    labels = np.full(len(individuals), -1, dtype=np.int64)
    lows, highs = [], []
    sets: list[list[sparse.csr_array]] = [[] for _ in individuals.categorical]
    steps = merges = offset = 0
    model = ""
    nodes: list[IntArray] = []
    for count in np.unique(individuals.records):
        rows = np.flatnonzero(individuals.records == count)
        part = run(individuals.take(rows))
        model = part.model
        inside = part.cluster >= 0
        labels[rows[inside]] = part.cluster[inside] + offset
        offset += part.classes
        lows.append(part.low)
        highs.append(part.high)
        for c, member in enumerate(part.sets):
            sets[c].append(member)
        steps += part.steps
        merges += part.merges
        if part.nodes is not None:
            nodes.append(part.nodes)
    width = len(individuals.numeric)
    low = np.vstack(lows) if lows else np.zeros((0, width))
    high = np.vstack(highs) if highs else np.zeros((0, width))
    stacked = tuple(
        sparse.csr_array(sparse.vstack(parts, format="csr"))
        if parts
        else sparse.csr_array((0, domain.size), dtype=bool)
        for parts, domain in zip(sets, individuals.categorical, strict=True)
    )
    return clustering_from_labels(
        individuals,
        labels,
        algorithm="by_record_count",
        model=model,
        seconds=time.perf_counter() - started,
        steps=steps,
        merges=merges,
        generalization=(low, high, stacked),
        nodes=np.vstack(nodes) if nodes else None,
    )
