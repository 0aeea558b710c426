"""Database engines: connection, execution, catalog, transactions."""

from anonsql.engines.base import ColumnInfo, Engine
from anonsql.engines.duckdb import DuckDBEngine
from anonsql.engines.postgres import PostgresEngine
from anonsql.engines.registry import ENGINES, connect

__all__ = ["ENGINES", "ColumnInfo", "DuckDBEngine", "Engine", "PostgresEngine", "connect"]
