"""``algorithm: full_domain``: the optimal full-domain generalization, published like every
release of one row per individual.

Samarati (IEEE TKDE 2001) and LeFevre et al. ("Incognito", SIGMOD 2005) generalize each
quasi-identifier to one level of its hierarchy for the whole column; Kohlmayer et al.'s Flash
(PASSAT 2012, the algorithm of ARX) finds the lattice node of lowest information loss among those
that satisfy the privacy models, suppressing the rows of failing classes within the budget.

The run, over the working table the prepare step built (``rows``: coded quasi-identifiers and
sensitive values):

1. each quasi-identifier gets its levels (:class:`~.lattice.LevelHierarchy`): a categorical one
   from its hierarchy (ARX's positional levels when its lines have one length), a numeric one
   (``type: numeric``, no hierarchy) a binary ladder over its distinct values, level ``l``
   grouping ``2^l`` consecutive values (:func:`numeric_levels`);
2. the frequency table of the distinct coded vectors is built once, in the engine;
3. Flash searches the lattice (:func:`~.search.full_domain_search`), each node evaluated by one
   ``GROUP BY`` over the frequency table (:class:`~.frequency.NodeEvaluator`);
4. the chosen node's classes become the ``parts`` table (categorical: the level's hierarchy node;
   numeric: the group's ``[lo, hi]``), and ``rows`` is replaced by the map from every distinct
   vector to its class, which is all the record layout's recoding reads.

The chosen node and the search's statistics are the release's ``search`` certificate field.

k-map against a population table (``k_map``): the population is coded through the same levels
once and rolled up with every node's classes; the release carries its generalized population for
the verification (:mod:`.population`, which explains the choice).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import pyarrow as pa
from pydantic import Field, model_validator

from anonsql import arrow
from anonsql.algorithms.base import Algorithm, Options, Partitioning, ProgressCallback
from anonsql.algorithms.facts import RecordFacts
from anonsql.algorithms.full_domain.frequency import FrequencyTable, NodeEvaluator
from anonsql.algorithms.full_domain.lattice import LevelHierarchy, levels_from_hierarchy
from anonsql.algorithms.full_domain.objectives import OBJECTIVES, Objective, make_objective
from anonsql.algorithms.full_domain.population import Population, build_population
from anonsql.algorithms.full_domain.result import FullDomainResult
from anonsql.algorithms.full_domain.search import full_domain_search
from anonsql.algorithms.population import POPULATION_CLASSES, population_source
from anonsql.algorithms.workspace import Dimension, Workspace
from anonsql.arrays import FloatArray
from anonsql.errors import SpecError
from anonsql.hierarchies.io import new_hierarchy

#: Distinct values a numeric quasi-identifier without hierarchy may have (its binary ladder is
#: built in Python, one node per group).
MAX_NUMERIC_VALUES = 1 << 16


class FullDomainOptions(Options):
    """``objective`` (what "optimal" minimizes) and its parameters, and the search."""

    objective: Literal["entropy", "loss", "ncp", "discernibility"] = "entropy"
    #: entropy / discernibility: ARX's monotonic variant (entropy: default true, suppressed
    #: rows cost nothing; discernibility: default false, a suppressed row costs the table size)
    monotonic: bool | None = None
    #: loss: 0 favours suppression, 1 generalization (ARX's gsFactor, default 0.5)
    gs_factor: float | None = Field(default=None, ge=0.0, le=1.0)
    #: loss: how the attributes' losses combine (ARX's default, the geometric mean)
    aggregate: Literal["geometric_mean", "arithmetic_mean", "sum", "maximum"] | None = None
    #: flash (optimal, prunes and tags) or exhaustive (checks every node: small lattices, tests)
    search: Literal["flash", "exhaustive"] = "flash"

    @model_validator(mode="after")
    def _parameters_fit(self) -> FullDomainOptions:
        # the other options must be left unset
        allowed = OBJECTIVES.get(self.objective).parameter_names
        for name in ("monotonic", "gs_factor", "aggregate"):
            if getattr(self, name) is not None and name not in allowed:
                takes = ", ".join(allowed) or "no parameters"
                raise ValueError(
                    f"{name} is not a parameter of objective {self.objective} (it takes {takes})"
                )
        return self

    def make_objective(self) -> Objective:
        params = {
            name: getattr(self, name)
            for name in OBJECTIVES.get(self.objective).parameter_names
            if getattr(self, name) is not None
        }
        return make_objective(self.objective, **params)


class FullDomain(Algorithm[FullDomainOptions]):
    """Optimal full-domain generalization by Flash over the generalization lattice."""

    name = "full_domain"
    reference = (
        "F. Kohlmayer, F. Prasser, C. Eckert, A. Kemper, K. A. Kuhn, Flash: Efficient, Stable and "
        "Optimal K-Anonymity, PASSAT 2012; P. Samarati, Protecting Respondents' Identities in "
        "Microdata Release, IEEE TKDE 13(6), 2001"
    )
    supplies = frozenset({"sensitive_values", "population"})
    enforces_table_level = True

    def partition(self, workspace: Workspace, progress: ProgressCallback) -> Partitioning:
        e = workspace.engine
        start = e.stats.statements
        levels = [dimension_levels(workspace, d) for d in workspace.dimensions]
        progress(
            "full_domain: lattice of " + " x ".join(str(q.height + 1) for q in levels) + " levels"
        )
        freq = workspace_frequency(workspace, levels)
        named = population_source(workspace.models)
        population = None
        if named is not None:
            population = build_population(workspace, *named)
            progress(f"full_domain: population {population.source}, {population.records} rows")
        evaluator = NodeEvaluator(
            freq, workspace.models, budget=workspace.suppression_budget, population=population
        )
        try:
            result = full_domain_search(
                evaluator,
                self.options.make_objective(),
                suppression_limit=workspace.suppression_limit,
                algorithm=self.options.search,
                progress=lambda message: progress(f"full_domain: {message}"),
            )
            classes, kept = write_release(workspace, evaluator, result)
            if population is not None:
                write_population(workspace, evaluator, population, result.levels)
        finally:
            evaluator.drop_rollups()
        progress(
            f"full_domain: node {list(result.levels)}, {kept} classes, "
            f"{result.suppressed_rows} rows suppressed"
        )
        return Partitioning(
            partitions=kept,
            suppressed_rows=result.suppressed_rows,
            suppressed_partitions=classes - kept,
            rounds=result.stats.checked,
            statements=e.stats.statements - start,
            facts=(
                RecordFacts(search=result.certificate())
                if population is None
                else RecordFacts(
                    search={**result.certificate(), "population": population.certificate()},
                    population=population.certificate(),
                )
            ),
        )


# -- levels ---------------------------------------------------------------------------------


class NumericLevels(LevelHierarchy):
    """A numeric quasi-identifier's binary ladder over its ``values`` (ascending): level ``l``
    groups the values whose ranks agree but for the last ``l`` bits, the top level is the root.
    NCP is measured on the values (``(hi - lo) / (max - min)`` of a group), as the NCP metric
    measures the published intervals."""

    values: FloatArray

    def level_ncp(self, level: int) -> FloatArray:
        nodes = self.hierarchy.nodes
        span = float(self.values[-1] - self.values[0])
        per_node = np.array(
            [
                (self.values[n.last_leaf] - self.values[n.first_leaf]) / span if span else 0.0
                for n in nodes
            ],
            dtype=np.float64,
        )
        ncp: FloatArray = per_node[self.level_nodes[:, level]]
        return ncp


def numeric_levels(column: str, values: FloatArray) -> NumericLevels:
    """The binary ladder of ``values`` (distinct, ascending): leaf ``r``'s level-``l`` group is
    ``r >> l``, until one group (the root ``*``) holds them all."""
    count = len(values)
    height = max(1, (count - 1).bit_length())
    rows = []
    for rank in range(count):
        groups = [f"{level}:{rank >> level}" for level in range(1, height)]
        rows.append([f"{rank}", *groups, "*"])
    hierarchy = new_hierarchy(rows, name=column, origin="the numeric ladder")
    level_nodes = np.zeros((count, height + 1), dtype=np.int64)
    for rank, row in enumerate(rows):
        level_nodes[rank] = [hierarchy.node_by_label[label].id for label in row]
    levels = NumericLevels(column=column, hierarchy=hierarchy, level_nodes=level_nodes)
    object.__setattr__(levels, "values", values)
    return levels


def dimension_levels(workspace: Workspace, d: Dimension) -> LevelHierarchy:
    """A quasi-identifier's levels: from its hierarchy, or a numeric ladder over its values
    (whose table ``fd_values<i>``, value -> leaf rank, is left in the workspace)."""
    if d.hierarchy is not None:
        return levels_from_hierarchy(d.hierarchy, column=d.column)
    e = workspace.engine
    table = workspace.work(f"fd_values{d.index}")
    e.drop(table)
    e.run("full_domain/numeric_values", target=table, rows=workspace.work("rows"), code=d.code)
    count = e.count_rows(table)
    if count > MAX_NUMERIC_VALUES:
        raise SpecError(
            f"columns.{d.column}",
            f"full-domain generalization of a numeric column builds a ladder over its values, "
            f"and this one has {count} distinct values (at most {MAX_NUMERIC_VALUES})",
            "give the column a hierarchy (e.g. {builder: interval, width: 10, levels: 4})",
        )
    values = e.query_arrow("full_domain/numeric_ladder", values=table)
    numbers = arrow.to_numpy(values.column("value")).astype(np.float64)
    return numeric_levels(d.column, numbers)


# -- the frequency table --------------------------------------------------------------------


def workspace_frequency(workspace: Workspace, levels: Sequence[LevelHierarchy]) -> FrequencyTable:
    """The frequency table of the run's working rows (one row per distinct coded vector and
    sensitive codes), with the path codes of ``levels``; sensitive codes are the workspace's."""
    e = workspace.engine
    dims = []
    for d, qid in zip(workspace.dimensions, levels, strict=True):
        codes = workspace.work(f"fd_levels{d.index}")
        e.drop(codes)
        e.load_arrow(
            codes,
            arrow.table(
                {
                    "leaf": arrow.array(np.arange(qid.leaf_count, dtype=np.int32), pa.int32()),
                    "code": arrow.array(qid.codes[:, 0], pa.int64()),
                }
            ),
        )
        values = workspace.work(f"fd_values{d.index}") if d.is_numeric else None
        dims.append({"index": d.index, "code": d.code, "codes": codes, "values": values})
    freq = workspace.work("fd_freq")
    e.drop(freq)
    e.run(
        "full_domain/coded_frequency",
        target=freq,
        rows=workspace.work("rows"),
        dims=dims,
        sensitive=[s.code for s in workspace.sensitive],
    )
    e.analyze(freq)
    vectors, rows = e.query("full_domain/frequency_size", freq=freq)[0]
    marginals = e.query_arrow(
        "full_domain/marginals",
        freq=freq,
        dims=[{"index": i} for i in range(len(levels))],
    )
    dim = arrow.to_numpy(marginals.column("dim"))
    leaf = arrow.to_numpy(marginals.column("leaf")).astype(np.int64)
    count = arrow.to_numpy(marginals.column("n")).astype(np.int64)
    leaf_counts = tuple(
        np.bincount(leaf[dim == i], weights=count[dim == i], minlength=q.leaf_count).astype(
            np.int64
        )
        for i, q in enumerate(levels)
    )
    needs_values = any("sensitive_values" in m.requires for m in workspace.models)
    return FrequencyTable(
        engine=e,
        table=freq,
        qids=tuple(levels),
        sensitive=tuple(s.column for s in workspace.sensitive),
        rows=int(rows or 0),
        vectors=int(vectors),
        leaf_counts=leaf_counts,
        global_counts=tuple(s.global_counts for s in workspace.sensitive),
        seconds=0.0,
        sensitive_values=(
            tuple(sensitive_text(workspace, s.column) for s in workspace.sensitive)
            if needs_values
            else ()
        ),
    )


