"""The single quoting helper: every identifier and literal in generated SQL passes through here.

Names and values come from users and are hostile until proven otherwise, so they are turned into
sqlglot expressions and rendered by sqlglot, never pasted into SQL text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import sqlglot
from sqlglot import exp

#: Templates are written in this dialect and transpiled to the engine's dialect after parsing.
TEMPLATE_DIALECT = "duckdb"


def ident(name: str) -> str:
    """Quote one identifier (always quoted, so keywords, spaces and unicode are safe)."""
    if not isinstance(name, str) or name == "":
        raise ValueError("an identifier must be a non-empty string")
    if "\x00" in name:
        raise ValueError("an identifier may not contain NUL characters")
    return _quoted(name)


# A run renders the same few names and numbers thousands of times (7,000 identifiers on Adult):
# sqlglot's rendering is cached per value. Separate caches per type, since 1 == 1.0 == True.
@lru_cache(maxsize=8192)
def _quoted(name: str) -> str:
    return str(exp.to_identifier(name, quoted=True).sql(dialect=TEMPLATE_DIALECT))


@lru_cache(maxsize=8192)
def _int_literal(value: int) -> str:
    return str(exp.Literal.number(value).sql(dialect=TEMPLATE_DIALECT))


@lru_cache(maxsize=8192)
def _float_literal(value: float) -> str:
    return str(exp.Literal.number(repr(value)).sql(dialect=TEMPLATE_DIALECT))


@lru_cache(maxsize=8192)
def _string_literal(value: str) -> str:
    return str(exp.Literal.string(value).sql(dialect=TEMPLATE_DIALECT))


def literal(value: object) -> str:
    """Render a Python value as a SQL literal."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return _int_literal(int(value))
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("non-finite floats cannot be SQL literals")
        return _float_literal(float(value))
    if isinstance(value, str):
        if "\x00" in value:
            raise ValueError("a string literal may not contain NUL characters")
        return _string_literal(str(value))
    raise TypeError(f"cannot render a {type(value).__name__} as a SQL literal")


@dataclass(frozen=True, order=True)
class TableName:
    """A possibly schema-qualified relation name, kept unquoted until rendered."""

    name: str
    schema: str | None = None

    @classmethod
    def parse(cls, text: str) -> TableName:
        """Parse ``schema.table`` or ``table``; quoted parts are allowed (``"my schema"."t.1"``)."""
        try:
            table = sqlglot.parse_one(text, into=exp.Table, read=TEMPLATE_DIALECT)
        except sqlglot.errors.SqlglotError as err:
            raise ValueError(f"{text!r} is not a table name of the form schema.table") from err
        if not isinstance(table, exp.Table):  # e.g. 'a;b' parses as several statements
            raise ValueError(f"{text!r} is not a table name of the form schema.table")
        if table.catalog:
            raise ValueError(f"{text!r} has a catalog part; use schema.table")
        return cls(name=table.name, schema=table.db or None)

    def sql(self) -> str:
        """The quoted, qualified name."""
        if self.schema:
            return f"{ident(self.schema)}.{ident(self.name)}"
        return ident(self.name)

    def with_name(self, name: str) -> TableName:
        return TableName(name=name, schema=self.schema)

    def __str__(self) -> str:
        return f"{self.schema}.{self.name}" if self.schema else self.name
