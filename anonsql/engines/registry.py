"""Engines by name, as the spec's ``engine:`` key names them."""

from __future__ import annotations

from typing import Any

from anonsql.engines.base import Engine
from anonsql.engines.duckdb import DuckDBEngine
from anonsql.engines.postgres import PostgresEngine
from anonsql.registry import Registry

ENGINES: Registry[type[Engine]] = Registry("engine")
ENGINES.register(DuckDBEngine.name, DuckDBEngine)
ENGINES.register(PostgresEngine.name, PostgresEngine)


def connect(name: str, **options: Any) -> Engine:
    """Open an engine by its registered name."""
    return ENGINES.get(name)(**options)
