"""Mondrian multidimensional partitioning, run round by round from aggregate SQL.

K. LeFevre, D. J. DeWitt, R. Ramakrishnan, "Mondrian Multidimensional K-Anonymity",
ICDE 2006 — strict partitioning, extended as in the paper's Section 5 to any privacy model
whose parts can be checked from aggregates (l-diversity, t-closeness).

Each round handles **all** active partitions with a constant number of statements:

1. ``stats``: per partition, the row count and each dimension's min, max and (numeric) median;
2. ``pstate``: the split parameters (median, or depth of the lowest common ancestor) loaded back;
3. ``candidates``: per partition, dimension and bin, the row count (and sensitive histograms,
   one query per sensitive column a model reads);
4. ``split``/``decisions`` loaded back, and ``rewrite``: finished partitions' rows move to the
   finished table, split partitions' rows get their new partition ids.

Where the working rows live is a :class:`~.working.WorkingSet`: the engine's table
(:class:`~.working.SqlWorkingSet`, the statements above) until at most ``max_rows_in_memory``
rows are left, then numpy arrays (:class:`~.in_memory.MemoryWorkingSet`) answering the same
questions without a statement, which the planning below cannot tell apart.

Split rule. A numeric dimension splits at the partition's median ``m`` either as
``x <= m | x > m`` or as ``x < m | x >= m``; a categorical one into the children of the
partition's lowest common ancestor (with ``categorical_split: grouped``, children too small on
their own are pooled into one part, which publishes their common ancestor). A split is allowed
only if **every** part satisfies **every** privacy model: the right-hand part is checked just like
the left, which is what the research implementation missed. Among allowed splits a partition
takes (``split: gain_ratio``) the one with the largest NCP reduction per bit of the split, or
(``split: loss``) the one whose parts have the lowest NCP, or (``split: widest``) the dimension
with the largest normalized width (numeric: range / attribute range; categorical: NCP of the
lowest common ancestor), ties broken by the order of the columns in the spec, or (``split:
workload``) the one whose parts straddle the spec's workload queries the least (LeFevre,
DeWitt and Ramakrishnan, "Workload-aware anonymization", KDD 2006); ``split: auto`` (the
default) partitions with ``gain_ratio`` and with ``widest`` and keeps the lower NCP when the
rounds run in memory from the start (``split_choice`` says why); of the two numeric variants,
the more balanced one (ties: ``x <= m``). With
``dependency_weight`` w > 1 (anonsql's FD-aware extension), the width of a quasi-identifier
named by n of the spec's functional dependencies counts w^n times (BENCHMARKS.md: what it buys).

k-map. With ``k_map``, each candidate part's predicate reads the persons of the population
table its published box would match (:mod:`.population`); the finished classes' counts are left
for the release's population companion, against which the gate checks k-map.

Suppression. With ``suppression_limit > 0``, a partition that has no allowed split may split
anyway if the parts that fail the models are suppressed (their rows are not published), but
only where that lowers its NCP (``split_choice``), largest reduction per suppressed row first,
while the budget lasts.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pyarrow as pa
from pydantic import Field, model_validator
from typing_extensions import TypeVar

from anonsql import arrow
from anonsql.algorithms.base import (
    Algorithm,
    Options,
    Partitioning,
    ProgressCallback,
)
from anonsql.algorithms.facts import RecordFacts
from anonsql.algorithms.lca import HierarchyArrays
from anonsql.algorithms.mondrian import columnar as col
from anonsql.algorithms.mondrian.columnar import Rows
from anonsql.algorithms.mondrian.evaluate import Bins, PartEvaluator
from anonsql.algorithms.mondrian.in_memory import MemoryWorkingSet
from anonsql.algorithms.mondrian.individuals import IndividualAggregates
from anonsql.algorithms.mondrian.population import (
    PopulationPoints,
    build_points,
    population_classes,
)
from anonsql.algorithms.mondrian.split_choice import (
    ChooserRule,
    LossModel,
    SplitChooser,
    SplitRule,
    parts_loss,
    ranges_rows,
)
from anonsql.algorithms.mondrian.splits import SplitPlanner
from anonsql.algorithms.mondrian.working import SqlWorkingSet, Window, WorkingSet
from anonsql.algorithms.mondrian.workload_split import WorkloadImprecision
from anonsql.algorithms.parts import parts_table
from anonsql.algorithms.population import POPULATION_CLASSES, population_source
from anonsql.algorithms.workspace import Workspace
from anonsql.arrays import BoolArray, FloatArray, IntArray
from anonsql.engines import ColumnInfo
from anonsql.errors import InfeasibleError, SpecError
from anonsql.privacy import histograms as hist
from anonsql.privacy.base import PartStats
from anonsql.spec import Spec
from anonsql.spec.workload import ParsedQuery, parse_workload


class MondrianOptions(Options):
    categorical_split: Literal["grouped", "strict"] = "grouped"
    #: At most this many partitions are decided per round (the lowest partition ids first), so
    #: Python's memory stays bounded however large the table; all pending partitions are
    #: handled at once whenever they are fewer.
    max_partitions_per_round: int = Field(default=20_000, ge=1)
    #: ``auto``: the best of ``gain_ratio``, ``widest`` and ``loss`` when the rounds run in
    #: memory, else ``gain_ratio``; ``gain_ratio``: the largest loss reduction per bit of the
    #: split; ``loss``: the allowed split whose parts lose the least information (NCP);
    #: ``widest``: the paper's widest normalized range; ``workload``: the split whose parts
    #: straddle the spec's ``workload:`` queries the least (LeFevre et al., KDD 2006; see
    #: ``split_choice``).
    split: SplitRule = "auto"
    #: FD-aware splits (anonsql's extension of Gorla 2019): when the split dimension is chosen,
    #: the normalized width of a quasi-identifier is multiplied by this weight once per
    #: functional dependency of the spec naming it, so partitions narrow dependency attributes
    #: first and keep dependency instances (nearly) whole. 1 (the default) is plain Mondrian.
    #: A weight ranks dimensions by width, so it implies ``split: widest``.
    dependency_weight: float = Field(default=1.0, gt=0.0)
    #: From this many rows on, the rounds read the distinct (QID vector, sensitive codes) rows
    #: weighted by their counts instead of the rows (the same partitioning): below it a round is
    #: cheap either way and the weighted median's window passes cost more than they save.
    weighted_from_rows: int = Field(default=100_000, ge=0)
    #: From this many working rows down (the rows, or their weighted distinct vectors), the
    #: remaining rounds run in memory (:mod:`.in_memory`): the working rows are read once, as
    #: codes and weights, and each round costs numpy passes over its window instead of a dozen
    #: statements; the same partitioning. 0 keeps every round in the engine (on a cluster,
    #: where nothing but aggregates should reach the driver).
    max_rows_in_memory: int = Field(default=1_000_000, ge=0)
    #: ``split: auto`` on more working rows than this (weighted distinct vectors, in memory)
    #: compares the rules on this many of them, drawn with probability by weight (seeded),
    #: and partitions every row once, with the rule that lost the least there; each
    #: comparison on all the rows is a whole partitioning. 0 compares on all the rows.
    auto_sample_rows: int = Field(default=100_000, ge=0)

    @model_validator(mode="after")
    def _weight_ranks_widths(self) -> MondrianOptions:
        if self.dependency_weight != 1.0:
            if "split" in self.model_fields_set and self.split != "widest":
                raise ValueError(
                    "dependency_weight weights the widest rule's ranking: give split: widest "
                    "(or leave split out) with it"
                )
            object.__setattr__(self, "split", "widest")
        return self


MO = TypeVar("MO", bound=MondrianOptions, default=MondrianOptions, covariant=True)


class Mondrian(Algorithm[MO]):
    """Mondrian (LeFevre et al., ICDE 2006) with aggregate SQL rounds over all partitions."""

    name = "mondrian"
    reference = (
        "K. LeFevre, D. J. DeWitt, R. Ramakrishnan, Mondrian Multidimensional K-Anonymity, "
        "ICDE 2006"
    )
    #: k-map: each candidate part's persons in the population table (:mod:`.population`)
    supplies = frozenset({"population"})

    #: The spec's workload queries (``split: workload`` ranks splits by them; set by bind).
    workload: tuple[ParsedQuery, ...] = ()

    def bind(self, spec: Spec, columns: Sequence[ColumnInfo]) -> Algorithm:
        """``split: workload`` reads the spec's ``workload:`` (which it requires)."""
        if self.options.split != "workload":
            return self
        if not spec.workload:
            raise SpecError(
                f"algorithm.{self.name}.split",
                "the workload rule ranks splits by the spec's workload queries, and the spec "
                "has none",
                "add `workload:` (the queries analysts run), or use split: loss",
            )
        bound = copy.copy(self)
        bound.workload = parse_workload(spec.workload, spec.output.name, spec.output.schema_)
        return bound

    def working_rows_weight(self, rows: int) -> str | None:
        """From ``weighted_from_rows`` rows, the rounds read the distinct vectors (record
        data: the 1:M workspace builds its own rows), so they are built weighted."""
        return _WEIGHT if rows >= self.options.weighted_from_rows else None

    def for_later_batch(self, search: Mapping[str, Any] | None) -> Algorithm:
        """``split: auto`` partitions a later version's batch (a day's new rows, a sample of
        the table) with the rule the previous version split by, recorded in its search,
        instead of comparing every rule on it again (at 1e7 rows most of a day's Python)."""
        rule = (search or {}).get("split")
        if self.options.split != "auto" or rule not in _AUTO_RULES:
            return self
        batch = copy.copy(self)
        batch.options = self.options.model_copy(update={"split": rule})
        return batch

    def partition(self, workspace: Workspace, progress: ProgressCallback) -> Partitioning:
        run = _MondrianRun(workspace, self.options, progress, workload=self.workload)
        result = run.run()
        # the certificate's search records the rule the rows were split by (what a later
        # version's batch splits by: for_later_batch)
        facts = result.facts if isinstance(result.facts, RecordFacts) else RecordFacts()
        search = {**(facts.search or {}), "split": run.chooser.rule}
        return dataclasses.replace(result, facts=dataclasses.replace(facts, search=search))


