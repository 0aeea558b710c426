"""Optimal full-domain generalization: Flash over the generalization lattice.

Kohlmayer, Prasser, Eckert, Kemper, Kuhn, "Flash: Efficient, Stable and Optimal K-Anonymity",
PASSAT 2012 (the algorithm of ARX). The lattice is walked level by level from the bottom; from
each node not yet classified, a path is followed upwards (always to the first unclassified
successor in Flash's order) and searched *binary*: the middle node is checked in the engine; if
it is anonymous the search continues below it, otherwise above, and the unclassified successors of
a non-anonymous node are queued for paths of their own.

*Predictive tagging* classifies nodes without checking them. When anonymity is monotone (every
privacy model is, and with a suppression budget every model's failing classes can only shrink as
classes merge: k-anonymity and distinct l-diversity, as ARX treats them), an anonymous node makes
all its generalizations anonymous and a non-anonymous one all its specializations non-anonymous.
When only the models are monotone and suppression may break that (``partial``), a node whose
classes all satisfy the models tags its generalizations; the nodes left unclassified are checked
one by one, as are all nodes when some model is not monotone.

*Pruning* (ARX prunes the same way with its metrics' lower bounds): every objective has a lower
bound known without a query, monotone in the lattice, and checked nodes pass bounds to their
generalizations (discernibility's squared class sizes). Once an anonymous node has been valued,
nodes whose bound cannot beat it are neither checked nor valued.

The optimum is the anonymous node of lowest objective value; ties go to the lowest sum of levels
(as in ARX), then to Flash's order. After the traversal, the anonymous nodes not yet valued are
valued in increasing order of their bound while it can still beat the best; for an objective that
ignores suppression (or with no suppression budget) the bound is the value.

The search is sequential Python over a lattice held in NumPy (at most
:data:`~.lattice.MAX_LATTICE_NODES` nodes); the data is only ever touched by the engine: one
statement per checked node (a batch per path over small sources), one more per valued node with
suppressed rows when the objective reads them.
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Callable
from typing import Literal

import numpy as np

from anonsql.algorithms.full_domain.frequency import NodeEvaluator, NodeStats
from anonsql.algorithms.full_domain.lattice import Lattice, flash_order
from anonsql.algorithms.full_domain.objectives import Marginals, Objective, ObjectiveValue
from anonsql.algorithms.full_domain.result import FullDomainResult, SearchStats
from anonsql.errors import InfeasibleError, SpecError

UNKNOWN, ANONYMOUS, NOT_ANONYMOUS = 0, 1, 2

Algorithm = Literal["flash", "exhaustive"]
Progress = Callable[[str], None]
#: (value or bound, sum of levels, Flash rank): lower wins
_Key = tuple[float, int, int]


def suppression_budget(rows: int, limit: float) -> int:
    """ARX's absolute suppression limit: ``floor(limit * rows)`` rows."""
    if not 0.0 <= limit <= 1.0:
        raise SpecError(
            "suppression_limit",
            f"suppression_limit = {limit} is outside [0, 1]",
            "give the fraction of rows that may be suppressed, from 0 to 1",
        )
    return math.floor(limit * rows + 1e-9)


def full_domain_search(
    evaluator: NodeEvaluator,
    objective: Objective,
    *,
    suppression_limit: float,
    algorithm: Algorithm = "flash",
    progress: Progress | None = None,
) -> FullDomainResult:
    """Find the anonymous lattice node of lowest ``objective`` over ``evaluator``'s frequency
    table, by Flash with pruning, or ``exhaustive`` (every node checked and every anonymous node
    valued: a reference for tests and small lattices).

    ``suppression_limit`` is the fraction of rows that may be suppressed; ``evaluator`` must
    carry the matching budget (:func:`suppression_budget`). Raises :class:`InfeasibleError` when
    no node is anonymous, not even the top.
    """
    budget = suppression_budget(evaluator.freq.rows, suppression_limit)
    if budget != evaluator.budget:
        raise ValueError(
            f"the evaluator's budget of {evaluator.budget} rows is not the limit's {budget}"
        )
    if algorithm not in ("flash", "exhaustive"):
        raise SpecError(
            "algorithm", f"unknown full-domain search {algorithm!r}", "use flash or exhaustive"
        )
    return _Search(evaluator, objective, suppression_limit, algorithm, progress).run()


