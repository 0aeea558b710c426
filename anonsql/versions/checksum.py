"""The source's checksum a release's versions record privately (``__versions``) and ``anonsql
status`` compares: rows and an order-independent hash (``sql_templates/status/checksum.sql``; the
dbt package's ``release_checksum`` is generated from the same templates)."""

from __future__ import annotations

from collections.abc import Sequence

from anonsql.engines import Engine
from anonsql.sql import TableName
from anonsql.sql.relations import Relation


def checksum(engine: Engine, relation: Relation, columns: Sequence[str] | None = None) -> str:
    """Rows and an order-independent hash of ``relation`` over ``columns`` (default: all of a
    table's, in its order); comparable on one engine only."""
    if columns is None:
        assert isinstance(relation, TableName)
        columns = [c.name for c in engine.columns(relation) or []]
    rows, value = engine.query("status/checksum", relation=relation, columns=list(columns))[0]
    return f"{int(rows)}:{int(value)}"
