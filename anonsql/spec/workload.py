"""The spec's ``workload:``: the queries analysts run on a release, parsed into the one shape
anonsql measures (and Mondrian's ``split: workload`` reads).

A query is SQL over the release's name (``output.name``, optionally ``schema.name``)::

    SELECT <group columns>, <aggregate> FROM <release>
    [WHERE <condition> AND <condition> ...] [GROUP BY <group columns>]

* the aggregate: exactly one of ``COUNT(*)``, ``SUM(column)``, ``AVG(column)``;
* a condition: ``column BETWEEN a AND b``, ``column <op> value`` (or ``value <op> column``) for
  ``<``, ``<=``, ``>``, ``>=``, ``=``, or ``column IN (v1, v2, ...)``, values being literals;
* the selected columns besides the aggregate are exactly the GROUP BY columns.

Anything else (OR, NOT, functions, joins, subqueries, HAVING, ORDER BY, LIMIT, DISTINCT, several
statements) is refused with a :class:`~anonsql.errors.SpecError` keyed ``workload[i].sql``.
Which columns may appear where (QIDs, published columns) is checked against the catalog by the
resolve step (:mod:`anonsql.resolve.workload`). Parsing is sqlglot's, in the template dialect.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from anonsql.spec.model import WorkloadQuery

Aggregate = Literal["count", "sum", "avg"]
Operator = Literal["between", "<", "<=", ">", ">=", "=", "in"]
Value = int | float | str


@dataclass(frozen=True)
class Condition:
    """One conjunct of a query's WHERE: ``column`` compared with literal ``values`` (two for
    ``between``, one or more for ``in``, one otherwise)."""

    column: str
    op: Operator
    values: tuple[Value, ...]


@dataclass(frozen=True)
class ParsedQuery:
    """A workload query in the shape anonsql measures (see the module doc)."""

    name: str
    sql: str
    aggregate: Aggregate
    #: The column SUM or AVG aggregates (None for COUNT(*)).
    column: str | None
    where: tuple[Condition, ...]
    group_by: tuple[str, ...]

    @property
    def columns(self) -> tuple[str, ...]:
        """Every column the query names, in order of first mention."""
        named = [*self.group_by, *(c.column for c in self.where)]
        if self.column is not None:
            named.append(self.column)
        return tuple(dict.fromkeys(named))


def parse_workload(
    workload: Sequence[WorkloadQuery], release: str, schema: str
) -> tuple[ParsedQuery, ...]:
    """Parse every query of the spec's ``workload``; each must read the release ``release``
    (``name`` or ``schema.name``)."""
    return tuple(
        parse_query(q, f"workload[{i}].sql", release, schema) for i, q in enumerate(workload)
    )


def parse_query(query: WorkloadQuery, key: str, release: str, schema: str) -> ParsedQuery:
    """One query as a :class:`ParsedQuery`, or a SpecError keyed ``key`` naming what is not
    supported (sqlglot is loaded here, by the first workload parsed)."""
    from anonsql.spec.workload_parser import parse

    return parse(query, key, release, schema)


__all__ = ["Condition", "ParsedQuery", "parse_query", "parse_workload"]