class _Search:
    def __init__(
        self,
        evaluator: NodeEvaluator,
        objective: Objective,
        suppression_limit: float,
        algorithm: Algorithm,
        progress: Progress | None,
    ) -> None:
        self.evaluator = evaluator
        self.objective = objective
        self.limit = suppression_limit
        self.algorithm = algorithm
        self.progress = progress or (lambda _: None)
        freq = evaluator.freq
        self.lattice = Lattice(tuple(q.height for q in freq.qids))
        self.rank = flash_order(self.lattice, freq.qids)
        self.sums = self.lattice.level_sums()
        size = self.lattice.size
        self.status = np.zeros(size, dtype=np.int8)
        self.checked = np.zeros(size, dtype=bool)
        self.valued = np.zeros(size, dtype=bool)
        objective.prepare(Marginals(freq.qids, freq.leaf_counts, freq.rows))
        self.bounds = objective.lower_bounds(self.lattice.levels.astype(np.int64))
        #: the best bound checked nodes pass on to each node (it and its generalizations)
        self.inherited = np.full(size, -np.inf)
        if evaluator.monotone:
            self.monotonicity = "full"
        elif evaluator.monotone_without_suppression:
            self.monotonicity = "partial"
        else:
            self.monotonicity = "none"
        self.prune = algorithm == "flash"
        self.complete = objective.needs_class_sizes()
        # Paths stop at hopeless nodes only when rows may be suppressed: without suppression
        # the optimum sits high in the lattice and checking high, non-anonymous nodes tags more
        # (ARX never prunes paths when privacy and utility are both monotone); with suppression
        # most nodes are anonymous and the nodes that can win lie low.
        self.prune_paths = self.prune and evaluator.budget > 0
        self.best: tuple[int, ObjectiveValue, NodeStats] | None = None
        self.best_key: _Key | None = None
        self.pruned = 0
        self.profiles = 0

    # -- keys and pruning ----------------------------------------------------------------------
    def bound_key(self, node: int) -> _Key:
        bound = max(float(self.bounds[node]), float(self.inherited[node]))
        return bound, int(self.sums[node]), int(self.rank[node])

    def hopeless(self, node: int) -> bool:
        """Whether the node's bound shows it cannot beat the best node valued so far."""
        return self.prune and self.best_key is not None and self.bound_key(node) >= self.best_key

    def open(self, node: int) -> bool:
        """Whether a Flash path may still check the node."""
        if not self.prune_paths:
            return bool(self.status[node] == UNKNOWN)
        return self.start_open(node)

    def start_open(self, node: int) -> bool:
        """Whether Flash still has to classify the node."""
        return bool(self.status[node] == UNKNOWN) and not self.hopeless(node)

    # -- checking, tagging, valuing -------------------------------------------------------------
    def check(self, node: int) -> NodeStats:
        stats = self.evaluator.evaluate(self.lattice.node(node), complete=self.complete)
        if self.checked[node]:
            return stats
        self.checked[node] = True
        unknown = self.status == UNKNOWN
        tagging = self.algorithm == "flash"
        if stats.anonymous:
            self.status[node] = ANONYMOUS
            passes_up = self.monotonicity == "full" or (
                self.monotonicity == "partial" and stats.suppressed_rows == 0
            )
            if tagging and passes_up:
                self.status[self.lattice.above(node) & unknown] = ANONYMOUS
        else:
            self.status[node] = NOT_ANONYMOUS
            if tagging and self.monotonicity == "full":
                self.status[self.lattice.below(node) & unknown] = NOT_ANONYMOUS
        bound = self.objective.stats_bound(stats)
        if bound is not None:
            above = self.lattice.above(node)
            self.inherited[above] = np.maximum(self.inherited[above], bound)
        if stats.anonymous and not self.hopeless(node):
            self.value(node, stats)
        return stats

    def value(self, node: int, stats: NodeStats) -> None:
        """Value an anonymous, checked node and keep it if it is the best so far."""
        if self.objective.needs_profile() and stats.suppressed_rows > 0:
            if stats.profile is None:
                self.profiles += 1
            stats = self.evaluator.with_profile(stats)
        self.valued[node] = True
        value = self.objective.value(stats)
        key = (value.total, int(self.sums[node]), int(self.rank[node]))
        if self.best_key is None or key < self.best_key:
            self.best, self.best_key = (node, value, stats), key

    # -- Flash -----------------------------------------------------------------------------------
    def flash(self) -> None:
        for level in range(self.lattice.height + 1):
            nodes = np.flatnonzero((self.sums == level) & (self.status == UNKNOWN))
            for node in nodes[np.argsort(self.rank[nodes], kind="stable")]:
                if self.start_open(int(node)):
                    self.binary_search(int(node))
            self.progress(
                f"level {level}/{self.lattice.height}: {int(self.checked.sum())} nodes checked"
            )

    def binary_search(self, start: int) -> None:
        queue: list[tuple[int, int]] = [(int(self.rank[start]), start)]
        while queue:
            _, node = heapq.heappop(queue)
            if not self.open(node):
                continue
            path = self.path(node)
            if not self.complete:
                self.evaluator.prefetch(
                    [self.lattice.node(n) for n in path if self.status[n] == UNKNOWN]
                )
            low, high = 0, len(path) - 1
            while low <= high:
                mid = (low + high) // 2
                current = path[mid]
                if not self.open(current):
                    high = mid - 1
                    continue
                if self.check(current).anonymous:
                    high = mid - 1
                else:
                    for up in self.lattice.successors(current):
                        if self.open(up):
                            heapq.heappush(queue, (int(self.rank[up]), up))
                    low = mid + 1

    def path(self, node: int) -> list[int]:
        """Upwards from ``node``, always to the first open successor in Flash's order."""
        path = [node]
        while True:
            successors = [s for s in self.lattice.successors(path[-1]) if self.open(s)]
            if not successors:
                return path
            path.append(min(successors, key=lambda s: int(self.rank[s])))

    def check_remaining(self) -> None:
        """Check every open node (all of them for the exhaustive search), bottom up."""
        nodes = np.flatnonzero(self.status == UNKNOWN)
        for node in nodes[np.lexsort((self.rank[nodes], self.sums[nodes]))]:
            if self.open(int(node)):
                self.check(int(node))

    # -- the optimum -----------------------------------------------------------------------------
    def value_remaining(self) -> None:
        """Value the anonymous nodes not valued yet, in increasing order of bound, while they
        can beat the best (all of them for the exhaustive search)."""
        candidates = np.flatnonzero((self.status == ANONYMOUS) & ~self.valued)
        if len(candidates) == 0:
            return
        bounds = np.maximum(self.bounds[candidates], self.inherited[candidates])
        order = np.lexsort((self.rank[candidates], self.sums[candidates], bounds))
        for node, bound in zip(candidates[order], bounds[order], strict=True):
            node = int(node)
            if self.hopeless(node):
                if self.best_key is not None and bound > self.best_key[0]:
                    break
                continue
            if self.checked[node] or self.complete or not self.objective.needs_profile():
                stats = self.check(node)
            else:
                # tagged anonymous: its profile alone values it (and confirms it)
                stats = self.evaluator.profiled(self.lattice.node(node))
                self.checked[node] = True
                if not stats.anonymous:
                    self.status[node] = NOT_ANONYMOUS
            if stats.anonymous and not self.valued[node]:
                self.value(node, stats)

    def run(self) -> FullDomainResult:
        start = time.perf_counter()
        statements, sql_seconds = self.evaluator.statements, self.evaluator.seconds
        if self.algorithm == "flash" and self.monotonicity != "none":
            self.flash()
        self.check_remaining()
        self.value_remaining()
        if self.best is None:
            raise InfeasibleError(
                "no full-domain generalization satisfies the privacy models within the "
                "suppression limit, not even every column at its root. Fix: relax the models "
                "or raise suppression_limit"
            )
        node, value, stats = self.best
        stats = self.evaluator.evaluate(stats.levels, complete=True)
        anonymous = self.status == ANONYMOUS
        unknown = self.status == UNKNOWN
        search = SearchStats(
            algorithm=self.algorithm,
            lattice_nodes=self.lattice.size,
            checked=int(self.checked.sum()),
            tagged_anonymous=int((anonymous & ~self.checked).sum()),
            tagged_not_anonymous=int(((self.status == NOT_ANONYMOUS) & ~self.checked).sum()),
            anonymous_nodes=int(anonymous.sum()),
            evaluated=int(self.valued.sum()),
            pruned=int(unknown.sum() + (anonymous & ~self.valued).sum()),
            profiles=self.profiles,
            statements=self.evaluator.statements - statements,
            sql_seconds=self.evaluator.seconds - sql_seconds,
            seconds=time.perf_counter() - start,
            privacy_monotonicity=self.monotonicity,
            objective_monotone=self.objective.monotone(self.evaluator.budget),
        )
        self.progress(f"optimum {self.lattice.node(node)} after {search.checked} checks")
        freq = self.evaluator.freq
        return FullDomainResult(
            qids=tuple(q.column for q in freq.qids),
            heights=self.lattice.heights,
            levels=self.lattice.node(node),
            objective=self.objective.name,
            objective_parameters=tuple(sorted(self.objective.parameters().items())),
            value=value.total,
            per_qid=value.per_qid,
            models=tuple(m.describe() for m in self.evaluator.models),
            suppression_limit=self.limit,
            budget=self.evaluator.budget,
            rows=freq.rows,
            classes=stats.classes,
            suppressed_rows=stats.suppressed_rows,
            suppressed_classes=stats.suppressed_classes,
            stats=search,
        )
