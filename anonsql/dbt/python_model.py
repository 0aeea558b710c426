"""Anonymized models on dbt-duckdb: a dbt Python model that publishes through anonsql.

dbt hands a Python model only the ``ref()``/``source()`` calls and config keys that its own
code names (it reads them from the file's syntax tree), so the model file names both::

    # models/patients_anon.py
    import anonsql.dbt

    def model(dbt, session):
        return anonsql.dbt.model(dbt, session, dbt.ref("patients"), dbt.config.get("anonsql"))

and the spec (every key of an anonsql spec but ``engine``, ``database``, ``source`` and
``join``) sits in the model's YAML config under ``anonsql:``. The release is published by the
normal path (resolve ... certify, one transaction) on dbt's own DuckDB connection, under
``output`` (default: ``<model schema>_anonsql.<model name>``, ``materialize: table``, so the
model is a copy of exactly the rows that were verified; the companions holding original values
go to the release's private schema, ``<model schema>_anonsql_private`` unless
``output.private_schema`` names one), and the model returns it: dbt writes
it as the model's table, with lineage from the ``ref()``/``source()`` in dbt's graph and from
the source in anonsql's certificate. Each build re-publishes the release (same data, spec and
seed give the same rows) and replaces the table.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

import duckdb
import sqlglot
from sqlglot import exp

from anonsql import api
from anonsql.engines import DuckDBEngine
from anonsql.errors import SpecError
from anonsql.measure.exposure import linked_exposure
from anonsql.report import RunResult
from anonsql.spec.relations import parse_relation
from anonsql.sql import TableName
from anonsql.sql.quoting import TEMPLATE_DIALECT

#: The model config key holding the spec.
CONFIG_KEY = "anonsql"
#: The release goes to ``<model schema><suffix>`` unless the spec names an output schema (the
#: package's ``certified`` test looks there too).
RELEASE_SCHEMA_SUFFIX = "_anonsql"
#: Spec keys the model takes from dbt instead of the config.
FROM_DBT = ("engine", "database", "source", "join")

#: Where the model logs what the release exposes beyond its models (one warning a line: an
#: acknowledged linked column, record-level counting over repeated persons); dbt shows it.
log = logging.getLogger("anonsql.dbt")


def _key(name: str) -> str:
    return f"config.{CONFIG_KEY}.{name}"


def duckdb_connection(session: Any) -> duckdb.DuckDBPyConnection:
    """The DuckDB connection under dbt-duckdb's ``session``.

    dbt-duckdb passes its cursor wrapped in a class that turns DuckDB errors into dbt's; the
    wrapped cursor is its (undocumented) ``_cursor``. anonsql runs on the cursor itself, on
    the same connection and transaction state as dbt.
    """
    if isinstance(session, duckdb.DuckDBPyConnection):
        return session
    inner = getattr(session, "_cursor", None)
    if isinstance(inner, duckdb.DuckDBPyConnection):
        return inner
    raise SpecError(
        "session",
        f"expected dbt-duckdb's session (a DuckDB cursor), got a {type(session).__name__}",
        "call anonsql.dbt.model(dbt, session, ...) from a dbt-duckdb Python model; other "
        "adapters use `anonsql run SPEC --dbt-project DIR`",
    )


def relation_name(relation: Any, current_database: str) -> TableName:
    """The table behind what ``dbt.ref()``/``dbt.source()`` returned.

    dbt-duckdb returns ``session.query("select * from <relation>")``; its query text (DuckDB's
    documented ``sql_query()``) is parsed back to the relation's name. A name string or
    anything with ``schema`` and ``identifier`` (a dbt Relation) is taken as it is.
    """
    if isinstance(relation, str):
        return parse_relation(relation, _key("source"))
    if isinstance(relation, duckdb.DuckDBPyRelation):
        try:
            query = sqlglot.parse_one(relation.sql_query(), read=TEMPLATE_DIALECT)
        except sqlglot.errors.SqlglotError:
            query = None
        table = _plain_table(query)
        if table is None:
            raise SpecError(
                "source",
                "the relation is not a plain table or view read by dbt.ref() or dbt.source()",
                "pass what dbt.ref()/dbt.source() returned, unchanged (filter in an upstream "
                "model instead)",
            )
        catalog, schema, name = table.catalog, table.db, table.name
    elif hasattr(relation, "schema") and hasattr(relation, "identifier"):
        catalog = getattr(relation, "database", None) or ""
        schema, name = str(relation.schema), str(relation.identifier)
    else:
        raise SpecError(
            "source",
            f"cannot read a table name from a {type(relation).__name__}",
            "pass what dbt.ref()/dbt.source() returned",
        )
    if catalog and catalog != current_database:
        raise SpecError(
            "source",
            f"the relation is in the attached database {catalog!r}, not in {current_database!r}",
            "anonymize tables of the database dbt writes to (copy it there in an upstream model)",
        )
    return TableName(name, schema or None)


def empty_build() -> bool:
    """Whether dbt runs ``build --empty``. dbt 1.11 does not limit a Python model's refs then;
    dbt-duckdb runs the model in dbt's own process, so dbt's invocation flags tell."""
    try:
        from dbt.flags import get_flags
    except ImportError:
        return False
    flags: Any = get_flags()  # type: ignore[no-untyped-call]  # dbt's, untyped
    return getattr(flags, "EMPTY", False) is True


def empty_source(relation: Any) -> TableName | None:
    """The table read by what ``dbt.ref()``/``dbt.source()`` returned under ``dbt build
    --empty`` (dbt wraps it as ``(SELECT * FROM t WHERE FALSE LIMIT 0) AS _dbt_limit_subq_t``),
    else None."""
    if not isinstance(relation, duckdb.DuckDBPyRelation):
        return None
    try:
        query = sqlglot.parse_one(relation.sql_query(), read=TEMPLATE_DIALECT)
    except sqlglot.errors.SqlglotError:
        return None
    if not isinstance(query, exp.Select):
        return None
    source = query.args.get("from_") or query.args.get("from")
    inner = source.this if source is not None else None
    if not isinstance(inner, exp.Subquery) or not isinstance(inner.this, exp.Select):
        return None
    select = inner.this
    limit, where = select.args.get("limit"), select.args.get("where")
    if limit is None or where is None or limit.expression.sql() != "0":
        return None
    if not isinstance(where.this, exp.Boolean) or where.this.this:
        return None
    unlimited = select.copy()
    unlimited.set("limit", None)
    unlimited.set("where", None)
    table = _plain_table(unlimited)
    return TableName(table.name, table.db or None) if table is not None else None


def _plain_table(query: object) -> exp.Table | None:
    if not isinstance(query, exp.Select) or len(query.expressions) != 1:
        return None
    if not isinstance(query.expressions[0], exp.Star):
        return None
    if any(query.args.get(k) for k in ("where", "joins", "group", "having", "limit", "order")):
        return None
    source = query.args.get("from_") or query.args.get("from")
    table = source.this if source is not None else None
    return table if isinstance(table, exp.Table) and table.name else None


def model_spec(
    config: Mapping[str, Any] | None,
    source: TableName,
    this: TableName,
    materialize: str | None = "table",
) -> dict[str, Any]:
    """The anonsql spec of a dbt model: its ``anonsql`` config, the source dbt resolved, and
    an output that defaults to ``<model schema>_anonsql.<model name>``, as ``materialize``
    (a table for the Python model, which copies it; anonsql's default when None)."""
    if not isinstance(config, Mapping):
        raise SpecError(
            f"config.{CONFIG_KEY}",
            "the model has no anonsql spec in its config (or its code does not read it)",
            f"put the spec under config: {CONFIG_KEY}: in the model's YAML, and pass "
            f'dbt.config.get("{CONFIG_KEY}") to anonsql.dbt.model (dbt gives a Python model only '
            "the config keys its code names)",
        )
    for name in FROM_DBT:
        if name in config:
            raise SpecError(
                _key(name),
                "dbt provides this: the connection is dbt's and the source is the relation "
                "passed to anonsql.dbt.model",
                f"remove {name} (for joins, join in an upstream SQL model and ref() it)",
            )
    spec = {k: v for k, v in config.items()}
    output = spec.get("output") or {}
    if not isinstance(output, Mapping):
        raise SpecError(_key("output"), "not a mapping", "write output: {schema: ..., name: ...}")
    assert this.schema is not None
    release: dict[str, Any] = {"schema": this.schema + RELEASE_SCHEMA_SUFFIX, "name": this.name}
    if materialize is not None:
        release["materialize"] = materialize
    release.update(output)
    if TableName(str(release["name"]), str(release["schema"])) == this:
        raise SpecError(
            _key("output"),
            "the release would replace the dbt model itself",
            "publish it elsewhere (leave output out for the default "
            f"<schema>{RELEASE_SCHEMA_SUFFIX}.<model>)",
        )
    spec["output"] = release
    spec["source"] = source.sql()
    return spec


def model(
    dbt: Any,
    session: Any,
    source: Any,
    spec: Mapping[str, Any] | None = None,
) -> duckdb.DuckDBPyRelation:
    """Anonymize ``source`` (what ``dbt.ref()``/``dbt.source()`` returned) as declared in
    ``spec`` (the model's ``anonsql`` config), publish the verified release on dbt's
    connection, and return it for dbt to write as the model.

    Privacy models, algorithms and guarantees are anonsql's (k-anonymity after Sweeney 2002,
    Mondrian after LeFevre et al. 2006, ...; see docs/dbt.md). Raises an
    :class:`~anonsql.errors.AnonsqlError` (which fails the model) on a bad spec, infeasible
    models or failed verification; the previous release and model are then left as they were.
    """
    connection = duckdb_connection(session)
    engine = DuckDBEngine(connection=connection)
    current = str(engine.fetchall("SELECT current_database()")[0][0])
    this = dbt.this
    if getattr(this, "database", current) not in ("", current):
        raise SpecError(
            "model",
            f"the model is written to the attached database {this.database!r}",
            "build anonymized models in the database dbt connects to",
        )
    target = TableName(str(this.identifier), str(this.schema))
    empty = empty_source(source)
    if empty is not None or empty_build():
        table = empty or relation_name(source, current)
        return _empty_model(connection, engine, model_spec(spec, table, target), table)
    declared = model_spec(spec, relation_name(source, current), target)
    result = api.run(declared, engine=engine)
    log.warning("%s: %s", result.names.main, findings(result))
    for warning in result.warnings():
        log.warning("%s: %s", result.names.main, warning)
    return connection.sql(engine.sql.render("select_all", relation=result.names.main))


def findings(result: RunResult) -> str:
    """A release's certificate in one line, as the ``anonsql`` materialization's log line
    (``anonsql_dbt.findings``) writes it: verdict and models, NCP, suppression, the columns
    whose exposure the spec acknowledged."""
    c = result.certificate
    shown = []
    for entry in json.loads(c.get("models") or "[]"):
        for name, parameters in entry.items():
            args = ", ".join(f"{k}={v}" for k, v in sorted((parameters or {}).items()))
            shown.append(f"{name}({args})")
    acknowledged = sorted(a.column for a in linked_exposure(c).acknowledged)
    verdict = "verified" if c["verified"] else "NOT VERIFIED"
    return (
        f"anonsql: {verdict} {', '.join(shown)}; NCP {float(c['ncp_percent']):.2f} %; "
        f"suppressed {c['suppressed_rows']} of {c['source_rows']} rows; exposure "
        f"acknowledged: {', '.join(acknowledged) or 'none'}"
    )


def _empty_model(
    connection: duckdb.DuckDBPyConnection,
    engine: DuckDBEngine,
    spec: Mapping[str, Any],
    source: TableName,
) -> duckdb.DuckDBPyRelation:
    """``dbt build --empty``: nothing published; the model gets the columns of its release,
    no rows (without a release yet: the spec's published columns, quasi-identifiers as text,
    as anonsql publishes them)."""
    output = spec["output"]
    release = TableName(str(output["name"]), str(output["schema"]))
    log.warning("%s: dbt --empty reads no rows: nothing published", release)
    if engine.columns(release) is not None:
        return connection.sql(engine.sql.render("select_all", relation=release)).limit(0)
    declared = spec.get("columns") or {}
    published = []
    # in the source's order, as anonsql publishes them
    for name in [c.name for c in engine.columns(source) or [] if c.name in declared]:
        column = declared[name]
        role = column.get("role") if isinstance(column, Mapping) else None
        if role == "identifier":
            continue
        # an expression object, never SQL text: the name is taken as it is
        expression = duckdb.ColumnExpression(str(name))
        qid = role == "quasi_identifier"
        published.append(
            expression.cast(duckdb.sqltypes.VARCHAR).alias(str(name)) if qid else expression
        )
    empty = connection.sql(engine.sql.render("select_all", relation=source)).limit(0)
    return empty.select(*published) if published else empty