@dataclass(frozen=True)
class _Outcome:
    """What one rule's partitioning leaves for writing back (``split: auto`` keeps the best)."""

    chooser: SplitChooser
    working: WorkingSet
    parts: list[pa.Table]
    partitions: int
    next_pid: int
    suppressed_rows: int
    suppressed_parts: int


#: The weight column of Mondrian's weighted working rows (``prepare/_coded.sql``).
_WEIGHT = "rows_n"
#: The rules ``split: auto`` compares, the first applied alone when it cannot compare.
_AUTO_RULES: tuple[ChooserRule, ...] = ("gain_ratio", "widest", "loss")


class _MondrianRun:
    """One run. ``individuals``: the working table holds individuals owning several records and
    the models read every record's sensitive value (:mod:`.individuals`)."""

    def __init__(
        self,
        ws: Workspace,
        options: MondrianOptions,
        progress: ProgressCallback,
        *,
        individuals: IndividualAggregates | None = None,
        workload: Sequence[ParsedQuery] = (),
    ) -> None:
        self.individuals = individuals
        self.ws = ws
        self.engine = ws.engine
        self.strict = options.categorical_split == "strict"
        self.window = options.max_partitions_per_round
        self.progress = progress
        self.dims = ws.dimensions
        self.categorical = [d for d in self.dims if not d.is_numeric]
        self.arrays = {
            d.index: HierarchyArrays(d.hierarchy) for d in self.categorical if d.hierarchy
        }
        members = {individuals.column: individuals.set_members} if individuals else None
        population = population_source(ws.models)
        #: k-map's population, coded like the rows (None when no model reads one)
        self.population: PopulationPoints | None = (
            None if population is None else build_points(ws, *population)
        )
        self.planner = SplitPlanner(
            PartEvaluator(ws.models, ws.sensitive, set_members=members, population=self.population),
            numeric=[d.index for d in self.dims if d.is_numeric],
            categorical=[d.index for d in self.categorical],
            strict=self.strict,
        )
        self.losses = LossModel(self.dims, self.arrays)
        imprecision = (
            WorkloadImprecision(workload, self.dims, self.arrays)
            if options.split == "workload"
            else None
        )
        #: ``auto`` compares these rules' partitionings when the rounds run in memory from the
        #: start, and otherwise applies the first
        self.rules: tuple[ChooserRule, ...] = (
            _AUTO_RULES if options.split == "auto" else (options.split,)
        )
        self.auto_sample_rows = options.auto_sample_rows
        self.chooser = SplitChooser(self.rules[0], self.losses, imprecision)
        self.sa_columns = [s.column for s in ws.sensitive]
        named = [c for fd in ws.functional_dependencies for c in fd.attributes]
        self.weights = np.array(
            [options.dependency_weight ** named.count(d.column) for d in self.dims]
        )
        # 1:M rows carry their person along and the models count persons: rounds stay in SQL
        self.max_rows_in_memory = (
            options.max_rows_in_memory if individuals is None and not ws.carried else 0
        )
        self.min_rows = max([m.min_rows() for m in ws.models] + [1])
        self.budget = ws.suppression_budget
        self.next_pid = 1
        self.suppressed_pids: set[int] = set()
        self.suppressed_rows = 0
        self.suppressed_parts = 0
        self.partitions = 0
        #: The finished partitions (``parts_table`` rows: a few columns per partition), loaded
        #: as the parts table at the end, where a load per round cost two statements and a
        #: catalog probe.
        self.parts: list[pa.Table] = []
        self.payload = ws.payload
        #: The table the rounds rewrite (the rows, or their weighted distinct vectors) and the
        #: column holding each of its rows' weight (None: every row is one row).
        self.weight: str | None = None
        self.t = {
            name: ws.work(name)
            for name in (
                "rows",
                "rows_next",
                "done",
                "parts",
                "pstate",
                "split",
                "decisions",
                "memory_done",
            )
        }
        self.work = self.t["rows"]

    # -- round loop ---------------------------------------------------------------------------
    def run(self) -> Partitioning:
        e, t = self.engine, self.t
        start_statements = e.stats.statements
        # Rounds run on the distinct (vector, sensitive codes) rows, weighted by their row
        # counts, when the prepare step built them so (Mondrian.working_rows_weight): bins never
        # separate equal vectors, so this is the same partitioning, and a round reads the
        # distinct vectors instead of every row. 1:M runs keep one row per record (their models
        # count persons, carried along each row).
        if self.ws.weight is not None:
            self.weight = self.ws.weight
            self.payload = [*self.payload, self.ws.weight]
        e.run("mondrian/create_done", done=t["done"], work=self.work)
        self.sql = SqlWorkingSet(
            e,
            tables=self.t,
            work=self.work,
            weight=self.weight,
            dims=self.dims,
            payload=self.payload,
            ancestors=self.ws.work("ancestors"),
        )
        #: Where the rounds run: the engine's table, then (when few enough) memory.
        self.working: WorkingSet = self.sql
        if len(self.rules) > 1:
            per_round, rounds, in_memory = self._best_of_rules()
        else:
            per_round, rounds, in_memory = self._rounds()
        if self.parts:
            e.load_arrow(t["parts"], pa.concat_tables(self.parts, promote_options="permissive"))
        if isinstance(self.working, MemoryWorkingSet):
            finished = self.working.finished()
            if in_memory == rounds:
                # no round ran in the engine, so ``done`` is empty: the rows loaded replace it
                # (their types are those read from it), saving a copy of every row
                e.drop(t["done"])
                e.load_arrow(t["done"], finished)
            else:
                e.load_arrow(t["memory_done"], finished)
                e.run("insert_select_all", target=t["done"], source=t["memory_done"])
                e.drop(t["memory_done"])
        # the finished table now holds every row (or weighted vector): it becomes the rows
        # table. Weighted, it stays weighted: the record layout reads only each vector's
        # partition from it, so no pass gives every source row its vector's partition.
        e.drop(t["rows"])
        e.run("rename_table", source=t["done"], target_name=t["rows"].name)
        facts = None
        if self.population is not None:
            parts = pa.concat_tables(self.parts, promote_options="permissive")
            e.load_arrow(
                self.ws.work(POPULATION_CLASSES),
                population_classes(self.population, parts, self.dims),
            )
            population = self.population.certificate()
            # the certificate's search field records the population, as full-domain's does
            facts = RecordFacts(search={"population": population}, population=population)
        return Partitioning(
            partitions=self.partitions,
            suppressed_rows=self.suppressed_rows,
            suppressed_partitions=self.suppressed_parts,
            rounds=rounds,
            statements=e.stats.statements - start_statements,
            statements_per_round=tuple(per_round),
            rows_weight=self.weight,
            rounds_in_memory=in_memory,
            facts=facts,
        )

    def _rounds(self) -> tuple[list[int], int, int]:
        """Run rounds until no partition is pending: statements per round, rounds, rounds
        in memory."""
        e = self.engine
        per_round: list[int] = []
        rounds = in_memory = 0
        while True:
            before = e.stats.statements
            lo, remaining = self.working.pending()
            if lo is None:
                break
            if self.working is self.sql and remaining <= self.max_rows_in_memory:
                self._hold_in_memory()
            window = (lo, lo + self.window)
            stats = self.working.stats(window)
            self._round(stats, window, first=rounds == 0)
            per_round.append(e.stats.statements - before)
            rounds += 1
            in_memory += isinstance(self.working, MemoryWorkingSet)
            self.progress(
                f"round {rounds}: {stats.num_rows} active partitions, "
                f"{self.partitions} final, {self.suppressed_rows} rows suppressed"
            )
        return per_round, rounds, in_memory

    def _best_of_rules(self) -> tuple[list[int], int, int]:
        """``split: auto``: when the whole run fits in memory, partition once per rule from the
        same rows and keep the partitioning with the lowest loss (ties: the first rule); on
        more than ``auto_sample_rows`` rows, compare the rules on a sample of them and
        partition all the rows once with the best; otherwise the first rule alone."""
        if self.max_rows_in_memory == 0:
            return self._rounds()
        _, remaining = self.working.pending()
        if remaining > self.max_rows_in_memory:
            return self._rounds()
        self.max_rows_in_memory = 0  # decided here
        rows = self.sql.read()
        if not MemoryWorkingSet.can_hold(rows):
            return self._rounds()
        ancestors = {i: a.ancestors_by_depth() for i, a in self.arrays.items()}
        trial = _weighted_sample(rows, self.weight, self.auto_sample_rows)
        best: tuple[float, ChooserRule, _Outcome, tuple[list[int], int, int]] | None = None
        for rule in self.rules:
            counts = self._partition_with(rule, trial, ancestors)
            loss = sum(parts_loss(p, self.losses) for p in self.parts)
            self.progress(f"split rule {rule}: NCP times rows {loss:.6g}")
            if best is None or loss < best[0]:
                best = (loss, rule, self._outcome(), counts)
        assert best is not None
        if trial is not rows:
            self.progress(f"split rule {best[1]} on all {rows.num_rows} working rows")
            return self._partition_with(best[1], rows, ancestors)
        kept = best[2]
        self.chooser, self.working, self.parts = kept.chooser, kept.working, kept.parts
        self.partitions, self.next_pid = kept.partitions, kept.next_pid
        self.suppressed_rows, self.suppressed_parts = kept.suppressed_rows, kept.suppressed_parts
        return best[3]

    def _partition_with(
        self, rule: ChooserRule, rows: pa.Table, ancestors: Mapping[int, IntArray]
    ) -> tuple[list[int], int, int]:
        """The in-memory rounds from the root over ``rows`` with ``rule``."""
        self.chooser = SplitChooser(rule, self.losses)
        self.working = MemoryWorkingSet(
            rows, dims=self.dims, ancestors=ancestors, weight=self.weight
        )
        self.parts, self.partitions, self.next_pid = [], 0, 1
        self.suppressed_pids, self.suppressed_rows, self.suppressed_parts = set(), 0, 0
        self.progress(f"split rule {rule}")
        return self._rounds()

    def _outcome(self) -> _Outcome:
        return _Outcome(
            chooser=self.chooser,
            working=self.working,
            parts=self.parts,
            partitions=self.partitions,
            next_pid=self.next_pid,
            suppressed_rows=self.suppressed_rows,
            suppressed_parts=self.suppressed_parts,
        )

    def _hold_in_memory(self) -> None:
        """Continue the rounds in memory if the working rows can be held exactly (numbers
        only, no NULL or NaN); otherwise stay in SQL for the rest of the run."""
        self.max_rows_in_memory = 0  # decided once
        rows = self.sql.read()
        if not MemoryWorkingSet.can_hold(rows):
            return
        ancestors = {i: a.ancestors_by_depth() for i, a in self.arrays.items()}
        self.working = MemoryWorkingSet(
            rows, dims=self.dims, ancestors=ancestors, weight=self.weight
        )

    def _round(self, stats: pa.Table, window: Window, *, first: bool) -> None:
        pid = arrow.to_numpy(stats.column("pid")).astype(np.int64)
        n = arrow.to_numpy(stats.column("n")).astype(np.int64)
        if first:
            self._check_root(n, stats)
        widths, params = self._widths(stats)
        suppressed = (
            np.isin(pid, np.fromiter(self.suppressed_pids, np.int64))
            if self.suppressed_pids
            else np.zeros(len(pid), bool)
        )
        # with budget left, a partition too small for two valid parts may still shed a few rows
        smallest = self.min_rows + 1 if self.budget > self.suppressed_rows else 2 * self.min_rows
        splittable = (widths > 0) & ~suppressed[:, None] & (n >= smallest)[:, None]
        chosen = (
            self._choose(stats, pid, n, splittable, widths, params) if splittable.any() else None
        )
        split_pids = np.zeros(0, np.int64) if chosen is None else np.unique(chosen["pid"])
        final = ~np.isin(pid, split_pids)
        self._write_final(stats, final, suppressed)
        self._rewrite(chosen, params, pid, window)

    # -- stats ------------------------------------------------------------------------------
    def _widths(self, stats: pa.Table) -> tuple[FloatArray, dict[int, pa.Array]]:
        """Normalized width of each (partition, dimension) and each dimension's split parameter."""
        widths = np.zeros((stats.num_rows, len(self.dims)), dtype=np.float64)
        params: dict[int, pa.Array] = {}
        for d in self.dims:
            lo = stats.column(f"min{d.index}")
            hi = stats.column(f"max{d.index}")
            if d.is_numeric:
                if d.span > 0:
                    widths[:, d.index] = (arrow.to_float64(hi) - arrow.to_float64(lo)) / d.span
                params[d.index] = stats.column(f"med{d.index}").combine_chunks()
            else:
                arrays = self.arrays[d.index]
                node = arrays.lca(
                    arrow.to_numpy(lo).astype(np.int64), arrow.to_numpy(hi).astype(np.int64)
                )
                widths[:, d.index] = arrays.ncp_of(node)
                params[d.index] = arrow.array(arrays.depth[node], pa.int32())
        return widths, params

    def _check_root(self, n: IntArray, stats: pa.Table) -> None:
        sensitive = self.ws.sensitive
        root = PartStats(
            counts=n[:1],
            histograms={s.column: hist.from_dense(s.global_counts[None, :]) for s in sensitive},
            global_counts={s.column: s.global_counts for s in sensitive},
        )
        if self.population is not None:
            root.population = self.population.persons_in(
                {d.index: arrow.to_float64(stats.column(f"min{d.index}"))[:1] for d in self.dims},
                {d.index: arrow.to_float64(stats.column(f"max{d.index}"))[:1] for d in self.dims},
            )
        if self.individuals is not None:
            root = self.individuals.root
        for model in self.ws.models:
            if not model.holds(root)[0]:
                raise InfeasibleError(
                    f"{model.describe()} does not hold even on the whole table as one class, so "
                    "no generalization can satisfy it. Fix: relax the model's parameters"
                )

    # -- candidates ---------------------------------------------------------------------------
    def _choose(
        self,
        stats: pa.Table,
        pid: IntArray,
        n: IntArray,
        splittable: BoolArray,
        widths: FloatArray,
        params: dict[int, pa.Array],
    ) -> Rows | None:
        rows = np.asarray(splittable.any(axis=1), dtype=np.bool_)
        columns: dict[str, pa.Array] = {"pid": arrow.array(pid[rows], pa.int64())}
        for d in self.dims:
            columns[f"t{d.index}"] = arrow.array(splittable[rows, d.index])
            columns[f"p{d.index}"] = arrow.filter_rows(params[d.index], rows)
        working = self.working
        working.set_state(arrow.table(columns))
        budget = self.budget - self.suppressed_rows
        needs_ranges = self.chooser.needs_ranges(budget)
        ranges = working.bin_ranges() if needs_ranges or self.population is not None else None
        if self.individuals is not None:
            bins = self.individuals.bins(self.engine, self.sql.common)
        else:
            sa_tables = {
                col: working.candidates(self.ws.sensitive_by_column(col).code)
                for col in self.sa_columns
            }
            count_table = (
                None
                if sa_tables
                else ranges.select(["pid", "dim", "bin", "n"])
                if ranges is not None
                else working.candidates(None)
            )
            bins = Bins.from_arrow(count_table, sa_tables, self.ws.sensitive)
        bounds = None if ranges is None else ranges_rows(ranges, self.dims)
        if self.population is not None and bounds is not None:
            bins = bins.with_ranges(bounds, [d.index for d in self.dims])
        if len(bins) == 0:
            return None
        chosen, suppressed = self.planner.plan(
            bins,
            pid,
            widths * self.weights,  # the widest rule's preference (FD-aware when weighted)
            budget=budget,
            chooser=self.chooser,
            ranges=bounds if needs_ranges else None,
            parent_loss=n * widths.sum(axis=1),
        )
        self.suppressed_rows += suppressed
        return chosen

    # -- writing back -------------------------------------------------------------------------
    def _write_final(self, stats: pa.Table, final: BoolArray, suppressed: BoolArray) -> None:
        if not final.any():
            return
        table = parts_table(
            arrow.filter_table(stats, final), self.dims, self.arrays, suppressed[final]
        )
        self.partitions += int((~suppressed[final]).sum())
        self.suppressed_parts += int(suppressed[final].sum())
        self.parts.append(table)

    def _rewrite(
        self,
        chosen: Rows | None,
        params: dict[int, pa.Array],
        pid: IntArray,
        window: Window,
    ) -> None:
        if chosen is None or len(chosen) == 0:
            # nothing in the window splits: all its partitions are final
            self.working.finish_window(window)
            return
        chosen = chosen.take(col.order_by(chosen["pid"], chosen["part"], chosen["bin"]))
        part_key = col.codes(chosen["pid"], chosen["part"])
        first = col.starts(part_key)  # sorted by (pid, part): a part's rows are adjacent
        new_pid = np.arange(self.next_pid, self.next_pid + int(first.sum()), dtype=np.int64)
        self.next_pid += new_pid.shape[0]
        self.suppressed_pids.update(new_pid[chosen["suppressed"][first].astype(bool)].tolist())
        split = chosen.take(col.starts(chosen["pid"]))
        depth = np.zeros(len(split), np.int64)
        if len(split):
            position = col.lookup((split["pid"],), (pid,))
            for d in self.categorical:
                sel = split["dim"] == d.index
                depth[sel] = arrow.to_numpy(params[d.index])[position[sel]]
        self.working.rewrite(
            window,
            split=arrow.table(
                {
                    "pid": arrow.array(split["pid"].astype(np.int64), pa.int64()),
                    "dim": arrow.array(split["dim"].astype(np.int64), pa.int32()),
                    "depth": arrow.array(depth, pa.int32()),
                }
            ),
            decisions=arrow.table(
                {
                    "pid": arrow.array(chosen["pid"].astype(np.int64), pa.int64()),
                    "bin": arrow.array(chosen["bin"].astype(np.int64), pa.int64()),
                    "new_pid": arrow.array(new_pid[col.group_index(first)], pa.int64()),
                }
            ),
        )


def _weighted_sample(rows: pa.Table, weight: str | None, size: int) -> pa.Table:
    """``size`` of ``rows`` drawn without replacement with probability by ``weight`` (the
    rows a weighted vector stands for; Efraimidis and Spirakis, IPL 2006), seeded so a run
    is reproducible, in their original order; ``rows`` itself when they are not more."""
    if size == 0 or rows.num_rows <= size:
        return rows
    rng = np.random.default_rng(0)
    keys = rng.random(rows.num_rows)
    if weight is not None:
        w = arrow.to_numpy(rows.column(weight)).astype(np.float64)
        keys = np.log(keys) / w
    chosen = np.sort(np.argpartition(-keys, size - 1)[:size])
    return rows.take(pa.array(chosen))


__all__ = ["Mondrian", "MondrianOptions"]
