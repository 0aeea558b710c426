"""The only place SQL text is produced: templates, quoting, per-engine rendering."""

from anonsql.sql.quoting import TableName, ident, literal
from anonsql.sql.render import SqlRenderer, TemplateError

__all__ = ["SqlRenderer", "TableName", "TemplateError", "ident", "literal"]
