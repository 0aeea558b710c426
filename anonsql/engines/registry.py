"""Engines by name, as the spec's ``engine:`` key names them.

Drivers load only when their engine is used: entries are lazy (``module:class``), and other
packages add engines through the ``anonsql.engines`` entry-point group.
"""

from __future__ import annotations

from typing import Any

from anonsql.engines.base import Engine
from anonsql.registry import Registry

ENGINES: Registry[type[Engine]] = Registry("engine", group="anonsql.engines")
ENGINES.register_lazy("duckdb", "anonsql.engines.duckdb.engine:DuckDBEngine")
ENGINES.register_lazy("postgres", "anonsql.engines.postgres.engine:PostgresEngine")
ENGINES.register_lazy("spark", "anonsql.engines.spark.engine:SparkEngine")


def connect(name: str, **options: Any) -> Engine:
    """Open an engine by its registered name."""
    return ENGINES.get(name)(**options)
