"""Column types as the catalog reports them, classified through sqlglot's data types.

Each engine reports types in its own words (DuckDB ``HUGEINT``, PostgreSQL ``DOUBLE
PRECISION``); sqlglot parses them in the engine's dialect into one vocabulary, so the rest of
anonsql asks "numeric? integer?" without lists of type names. The type names DuckDB's catalog
reports for its common types are known here in advance (``_DUCKDB``), so a run on DuckDB need not
import sqlglot; ``tests/engines/test_lexical.py`` holds that table to sqlglot's answers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import cache


class TypeClass(str, Enum):
    """What a column's values are, as far as anonsql cares."""

    INTEGER = "integer"
    REAL = "real"  # floating point and fixed-point decimals
    TEXT = "text"
    TEMPORAL = "temporal"
    BOOLEAN = "boolean"
    OTHER = "other"


#: How DuckDB's ``DESCRIBE`` names its common types, classified as sqlglot classifies them.
_DUCKDB = {
    **dict.fromkeys(
        [
            *("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT"),
            *("UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT"),
        ],
        TypeClass.INTEGER,
    ),
    **dict.fromkeys(["FLOAT", "DOUBLE"], TypeClass.REAL),
    "VARCHAR": TypeClass.TEXT,
    **dict.fromkeys(
        ["DATE", "TIME", "TIMESTAMP", "TIMESTAMP WITH TIME ZONE", "TIMESTAMP_S", "TIMESTAMP_MS"],
        TypeClass.TEMPORAL,
    ),
    "BOOLEAN": TypeClass.BOOLEAN,
}
_DUCKDB_DECIMAL = re.compile(r"DECIMAL\(\d+,\d+\)")


@cache
def classify(data_type: str, dialect: str) -> TypeClass:
    """The class of a catalog type name in ``dialect`` (unparseable names are OTHER)."""
    if dialect == "duckdb":
        known = _DUCKDB.get(data_type)
        if known is not None:
            return known
        if _DUCKDB_DECIMAL.fullmatch(data_type):
            return TypeClass.REAL
    return _classify_with_sqlglot(data_type, dialect)


def _classify_with_sqlglot(data_type: str, dialect: str) -> TypeClass:
    import sqlglot
    from sqlglot import exp

    try:
        parsed = exp.DataType.build(data_type, dialect=dialect)
    except (sqlglot.errors.ParseError, ValueError):
        return TypeClass.OTHER
    if parsed.this == exp.DataType.Type.BIT:  # sqlglot's integer; DuckDB's bit string
        return TypeClass.OTHER
    if parsed.is_type(*exp.DataType.INTEGER_TYPES):
        return TypeClass.INTEGER
    if parsed.is_type(*exp.DataType.REAL_TYPES):
        return TypeClass.REAL
    if parsed.is_type(*exp.DataType.TEXT_TYPES):
        return TypeClass.TEXT
    if parsed.is_type(*exp.DataType.TEMPORAL_TYPES):
        return TypeClass.TEMPORAL
    if parsed.is_type(exp.DataType.Type.BOOLEAN):
        return TypeClass.BOOLEAN
    return TypeClass.OTHER


@dataclass(frozen=True)
class ColumnInfo:
    """One column of a relation as the catalog describes it."""

    name: str
    data_type: str
    type_class: TypeClass = TypeClass.OTHER

    @classmethod
    def of(cls, name: str, data_type: str, dialect: str) -> ColumnInfo:
        return cls(name, data_type, classify(data_type, dialect))

    @property
    def is_numeric(self) -> bool:
        return self.type_class in (TypeClass.INTEGER, TypeClass.REAL)

    @property
    def is_integer(self) -> bool:
        return self.type_class is TypeClass.INTEGER
