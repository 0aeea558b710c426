"""DAnonyIR (Wang, Du, Luo, Li, KAIS 2019, §4, Algorithms 1 and 7): greedy clustering of
individuals with set generalization, for the identity-reserved models.

Each class starts from a seed individual (random, or from ``seeds``); while it does not satisfy
``π`` and individuals remain, it either takes the nearest remaining individual (Eq. 17) or
absorbs the nearest finished class (Eq. 18), whichever costs less (ties to the individual);
a satisfying class joins ``D*``. When the individuals run out and the last class still fails,
each of its individuals (in the order they joined, digest decision D1) goes through ``Handle``:
it joins the nearest finished class that still satisfies ``π`` with it (checked for the
non-monotone share bounds only) when that costs less than suppressing its records
(``|R(p)|·|QI|``, each suppressed value costing 1, decision D2), else it is suppressed; a merge
updates the class's identity element before the next individual (D3). Suppressed individuals are
left out of the release (``cluster = -1``) and charged ``|QI|`` per record in the loss (D4).

Beyond the paper, Handle's suppression is bounded (``suppression_budget``, records; the spec's
``suppression_limit`` in the pipeline): past the budget a residual individual merges into its
nearest admissible class even when suppression would cost less, and one with no admissible
class stops the run (:class:`~anonsql.errors.InfeasibleError`). ``handle: merge`` never
suppresses an individual some class admits.

The algorithm is inherently sequential: every step scans all remaining individuals and classes
(Θ(n²·|QI|) overall). Each scan is one vectorized NumPy pass; remaining individuals are kept
compact. Limit: :data:`~.limits.MAX_DANONYIR_INDIVIDUALS` individuals (times: BENCHMARKS.md
"Identity-reserved releases"); memory O(n·|QI|) plus
``classes x Σ|X|`` booleans for categorical value sets.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from anonsql.algorithms.identity_reserved.decisions import (
    Admission,
    Decision,
    Requirements,
    decision_for,
    requirements,
    shares_of,
)
from anonsql.algorithms.identity_reserved.distances import (
    Box,
    Candidates,
    ClassStore,
    Geometry,
    candidate_distances,
)
from anonsql.algorithms.identity_reserved.encoding import Individuals
from anonsql.algorithms.identity_reserved.generalization import Clustering, clustering_from_labels
from anonsql.algorithms.identity_reserved.limits import MAX_DANONYIR_INDIVIDUALS, LimitError
from anonsql.arrays import IntArray
from anonsql.errors import InfeasibleError
from anonsql.privacy.base import PrivacyModel


@dataclass(frozen=True)
class DAnonyIROptions:
    """``seed`` drives the random seed individuals; ``seeds`` (individual positions, in person
    order) are used first, in order; ``incremental`` selects the incremental decision functions
    (the paper's SatPriIRInc_*) for EIR l-diversity; ``max_individuals`` is the size limit;
    ``handle`` Handle's policy (``cost``: the paper's, suppress when cheaper than merging;
    ``merge``: suppress only an individual no class admits); ``suppression_budget`` the records
    Handle may suppress (None: no bound, as in the paper)."""

    seed: int = 0
    seeds: tuple[int, ...] = ()
    incremental: bool = True
    max_individuals: int = MAX_DANONYIR_INDIVIDUALS
    handle: Literal["cost", "merge"] = "cost"
    suppression_budget: int | None = None


class _Pool:
    """Remaining individuals, kept compact: their geometry copied contiguously in ascending
    position (so argmin ties go to the lowest person) with a live mask, compacted once a
    quarter is dead."""

    def __init__(self, geometry: Geometry) -> None:
        n = geometry.records.shape[0]
        self.geometry = geometry
        self.candidates = Candidates.of(geometry, np.arange(n, dtype=np.int64))
        self.alive = np.ones(n, dtype=bool)
        self.remaining = n
        self.where = np.arange(n, dtype=np.int64)

    @property
    def ids(self) -> IntArray:
        return self.candidates.ids

    def remove(self, individuals: IntArray) -> None:
        positions = self.where[individuals]
        self.alive[positions] = False
        self.remaining -= int(individuals.shape[0])
        dead = self.alive.shape[0] - self.remaining
        if dead > 64 and dead * 4 > self.alive.shape[0]:
            ids = self.ids[self.alive]
            self.candidates = Candidates.of(self.geometry, ids)
            self.alive = np.ones(ids.shape[0], dtype=bool)
            self.where[ids] = np.arange(ids.shape[0])

    def nth(self, rank: int) -> int:
        return int(self.ids[np.flatnonzero(self.alive)[rank]])


def as_requirements(
    models: PrivacyModel | Sequence[PrivacyModel] | Requirements,
) -> tuple[Requirements, str]:
    """The requirements of the models (or given ones) and their description."""
    if isinstance(models, Requirements):
        return models, str(models)
    chosen = [models] if isinstance(models, PrivacyModel) else list(models)
    return requirements(chosen), ", ".join(m.describe() for m in chosen)


def danonyir(
    individuals: Individuals,
    models: PrivacyModel | Sequence[PrivacyModel] | Requirements,
    options: DAnonyIROptions | None = None,
) -> Clustering:
    """Run DAnonyIR for the models (their bounds, see
    :func:`~anonsql.algorithms.identity_reserved.decisions.requirements`) over ``individuals``;
    return the frozen clustering.

    Raises :class:`LimitError` above ``options.max_individuals`` individuals,
    :class:`~anonsql.errors.InfeasibleError` when Handle would exceed the suppression budget,
    and :class:`ValueError` for a seed that is not an individual's position.
    """
    options = options or DAnonyIROptions()
    required, described = as_requirements(models)
    n = len(individuals)
    if n > options.max_individuals:
        raise LimitError(
            "algorithm.danonyir",
            f"{n} individuals exceed DAnonyIR's limit of {options.max_individuals} "
            "(its time grows with the square of the individuals)",
            "anonymize a subset, use GeneIR or the person-level Mondrian, or raise max_individuals",
        )
    if any(not 0 <= s < n for s in options.seeds):
        raise ValueError("a DAnonyIR seed is not the position of an individual")
    started = time.perf_counter()
    geometry = Geometry.of(individuals)
    decision = decision_for(required, individuals, incremental=options.incremental)
    rng = np.random.default_rng(options.seed)
    pool = _Pool(geometry)
    store = ClassStore(geometry)
    labels = np.full(n, -2, dtype=np.int64)
    given = list(options.seeds)
    steps = merges = 0
    members: list[IntArray] = []
    satisfied = True
    while pool.remaining:
        seed = given.pop(0) if given else pool.nth(int(rng.integers(pool.remaining)))
        if not pool.alive[pool.where[seed]]:
            raise ValueError("a DAnonyIR seed was already placed in a class")
        pool.remove(np.array([seed]))
        box = Box(geometry, seed)
        members = [np.array([seed])]
        decision.start()
        decision.add(members[0])
        satisfied = decision.satisfied()
        while not satisfied and pool.remaining:
            near = candidate_distances(pool.candidates, box)
            near[~pool.alive] = np.inf
            position = int(np.argmin(near))
            to_class = store.distances_to_box(box) if store.count else np.array([np.inf])
            j = int(np.argmin(to_class))
            if near[position] <= to_class[j]:
                p = int(pool.ids[position])
                pool.remove(np.array([p]))
                box.add_individual(p)
                joined = np.array([p])
                steps += 1
            else:
                joined = store.merge_into(box, j)
                merges += 1
            members.append(joined)
            decision.add(joined)
            satisfied = decision.satisfied()
        if satisfied:
            labels[np.concatenate(members)] = store.add(box, np.concatenate(members))
    if not satisfied:
        residual = np.concatenate(members)
        labels[residual] = -2
        _handle(geometry, store, decision, labels, residual, options)
    return clustering_from_labels(
        individuals,
        labels,
        algorithm="danonyir",
        model=described,
        seconds=time.perf_counter() - started,
        steps=steps,
        merges=merges,
    )


class SuppressionBudget:
    """Records Handle may still suppress (None: unbounded)."""

    def __init__(self, records: int | None) -> None:
        self.left = records

    def allows(self, records: int) -> bool:
        return self.left is None or records <= self.left

    def spend(self, records: int) -> None:
        if self.left is not None:
            self.left -= records


def _handle(
    geometry: Geometry,
    store: ClassStore,
    decision: Decision,
    labels: IntArray,
    residual: IntArray,
    options: DAnonyIROptions,
) -> None:
    """Algorithm 7 for each residual individual in joining order: merge into the nearest
    admissible class when cheaper than suppression (or when the budget forbids suppressing,
    or always with ``handle: merge``), else suppress (label -1)."""
    shares = shares_of(decision)
    admission = Admission(shares, labels, store.count) if shares and store.count else None
    budget = SuppressionBudget(options.suppression_budget)
    for p in residual:
        p = int(p)
        records = int(geometry.records[p])
        cost = np.array([np.inf])
        if store.count:
            cost = store.distances_from_individual(p)
            if admission is not None:
                cost = np.where(admission.admits(p), cost, np.inf)
        j = int(np.argmin(cost))
        mergeable = bool(np.isfinite(cost[j]))
        cheaper = options.handle == "cost" and cost[j] >= records * geometry.qids
        if (not mergeable or cheaper) and budget.allows(records):
            budget.spend(records)
            labels[p] = -1
        elif mergeable:
            store.absorb_individual(j, p)
            labels[p] = j
            if admission is not None:
                admission.join(p, j)
        else:
            raise unplaceable(int(residual.shape[0]), store.count)


def unplaceable(residual: int, classes: int) -> InfeasibleError:
    where = (
        "no class satisfies the models at all"
        if classes == 0
        else "an individual fits no class under the models"
    )
    return InfeasibleError(
        f"{residual} individuals were left over after clustering and {where}, and "
        "suppressing them would exceed the suppression limit. Fix: raise suppression_limit "
        "(the share of records that may be suppressed), or relax the models' parameters"
    )


def run_seeds(individuals: Individuals, model: PrivacyModel, seeds: Sequence[int]) -> Clustering:
    """DAnonyIR with the given seed individuals (positions) first (fixtures, tests)."""
    return danonyir(individuals, model, DAnonyIROptions(seeds=tuple(seeds)))
