"""Database engines: connection, execution, catalog, transactions, declared capabilities.

``DuckDBEngine`` and ``PostgresEngine`` are imported on first access, so a DuckDB-only run never
loads the PostgreSQL driver.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from anonsql.engines.base import Engine
from anonsql.engines.registry import ENGINES, connect
from anonsql.engines.types import ColumnInfo, TypeClass

if TYPE_CHECKING:
    from anonsql.engines.duckdb.engine import DuckDBEngine
    from anonsql.engines.postgres.engine import PostgresEngine

_LAZY = {"DuckDBEngine": "duckdb", "PostgresEngine": "postgres"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return ENGINES.get(_LAZY[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ENGINES",
    "ColumnInfo",
    "DuckDBEngine",
    "Engine",
    "PostgresEngine",
    "TypeClass",
    "connect",
]
