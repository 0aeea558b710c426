"""Relations that are not a single table: a source table with other tables joined to it.

A :class:`JoinedRelation` renders as a parenthesized derived table, so a template that reads
``FROM {{ source | qname }} AS s`` works the same whether the source is one table or a join.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from anonsql.sql.quoting import TableName
from anonsql.sql.render import render_fragment


@dataclass(frozen=True)
class CountedRows:
    """A table of a source's rows counted per distinct combination of ``columns``
    (``count``: how many source rows each stands for). A query that groups the source by
    some of those columns, or reads their distinct combinations, reads it instead and gives
    the same answer (PostgreSQL groups the source once for the working rows and the recovery
    measure: :attr:`~anonsql.engines.base.Engine.counts_source_once`)."""

    relation: TableName
    columns: frozenset[str]
    count: str

    def covers(self, columns: Iterable[str]) -> bool:
        return self.columns.issuperset(columns)

    def grouped_by(self, columns: Iterable[str]) -> bool:
        """Whether its rows are the distinct combinations of exactly ``columns``: a query
        reading those combinations needs no grouping of its own."""
        return self.columns == frozenset(columns)


@dataclass(frozen=True)
class JoinKey:
    """``left_table.column = this table.column``; tables are numbered 0 (the base) upwards."""

    column: str
    left_table: int


@dataclass(frozen=True)
class Join:
    table: TableName
    keys: tuple[JoinKey, ...]


@dataclass(frozen=True)
class RelationColumn:
    """A column of the joined relation and the table (by number) it is read from."""

    name: str
    table: int


@dataclass(frozen=True)
class JoinedRelation:
    """``base`` inner-joined to each of ``joins`` in turn, exposing ``columns``."""

    base: TableName
    joins: tuple[Join, ...]
    columns: tuple[RelationColumn, ...]

    def sql(self) -> str:
        """The relation as a derived table, ``(SELECT ... FROM ... JOIN ...)``."""
        return render_fragment("relations/joined", relation=self)

    def __str__(self) -> str:
        parts = [str(self.base)]
        for join in self.joins:
            keys = ", ".join(k.column for k in join.keys)
            parts.append(f"JOIN {join.table} USING ({keys})")
        return " ".join(parts)


#: What a template may read rows from.
Relation = TableName | JoinedRelation
