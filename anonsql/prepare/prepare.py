"""The prepare step: the run's working tables, built in its own schema, and the
:class:`~anonsql.algorithms.workspace.Workspace` that describes them.

Hierarchies become lookup tables (``leaves<i>``: value -> leaf rank; ``nodes<i>``: every node;
``ancestors``: each leaf's ancestor at every depth), each checked to cover its column's values;
then either the working table ``rows`` (one row per source row: coded quasi-identifiers and
sensitive values) or, for 1:M data, ``persons`` and ``items`` (:mod:`anonsql.prepare.persons`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import replace

import numpy as np

from anonsql.algorithms.workspace import (
    Dimension,
    PersonLink,
    SensitiveAttribute,
    Workspace,
    new_run_id,
    work_schema,
)
from anonsql.engines import Engine, TypeClass
from anonsql.errors import SpecError
from anonsql.hierarchies import Hierarchies, materialize, uncovered, uncovered_rows
from anonsql.prepare.ancestors import ancestors_table, hierarchy_ancestors
from anonsql.prepare.cleanup import remove_dead_workspaces
from anonsql.prepare.persons import build_person_tables
from anonsql.resolve import Resolved
from anonsql.sql import CountedRows, Relation, TableName


@contextlib.contextmanager
def prepared(
    resolved: Resolved, hierarchies: Hierarchies, engine: Engine, run_id: str | None = None
) -> Iterator[Workspace]:
    """The run's workspace; its schema is dropped when the block ends, however it ends (and,
    should the process be killed, by the next run: :func:`remove_dead_workspaces`). Given a
    ``run_id``, the workspace joins the working schema of a run its caller holds (and drops).
    """
    if run_id is not None:
        yield prepare(resolved, hierarchies, engine, run_id)
        return
    run_id = new_run_id()
    remove_dead_workspaces(engine)
    engine.hold_run(run_id)
    try:
        yield prepare(resolved, hierarchies, engine, run_id)
    finally:
        with contextlib.suppress(Exception):
            engine.drop_work_schema(work_schema(run_id))
        with contextlib.suppress(Exception):
            engine.release_run(run_id)


def prepare(resolved: Resolved, hierarchies: Hierarchies, engine: Engine, run_id: str) -> Workspace:
    """Build the working tables of ``resolved`` in ``work_schema(run_id)``."""
    source = resolved.source
    dims = tuple(
        d if d.is_numeric else replace(d, hierarchy=hierarchies.get(d.column))
        for d in resolved.dimensions
    )
    workspace = Workspace(
        engine=engine,
        run_id=run_id,
        source=source,
        dimensions=dims,
        sensitive=resolved.sensitive,
        models=resolved.models,
        rows=resolved.rows,
        suppression_limit=resolved.spec.suppression_limit,
        functional_dependencies=resolved.functional_dependencies,
    )
    if not engine.schema_exists(workspace.schema):
        engine.create_work_schema(workspace.schema)
    leaves = materialize_dimensions(engine, workspace, dims)
    engine.load_arrow(workspace.work("ancestors"), ancestors_table(dims))
    if resolved.person is not None:
        check_dimensions(engine, workspace, leaves)
        declared = resolved.person
        fingerprint = declared.fingerprint
        sa_hierarchy = hierarchies.get(fingerprint) if fingerprint else None
        sa_leaves = None
        if sa_hierarchy is not None and fingerprint is not None:
            sa_leaves = workspace.work("sa_leaves")
            materialize(engine, sa_hierarchy, sa_leaves, workspace.work("sa_nodes"))
            check_coverage(engine, source, fingerprint, sa_leaves)
            engine.load_arrow(workspace.work("sa_ancestors"), hierarchy_ancestors(sa_hierarchy))
        link = PersonLink(declared.column, fingerprint, sa_hierarchy, declared.persons)
        workspace = replace(workspace, person=link)
        varying = build_person_tables(
            workspace, leaves, sa_leaves, resolved.spec.varying_qids, resolved.spec.seed
        )
        return replace(workspace, person=replace(link, varying=varying))
    # weighted when the algorithm partitions distinct vectors (Mondrian from
    # ``weighted_from_rows``): the rows are grouped as they are built, never written one per row
    weight = resolved.algorithm.working_rows_weight(resolved.rows)
    counted = counted_rows(resolved, workspace) if weight else None
    workspace = replace(workspace, weight=weight, counted=counted)
    rows = workspace.work("rows")
    with engine.serial() if counted else contextlib.nullcontext():
        engine.run(
            "prepare/create_rows",
            rows=rows,
            source=counted.relation if counted else source,
            counted=counted.count if counted else None,
            dims=dims,
            sensitive=resolved.sensitive,
            leaves=leaves,
            weight=weight,
            distinct_leaves=leaves_distinct(resolved, dims),
        )
    # the rows join each categorical value to its leaf, so a value that is not a leaf drops its
    # row: rows (or weights) as many as the source's rows mean every value is covered, and the
    # scan of the source that names the columns runs only when they fall short (on Spark a
    # full scan joining every leaves table, the source's third before this point)
    if leaves and int(engine.query("prepare/working_rows", rows=rows, weight=weight)[0][0]) != (
        resolved.rows
    ):
        check_dimensions(engine, workspace, leaves)
    return replace(
        workspace, sensitive=tuple(count_values(workspace, s) for s in workspace.sensitive)
    )


#: The counted rows are kept when they are at most this share of the source's rows: a published
#: column of many values (an amount, a free text) makes them nearly as many as the source, and
#: the working rows are then grouped from the source itself.
COUNTED_MAX_SHARE = 0.5


def counted_rows(resolved: Resolved, workspace: Workspace) -> CountedRows | None:
    """The source's rows counted per distinct combination of the quasi-identifiers, the
    sensitive and the published columns, where the engine groups the source once for the
    working rows and the recovery measure (``Engine.counts_source_once``) and published
    columns make the recovery measure group it (PostgreSQL at 1e7 rows: one grouping of
    10.6 s where the two took 8.8 and 10.6 s); None otherwise, or when they are more than
    :data:`COUNTED_MAX_SHARE` of the source's rows (the table is dropped)."""
    engine = workspace.engine
    if not engine.counts_source_once or not resolved.passthrough:
        return None
    columns = list(
        dict.fromkeys(
            [
                *(d.column for d in workspace.dimensions),
                *(s.column for s in resolved.sensitive),
                *resolved.passthrough,
            ]
        )
    )
    target = workspace.work("counted")
    count = "__anonsql_n"
    engine.run(
        "prepare/counted_rows", target=target, source=workspace.source, columns=columns, count=count
    )
    if engine.count_rows(target) > COUNTED_MAX_SHARE * resolved.rows:
        engine.drop(target)
        return None
    engine.analyze(target)
    return CountedRows(target, frozenset(columns), count)


