"""DuckDB's home: the default, embedded engine (its class, and the templates
only it runs, under ``templates/``, searched before the shared ``sql_templates/``)."""

from anonsql.engines.duckdb.engine import DuckDBEngine

__all__ = ["DuckDBEngine"]
