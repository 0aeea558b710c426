"""The relation a job reads: the spec's ``source`` table, with the ``join`` tables joined to it.

A join exposes the source's columns, then each joined table's columns that are not already
there (its join keys are the source's). A column the spec declares must come from exactly one
table: a name two tables share, other than a join key, is an error. Names are compared without
case, as DuckDB resolves them, so the same spec means the same relation on every engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from anonsql.engines import ColumnInfo, Engine
from anonsql.errors import SpecError
from anonsql.spec import Spec
from anonsql.spec.relations import parse_relation
from anonsql.spec.sources import file_source
from anonsql.sql import Join, JoinedRelation, JoinKey, Relation, RelationColumn, TableName


def table_columns(engine: Engine, table: TableName, key: str = "source") -> list[ColumnInfo]:
    columns = engine.columns(table)
    if columns is None:
        raise SpecError(
            key,
            f"the relation {table} does not exist in the database",
            "check the schema and table name (and the database path)"
            + (
                ", or name files by path (source: parquet:/path/to/files)"
                if key == "source"
                else ""
            ),
        )
    return columns


@dataclass(frozen=True)
class Source:
    """The resolved source: what templates read (a table or a join), its columns, and the
    tables it reads."""

    relation: Relation
    columns: list[ColumnInfo]
    tables: list[TableName]


def resolve_source(spec: Spec, engine: Engine) -> Source:
    """Resolve ``spec.source`` and ``spec.join`` against the catalog (a source named by path is
    first registered as a relation: :mod:`anonsql.spec.sources`)."""
    files = file_source(spec.source, spec.base_dir)
    base = engine.file_relation(files) if files else parse_relation(spec.source, "source")
    catalog = table_columns(engine, base)
    if not spec.join:
        return Source(base, catalog, [base])
    columns = list(catalog)
    owner = {c.name.casefold(): 0 for c in catalog}
    tables = [base]
    shared: dict[str, list[int]] = {}
    joins: list[Join] = []
    for number, declared in enumerate(spec.join, start=1):
        key = f"join[{number - 1}]"
        table = parse_relation(declared.table, f"{key}.table")
        if table in tables:
            raise SpecError(
                f"{key}.table", f"{table} is already part of the source", "join it once"
            )
        joined = table_columns(engine, table, f"{key}.table")
        by_name = {c.name: c for c in joined}
        keys: list[JoinKey] = []
        for position, name in enumerate(declared.using):
            where = f"{key}.using[{position}]"
            if name.casefold() not in owner:
                raise SpecError(
                    where,
                    f"{name!r} is not a column of {', '.join(map(str, tables))}",
                    "join on a column both sides hold under the same name",
                )
            if name not in by_name:
                raise SpecError(
                    where,
                    f"{name!r} is not a column of {table}",
                    "join on a column both sides hold under the same name",
                )
            left = next(c for c in columns if c.name.casefold() == name.casefold())
            if left.is_numeric != by_name[name].is_numeric:
                raise SpecError(
                    where,
                    f"{name!r} is {left.data_type} on one side and {by_name[name].data_type} on "
                    "the other",
                    "give the join columns the same type (e.g. a view with a CAST)",
                )
            keys.append(JoinKey(name, owner[name.casefold()]))
        for c in joined:
            folded = c.name.casefold()
            if folded in owner:
                if c.name not in declared.using:
                    shared.setdefault(folded, [owner[folded]]).append(number)
                continue
            owner[folded] = number
            columns.append(c)
        tables.append(table)
        joins.append(Join(table, tuple(keys)))
    for name in spec.columns:
        if name.casefold() in shared:
            holders = " and ".join(str(tables[i]) for i in shared[name.casefold()])
            raise SpecError(
                f"columns.{name}",
                f"{name!r} is a column of both {holders}",
                "rename one of them in a view over its table, and declare that name",
            )
    relation = JoinedRelation(
        base=base,
        joins=tuple(joins),
        columns=tuple(RelationColumn(c.name, owner[c.name.casefold()]) for c in columns),
    )
    return Source(relation, columns, tables)