def sensitive_text(workspace: Workspace, column: str) -> tuple[str | None, ...]:
    """The text of each code of a sensitive column (codes are the dense rank of the values,
    NULL last, as the prepare step numbers them)."""
    rows = workspace.engine.query(
        "full_domain/sensitive_text", source=workspace.source, column=column
    )
    return tuple(None if text is None else str(text) for _, text in rows)


# -- the release ----------------------------------------------------------------------------


def write_release(
    workspace: Workspace, evaluator: NodeEvaluator, result: FullDomainResult
) -> tuple[int, int]:
    """Leave the chosen node's classes as ``parts`` and the map from every distinct vector to
    its class as ``rows``; return (classes, classes kept)."""
    e = workspace.engine
    table = evaluator.classes(result.levels)
    count = len(table.counts)
    order = np.lexsort(table.codes.T[::-1]) if count else np.zeros(0, dtype=np.int64)
    suppressed = table.suppressed[order]
    columns: dict[str, pa.Array | pa.ChunkedArray] = {
        "pid": arrow.array(np.arange(1, count + 1, dtype=np.int64), pa.int64()),
        "n": arrow.array(table.counts[order], pa.int64()),
        "suppressed": arrow.array(suppressed, pa.bool_()),
    }
    for i, d in enumerate(workspace.dimensions):
        qid = evaluator.freq.qids[i]
        nodes = table.nodes[order, i]
        columns[f"code{i}"] = arrow.array(table.codes[order, i], pa.int64())
        if d.is_numeric:
            values = e.query_arrow(
                "full_domain/numeric_ladder", values=workspace.work(f"fd_values{d.index}")
            ).column("value")
            first = np.array([qid.hierarchy.nodes[n].first_leaf for n in nodes], np.int64)
            last = np.array([qid.hierarchy.nodes[n].last_leaf for n in nodes], np.int64)
            columns[f"lo{d.index}"] = values.take(arrow.array(first))
            columns[f"hi{d.index}"] = values.take(arrow.array(last))
        else:
            columns[f"node{d.index}"] = arrow.array(nodes.astype(np.int32), pa.int32())
    parts = workspace.work("parts")
    e.drop(parts)
    e.load_arrow(parts, arrow.table(columns))
    plan = evaluator.frequency_plan(result.levels)
    target = workspace.work("fd_rows")
    e.drop(target)
    e.run(
        "full_domain/release_rows",
        target=target,
        freq=evaluator.freq.table,
        parts=parts,
        groups=plan["groups"],
        dims=[{"index": d.index, "numeric": d.is_numeric} for d in workspace.dimensions],
    )
    rows = workspace.work("rows")
    e.drop(rows)
    e.run("rename_table", source=target, target_name=rows.name)
    return count, int((~suppressed).sum())


def write_population(
    workspace: Workspace,
    evaluator: NodeEvaluator,
    population: Population,
    levels: Sequence[int],
) -> None:
    """Leave the chosen node's population count of every class as ``population_classes``
    (``pid``, ``n``), from which the record layout builds the release's population."""
    e = workspace.engine
    target = workspace.work(POPULATION_CLASSES)
    e.drop(target)
    e.run(
        "full_domain/population_parts",
        target=target,
        population=population.table,
        parts=workspace.work("parts"),
        groups=evaluator.population_plan(levels),
    )


__all__ = ["FullDomain", "FullDomainOptions", "NumericLevels", "numeric_levels"]
