"""The resolve step: the spec checked against the engine's catalog and profiled data."""

from anonsql.resolve.resolve import resolve
from anonsql.resolve.resolved import PersonDeclaration, Resolved
from anonsql.resolve.source import Source, resolve_source, table_columns

__all__ = ["PersonDeclaration", "Resolved", "Source", "resolve", "resolve_source", "table_columns"]