def leaves_distinct(resolved: Resolved, dims: Sequence[Dimension]) -> bool:
    """Whether distinct values of each categorical quasi-identifier always have distinct
    leaves. Values are joined to their leaves by their text, and only a text column's values
    are their own text: two values of another type can share one (a date's, a decimal's), so
    rows grouped by their values must be grouped again by their leaves
    (``prepare/create_rows`` on PostgreSQL)."""
    types = {c.name: c.type_class for c in resolved.catalog}
    return all(types.get(d.column) is TypeClass.TEXT for d in dims if not d.is_numeric)


def materialize_dimensions(
    engine: Engine, workspace: Workspace, dims: tuple[Dimension, ...]
) -> dict[int, TableName]:
    """Lookup tables of the categorical dimensions, by dimension index (not yet checked to
    cover their columns: :func:`check_dimensions`)."""
    leaves: dict[int, TableName] = {}
    for d in dims:
        if d.hierarchy is None:
            continue
        leaves[d.index] = workspace.work(f"leaves{d.index}")
        materialize(engine, d.hierarchy, leaves[d.index], workspace.work(f"nodes{d.index}"))
    return leaves


def check_dimensions(engine: Engine, workspace: Workspace, leaves: dict[int, TableName]) -> None:
    """Refuse a categorical quasi-identifier with values that are not leaves of its hierarchy
    (one scan of the source for all of them: on Spark each query is a job or more of its
    own)."""
    columns = [(d.column, leaves[d.index]) for d in workspace.dimensions if d.index in leaves]
    for column, n in uncovered_rows(engine, workspace.source, columns).items():
        if n:  # the distinct values the message counts: a query of its own, on failure only
            check_coverage(engine, workspace.source, column, dict(columns)[column])


def count_values(workspace: Workspace, sensitive: SensitiveAttribute) -> SensitiveAttribute:
    """``sensitive`` with the table's count of each of its codes."""
    counts = workspace.engine.query(
        "prepare/sensitive_counts",
        rows=workspace.work("rows"),
        code=sensitive.code,
        weight=workspace.weight,
    )
    global_counts = np.zeros(sensitive.distinct, dtype=np.int64)
    for code, n in counts:
        global_counts[int(code)] = int(n)
    return replace(sensitive, global_counts=global_counts)


def check_coverage(engine: Engine, source: Relation, column: str, leaves: TableName) -> None:
    missing_rows, missing_values = uncovered(engine, source, column, leaves)
    if missing_rows:
        raise SpecError(
            f"columns.{column}.hierarchy",
            f"{missing_values} distinct values ({missing_rows} rows) of the column are "
            "not leaves of the hierarchy",
            "add those values to the hierarchy (values are compared as text)",
        )
