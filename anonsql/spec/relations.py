"""Relation names as the spec and the command line give them."""

from __future__ import annotations

from anonsql.errors import SpecError
from anonsql.sql import TableName


def parse_relation(text: str, key: str) -> TableName:
    """``schema.table`` or ``table`` (parts may be quoted) as a TableName; a SpecError keyed
    ``key`` otherwise."""
    try:
        return TableName.parse(text)
    except ValueError:
        raise SpecError(
            key,
            "not a table name",
            'write it as schema.table or table (quote unusual names: "my schema"."t.1")',
        ) from None
