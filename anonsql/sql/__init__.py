"""The only place SQL text is produced: templates, quoting, per-engine rendering."""

from anonsql.sql.quoting import TableName, ident, literal
from anonsql.sql.relations import (
    CountedRows,
    Join,
    JoinedRelation,
    JoinKey,
    Relation,
    RelationColumn,
)
from anonsql.sql.render import SqlRenderer, TemplateError

__all__ = [
    "CountedRows",
    "Join",
    "JoinKey",
    "JoinedRelation",
    "Relation",
    "RelationColumn",
    "SqlRenderer",
    "TableName",
    "TemplateError",
    "ident",
    "literal",
]
