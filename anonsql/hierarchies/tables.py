"""Hierarchies as tables in the engine: lookup tables, hierarchy tables, coverage.

A hierarchy may already live in the database as a table whose columns are its levels, leaf first
and root last (ARX's shape). Such a table is checked by SQL before it is read: each check is a
query whose rows are the violations (per level, with a count, never a label), so zero rows means
the table is a hierarchy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from anonsql.engines.base import Engine
from anonsql.errors import HierarchyError
from anonsql.hierarchies.builders import natural_order
from anonsql.hierarchies.io import hierarchy_key, new_hierarchy
from anonsql.hierarchies.model import Hierarchy
from anonsql.sql.quoting import TableName
from anonsql.sql.relations import Relation


def materialize(engine: Engine, hierarchy: Hierarchy, leaves: TableName, nodes: TableName) -> None:
    """Create the lookup tables ``leaves`` (value -> leaf rank) and ``nodes`` (every node)."""
    engine.load_arrow(leaves, hierarchy.leaves_table())
    engine.load_arrow(nodes, hierarchy.nodes_table())


@dataclass(frozen=True)
class _TableCheck:
    """A validation query over a hierarchy table and how to report its violations.

    ``problem`` is formatted with ``n`` (the violation count), ``level``, ``column`` (that level's
    column) and ``parent`` (the next column up).
    """

    template: str
    problem: str
    fix: str


_TABLE_CHECKS = (
    _TableCheck(
        "hierarchies/null_labels",
        "{n} rows have NULL in column {column!r} (level {level})",
        "give every level a label; pad short branches by repeating the leaf",
    ),
    _TableCheck(
        "hierarchies/roots",
        "the last column {column!r} holds {n} distinct labels, but a hierarchy has one root",
        "end every row with the same root label, e.g. '*'",
    ),
    _TableCheck(
        "hierarchies/not_functional",
        "{n} labels of column {column!r} (level {level}) have more than one parent in column "
        "{parent!r}",
        "give each label one parent (each level must be a function of the one below)",
    ),
    _TableCheck(
        "hierarchies/duplicate_leaves",
        "{n} leaf values of column {column!r} appear on more than one row",
        "list each leaf value on one row",
    ),
)


def read_hierarchy_table(engine: Engine, relation: TableName, *, name: str) -> Hierarchy:
    """Read a hierarchy held as a table (columns = levels, leaf first, root last).

    The table is validated by SQL first (no NULLs, one root, each level a function of the one
    below, unique leaves); a failure names the table and the column. Labels are read as text and
    leaves ordered naturally (numerically when all leaves are numbers).
    """
    key = f"{hierarchy_key(name)}.table"
    catalog = engine.columns(relation)
    if catalog is None:
        raise HierarchyError(
            key,
            f"the hierarchy table {relation} does not exist",
            "create it, or check the schema and table name",
        )
    columns = [c.name for c in catalog]
    if len(columns) < 2:
        raise HierarchyError(
            key,
            f"table {relation} has {len(columns)} column",
            "give one column per level, leaf first and root last",
        )
    for check in _TABLE_CHECKS:
        for level, n in engine.query(check.template, relation=relation, columns=columns):
            parent = columns[min(level + 1, len(columns) - 1)]
            problem = check.problem.format(n=n, level=level, column=columns[level], parent=parent)
            raise HierarchyError(key, f"table {relation}: {problem}", check.fix)
    rows = [
        list(row)
        for row in engine.query("hierarchies/fetch_table", relation=relation, columns=columns)
    ]
    rank = {leaf: i for i, leaf in enumerate(natural_order([row[0] for row in rows]))}
    rows.sort(key=lambda row: rank[row[0]])
    return new_hierarchy(rows, name=name, origin=f"table {relation} (rows in leaf order)")


def uncovered(engine: Engine, source: Relation, column: str, leaves: TableName) -> tuple[int, int]:
    """(rows, distinct values) of ``source.column`` whose text is not a leaf in ``leaves``.

    NULL is never covered: NULL rows count, and NULL counts as one distinct value.
    """
    rows, values = engine.query(
        "hierarchies/uncovered", source=source, column=column, leaves=leaves
    )[0]
    return int(rows), int(values)


def uncovered_rows(
    engine: Engine, source: Relation, checks: Sequence[tuple[str, TableName]]
) -> dict[str, int]:
    """Per ``(column, leaves)`` of ``checks``, the rows of ``source`` whose text is not a leaf
    in ``leaves`` (NULL is never covered), counted in one scan of ``source``. Each ``leaves``
    is a lookup table :func:`materialize` built (a hierarchy's leaves are distinct)."""
    if not checks:
        return {}
    row = engine.query(
        "hierarchies/uncovered_rows",
        source=source,
        checks=[{"column": column, "leaves": leaves} for column, leaves in checks],
    )[0]
    return {column: int(n or 0) for (column, _), n in zip(checks, row, strict=True)}
