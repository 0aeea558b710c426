"""Render Jinja SQL templates into SQL for one engine.

Templates live in ``sql_templates/``, named by concern (``mondrian/``, ``publish/``, ...), and are
written in DuckDB's dialect. An engine keeps the templates only it runs, and its overrides of
shared ones, in its own home (``anonsql/engines/<name>/templates/``, under the same names): the
lookup searches that folder first, then the shared tree, and a miss names every folder it
tried. For another dialect every rendered statement is parsed by sqlglot at once (a
template error names the template and shows the SQL) and then generated in the engine's dialect.
An engine that speaks the template dialect runs the rendered text as written: it is only split
into statements (``anonsql.sql.statements``: a ``;`` inside a quoted literal or name never
splits), since parsing and regenerating text the engine reads natively was most of the fixed
cost of a run on a small table. sqlglot is imported
only by the transpiling path, so such a run never loads it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import jinja2

from anonsql.resources import resource_dir
from anonsql.sql.quoting import TEMPLATE_DIALECT, ident, literal
from anonsql.sql.statements import UnterminatedError, split_statements


class TemplateError(RuntimeError):
    """A template is missing or renders invalid SQL (a bug in anonsql, not in user input)."""


def _qname(value: Any) -> str:
    """A relation: a name string, a :class:`TableName`, or anything with ``sql()`` (a join)."""
    if isinstance(value, str):
        return ident(value)
    return str(value.sql())


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    try:
        return jinja2.FileSystemBytecodeCache()
    except OSError:  # no usable temp directory: compile every time
        return None


def _search_path(own: str | None) -> list[str]:
    """An engine's own template folder (if any), then the shared tree."""
    return [*([own] if own else []), str(resource_dir("sql_templates"))]


@cache
def _environment(own: str | None = None) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(_search_path(own)),
        # templates are package data: no stat() of the file on every lookup
        auto_reload=False,
        # compiled templates are kept between processes (Jinja's per-user cache folder in the
        # temp directory, keyed by the template's source checksum): compiling the ~60 templates
        # of a run is a large part of a small run's fixed cost
        bytecode_cache=_bytecode_cache(),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    env.filters["ident"] = ident
    env.filters["lit"] = literal
    env.filters["qname"] = _qname
    return env


def render_fragment(name: str, /, **params: Any) -> str:
    """Render a template that is a piece of a statement (no parsing: the enclosing statement
    is parsed and transpiled as a whole)."""
    try:
        return _environment().get_template(f"{name}.sql").render(**params).strip()
    except jinja2.TemplateError as err:
        raise TemplateError(f"template {name}.sql: {err}") from err


@cache
def _template(own: str | None, name: str) -> jinja2.Template:
    """The engine's own template if it has one, else the shared one (looked up once: a miss is
    not cached by Jinja and costs a file-system probe on every render)."""
    try:
        return _environment(own).get_template(f"{name}.sql")
    except jinja2.TemplateNotFound:
        tried = ", ".join(_search_path(own))
        raise TemplateError(f"no SQL template {name}.sql in {tried}") from None


class SqlRenderer:
    """Renders templates for one dialect (``duckdb``, ``postgres``, ...)."""

    def __init__(
        self,
        dialect: str,
        defaults: Mapping[str, Any] | None = None,
        *,
        templates: Path | None = None,
    ) -> None:
        self.dialect = dialect
        #: Parameters every template of this engine sees (e.g. ``working_table``).
        self.defaults = dict(defaults or {})
        #: The engine's own template folder, searched before the shared tree.
        self.templates = str(templates) if templates is not None else None

    def template_path(self, name: str) -> str:
        """The file the template ``name`` renders from for this engine."""
        return str(_template(self.templates, name).filename)

    def render_text(self, name: str, params: Mapping[str, Any]) -> str:
        """Render a template to SQL text in the template dialect (no parsing)."""
        template = _template(self.templates, name)
        try:
            return template.render(**{**self.defaults, **params})
        except jinja2.UndefinedError as err:
            raise TemplateError(f"template {template.name}: {err}") from err

    def render_many(self, name: str, /, **params: Any) -> list[str]:
        """Render a template that may hold several statements; return them in this dialect."""
        text = self.render_text(name, params)
        if self.dialect == TEMPLATE_DIALECT:
            try:
                return list(_split(text))
            except UnterminatedError as err:
                raise _invalid(name, err, text) from err
        import sqlglot

        try:
            return list(_transpile(text, self.dialect))
        except sqlglot.errors.SqlglotError as err:
            raise _invalid(name, err, text) from err

    def render(self, name: str, /, **params: Any) -> str:
        """Render a one-statement template into this dialect."""
        statements = self.render_many(name, **params)
        if len(statements) != 1:
            raise TemplateError(
                f"template {name!r} rendered {len(statements)} statements, expected 1"
            )
        return statements[0]

    def count_of(self, query: str) -> str:
        """``SELECT COUNT(*)`` over a query this renderer produced."""
        if self.dialect == TEMPLATE_DIALECT:  # the query is as the template dialect reads it
            return self.render("count_of", query=query)
        return _count_of(query, self.dialect)

    def generate(self, expression: Any) -> str:
        return _generate(expression, self.dialect)


def _invalid(name: str, err: Exception, text: str) -> TemplateError:
    return TemplateError(f"template {name!r} rendered invalid SQL: {err}\n{text}")


def _generate(expression: Any, dialect: str) -> str:
    import sqlglot

    return str(expression.sql(dialect=dialect, unsupported_level=sqlglot.ErrorLevel.RAISE))


# Rendered text repeats (a Mondrian round renders the same statements round after round), and
# parsing plus generating is most of the cost of a statement on small data: cache both.
@lru_cache(maxsize=2048)
def _transpile(text: str, dialect: str) -> tuple[str, ...]:
    """The statements of ``text`` (template dialect) generated in ``dialect``."""
    import sqlglot

    statements = sqlglot.parse(text, read=TEMPLATE_DIALECT)
    return tuple(_generate(s, dialect) for s in statements if s is not None)


@lru_cache(maxsize=2048)
def _split(text: str) -> tuple[str, ...]:
    """The statements of ``text`` as written (cached: a round renders the same text again)."""
    if ";" not in text:
        return (text.strip(),) if text.strip() else ()
    return split_statements(text)


@lru_cache(maxsize=1024)
def _count_of(query: str, dialect: str) -> str:
    import sqlglot
    from sqlglot import exp

    inner: Any = sqlglot.parse_one(query, read=dialect)
    return _generate(exp.select(exp.Count(this=exp.Star())).from_(inner.subquery("v")), dialect)
