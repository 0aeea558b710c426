"""Spark SQL through pyspark (the optional extra ``anonsql[spark]``).

``database:`` in the spec says where Spark runs: ``local[N]`` (in this process, N cores), a
cluster manager's master URL (``spark://host:7077``, ``yarn``, ``k8s://...``) or a Spark Connect
address (``sc://host:15002``); left out, Spark's configured ``spark.master``. Everything else
(catalog, metastore, warehouse, executors) comes from Spark's own configuration
(``spark-defaults.conf`` under ``SPARK_CONF_DIR``), as for any Spark application. Working
tables are managed tables of the session's catalog; Python receives query results only, which
anonsql keeps to aggregates and decisions.

Spark has no transactions and cannot update or delete rows of plain tables, so the engine
declares ``transactional_ddl = False``: releases are published as versioned tables and swapped
in with ``CREATE OR REPLACE VIEW`` (:mod:`anonsql.publish.swap`).
"""

from __future__ import annotations

import functools
import itertools
import re
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from sqlglot import exp

from anonsql import arrow
from anonsql.engines.base import Engine, redact
from anonsql.engines.spark.dialect import DIALECT
from anonsql.engines.types import ColumnInfo
from anonsql.errors import EngineError, SpecError
from anonsql.spec.sources import FILES_SCHEMA, FileSource
from anonsql.sql import TableName

try:  # the driver is an optional extra: without it the engine's class still validates a spec
    # (its settings, its capabilities), and refuses to start a session (require_pyspark)
    from pyspark.errors import PySparkException
    from pyspark.sql import DataFrame, SparkSession
except ImportError:  # pragma: no cover - depends on the installation
    PYSPARK_INSTALLED = False
else:
    PYSPARK_INSTALLED = True


def require_pyspark() -> None:
    """Refuse, with the fix, to start Spark where the optional extra is not installed."""
    if not PYSPARK_INSTALLED:
        raise SpecError(
            "engine",
            "engine 'spark' needs pyspark, which is not installed",
            "install the extra: pip install 'anonsql[spark]' (and Java 17 or newer)",
        )


_views = itertools.count()
#: The catalog listings (:meth:`SparkEngine._listing`): fixed text, the schema a parameter.
_SHOW_SCHEMAS = "SHOW NAMESPACES"
_SHOW_TABLES = "SHOW TABLES IN IDENTIFIER(:schema)"
_SHOW_VIEWS = "SHOW VIEWS IN IDENTIFIER(:schema)"
#: Rows per ``createDataFrame`` when loading an Arrow table.
LOAD_SLICE_ROWS = 1_000_000
#: Up to this many rows, a table reaches a local master through ``createDataFrame`` (one job: the
#: write) rather than a Parquet file (two: the file's schema read, then the write): a run's
#: hierarchy lookup tables, 0.14-0.18 s a load against 0.20-0.21 s (60 rows, warm session).
SMALL_LOAD_ROWS = 10_000

#: Master URLs anonsql accepts (anything else is refused before Spark starts).
_MASTER = re.compile(r"(local(\[(\d+|\*)(,\d+)?\])?|spark://\S+|yarn|k8s://\S+|mesos://\S+)")

#: Settings for an in-process (``local``) session (``conf`` overrides them): no web UI or
#: progress bars, errors only in the log, few shuffle partitions (adaptive execution merges
#: them further), and a 4 GiB heap: in local mode the driver is also the only executor, and
#: Spark's default 1 GiB cannot build the broadcast side of a join on Mondrian's working table
#: at 1e7 rows (its Parquet files are small, so Spark estimates the table small and broadcasts
#: it). The heap is a ceiling; the JVM grows to it only when the data needs it.
_LOCAL_DEFAULTS = {
    "spark.driver.memory": "4g",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.log.level": "ERROR",
    "spark.sql.shuffle.partitions": "4",
    "spark.sql.session.timeZone": "UTC",
}


def check_database(database: str) -> None:
    """Refuse a ``database:`` that is neither a master URL nor a Spark Connect address (empty:
    Spark's configured ``spark.master``)."""
    if not database or database.startswith("sc://") or _MASTER.fullmatch(database):
        return
    raise SpecError(
        "database",
        "not a Spark master URL or Spark Connect address",
        "write e.g. 'local[2]', 'spark://host:7077', 'yarn' or 'sc://host:15002'",
    )


def open_session(database: str, conf: Mapping[str, str] | None = None) -> SparkSession:
    """A Spark session for ``database`` with ``conf`` (see :func:`attach_session`)."""
    return attach_session(database, conf)[0]


def attach_session(
    database: str, conf: Mapping[str, str] | None = None
) -> tuple[SparkSession, bool]:
    """A session for ``database`` and whether anonsql created it (and so must stop it).

    A process that already runs Spark (a notebook, a ``spark-submit`` job) keeps its session:
    anonsql works in a new session of the same application (``newSession()``: the same catalog
    and executors, its own SQL settings and temporary views), which it never stops, so the
    caller's session and its settings are left as they were. A Spark Connect address gets a
    session of its own on the server, which is closed at the end (the server keeps running).
    """
    require_pyspark()
    check_database(database)
    settings = {**(_LOCAL_DEFAULTS if database.startswith("local") else {}), **(conf or {})}
    try:
        if database.startswith("sc://"):
            from pyspark.sql.connect.session import SparkSession as ConnectSession

            # not the builder: it would make this session the process's default one
            remote: Any = ConnectSession(connection=database)
            _set_runtime(remote, conf or {})
            return remote, True
        running = _running_session()
        if running is not None:
            session = running.newSession()
            _set_runtime(session, settings)
            return session, False
        builder: Any = SparkSession.builder.appName("anonsql")
        if database:
            builder = builder.master(database)
        for key, value in settings.items():
            builder = builder.config(key, value)
        created: SparkSession = builder.getOrCreate()
    except SpecError:
        raise
    except Exception as err:  # Java missing, cluster unreachable: Spark's errors vary in type
        raise EngineError(
            f"cannot start Spark for {database}: {type(err).__name__}: {redact(str(err))[:500]}. "
            "Fix: check that Java 17 or newer is installed (java -version) and that the master "
            "or Spark Connect server is reachable"
        ) from None
    return created, True


def _running_session() -> SparkSession | None:
    """The session of the Spark application running in this process, if there is one."""
    from pyspark import SparkContext

    if SparkContext._active_spark_context is None:
        return None
    return SparkSession.getActiveSession() or SparkSession._instantiatedSession


def _set_runtime(session: Any, settings: Mapping[str, str]) -> None:
    """Set the settings a running application accepts; one fixed at its start (memory, master)
    is the application's own and is left as it is."""
    for key, value in settings.items():
        if session.conf.isModifiable(key):
            try:
                session.conf.set(key, value)
            except PySparkException as err:
                raise SpecError(
                    f"engine_settings.{key}",
                    f"Spark refused the value: {' '.join(redact(str(err)).split())[:300]}",
                    "give a value Spark accepts",
                ) from None


def derived_session(
    session: SparkSession, settings: Mapping[str, str | int | float | bool]
) -> SparkSession:
    """A session of the caller's application for anonsql's statements, with the spec's
    runtime settings: a new session (same catalog and executors, its own settings and temporary
    views) on classic Spark; the caller's own on Spark Connect, whose settings are then left as
    they are (they would change the caller's)."""
    if _is_connect(session):
        return session
    derived = session.newSession()
    _set_runtime(derived, {"spark.sql.session.timeZone": "UTC", **spark_conf(settings)})
    return derived


def _is_connect(session: Any) -> bool:
    return type(session).__module__.startswith("pyspark.sql.connect")


def spark_conf(settings: Mapping[str, str | int | float | bool]) -> dict[str, str]:
    """The spec's ``engine_settings`` as Spark configuration (``spark.*`` keys only)."""
    conf: dict[str, str] = {}
    for key, value in settings.items():
        if not key.startswith("spark."):
            raise SpecError(
                f"engine_settings.{key}",
                "not a Spark configuration key",
                "give Spark settings by their full key, e.g. spark.sql.shuffle.partitions: 8",
            )
        conf[key] = str(value).lower() if isinstance(value, bool) else str(value)
    return conf


class SparkEngine(Engine):
    """A Spark SQL session: local, on a cluster, or through Spark Connect."""

    name = "spark"
    templates = Path(__file__).resolve().parent / "templates"
    #: sqlglot's Spark with anonsql's corrections (ordered ARRAY_AGG, row ids)
    dialect = DIALECT
    transactional_ddl = False
    database_is_path = False
    settings_at_open = True
    #: A correlated LATERAL ... ORDER BY ... LIMIT in a recursive CTE's step fails to plan
    #: (Spark rewrites the LIMIT as a row number without the order): eir_l_diversity is refused.
    recursive_lateral_joins = False

    def __init__(
        self,
        database: str = "local[2]",
        *,
        session: SparkSession | None = None,
        conf: Mapping[str, str | int | float | bool] | None = None,
    ) -> None:
        super().__init__()
        self.database = database
        if session is not None:
            self.spark, self._owns_session = session, False
        else:
            self.spark, self._owns_session = attach_session(database, spark_conf(conf or {}))

    @classmethod
    def refused_settings(cls, names: Iterable[str]) -> list[str]:
        return [name for name in names if not name.startswith("spark.")]

    def apply_settings(self, settings: Mapping[str, str | int | float | bool]) -> None:
        """The spec's ``engine_settings`` are Spark configuration keys: given to Spark when
        anonsql starts the session (:func:`attach_session`), and on a session passed in, set
        when Spark accepts them at run time."""
        _set_runtime(self.spark, spark_conf(settings))

    def _wrap(self, err: Exception) -> EngineError:
        text = " ".join(redact(str(err)).split())[:800]
        return EngineError(f"Spark refused a statement: {type(err).__name__}: {text}")

    def _df(self, sql: str) -> DataFrame:
        try:
            return self.spark.sql(sql)
        except PySparkException as err:
            raise self._wrap(err) from err

    def _execute(self, sql: str) -> None:
        try:
            self._df(sql).collect()
        except PySparkException as err:
            raise self._wrap(err) from err

    def _fetchall(self, sql: str) -> list[tuple[Any, ...]]:
        try:
            return [tuple(row) for row in self._df(sql).collect()]
        except PySparkException as err:
            raise self._wrap(err) from err

    def _fetch_arrow(self, sql: str) -> pa.Table:
        try:
            return self._df(sql).toArrow()
        except PySparkException as err:
            raise self._wrap(err) from err

    def _iter_arrow(self, sql: str, batch_rows: int) -> Iterator[pa.RecordBatch]:
        # rows arrive one partition at a time, so the driver holds a partition, not the result
        try:
            df = self._df(sql)
            schema = df.limit(0).toArrow().schema
            rows: list[tuple[Any, ...]] = []
            for row in df.toLocalIterator(prefetchPartitions=False):
                rows.append(tuple(row))
                if len(rows) >= batch_rows:
                    yield _batch(schema, rows)
                    rows = []
            if rows:
                yield _batch(schema, rows)
        except PySparkException as err:
            raise self._wrap(err) from err

    @functools.cached_property
    def _shares_files(self) -> bool:
        """Whether the driver's files are the executors' (a classic session on a local
        master: one machine), so a table can reach Spark as a Parquet file."""
        return not _is_connect(self.spark) and str(self.spark.sparkContext.master).startswith(
            "local"
        )

    def load_arrow(self, target: TableName, data: pa.Table) -> None:
        if (
            self._shares_files
            and data.num_rows > SMALL_LOAD_ROWS
            and all(arrow.plain_scalar(f.type) for f in data.schema)
        ):
            self._load_through_parquet(target, data)
            return
        # in slices: the driver's JVM deserializes each createDataFrame whole, and one table of
        # 1e7 rows exhausts a default 1 GiB heap
        for start in range(0, max(data.num_rows, 1), LOAD_SLICE_ROWS):
            view_name = f"anonsql_arrow_{next(_views)}"
            try:
                self.spark.createDataFrame(
                    data.slice(start, LOAD_SLICE_ROWS)
                ).createOrReplaceTempView(view_name)
            except PySparkException as err:
                raise self._wrap(err) from err
            try:
                template = "create_table_as_select_all" if start == 0 else "insert_select_all"
                self.run(template, target=target, source=TableName(view_name))
            finally:
                self.spark.catalog.dropTempView(view_name)

    def _load_through_parquet(self, target: TableName, data: pa.Table) -> None:
        """On a local master, a Parquet file Spark reads in place of ``createDataFrame``,
        which sends the rows through the Py4J gateway (Mondrian's 885,000 finished vectors
        at 1e7 rows: 3.3-5.9 s against 1.0-1.7 s, BENCHMARKS.md); the file is removed once
        the table holds its rows."""
        with tempfile.TemporaryDirectory(prefix="anonsql-load-") as folder:
            path = Path(folder) / "rows.parquet"
            pq.write_table(data, path)
            self.run(
                "create_table_as_select_all",
                target=target,
                source=TableName(str(path), "parquet"),
            )

    def file_relation(self, source: FileSource) -> TableName:
        """An external table over the files (re-registered each run, so it reads the files as
        they are now; dropping it leaves the files)."""
        target = source.relation
        self.ensure_schema(target.schema or FILES_SCHEMA)
        self.drop(target)
        name = self.qualified(target)
        try:
            if source.format == "csv":
                self.spark.catalog.createTable(
                    name, path=source.path, source="csv", header="true", inferSchema="true"
                )
            else:
                self.spark.catalog.createTable(name, path=source.path, source=source.format)
        except Exception as err:  # a missing path, an unknown format (Delta not installed)
            text = " ".join(redact(str(err)).split())[:300]
            fix = (
                "install Delta Lake (pip install delta-spark) and configure its session extension"
                if source.format == "delta"
                else "check the path and that the files are " + source.format
            )
            raise SpecError(
                "source", f"Spark cannot read the {source.format} files: {text}", fix
            ) from None
        return target

    def qualified(self, relation: TableName) -> str:
        """``relation`` as Spark's Catalog and DataFrame APIs take it (quoted, qualified)."""
        schema = relation.schema or self.current_schema()
        return str(exp.table_(relation.name, db=schema, quoted=True).sql(dialect=self.dialect))

    # The catalog is read through Spark's Catalog API and SHOW commands (Spark SQL has no
    # information_schema).
    def columns(self, relation: TableName) -> list[ColumnInfo] | None:
        if self.relation_kind(relation) is None:
            return None
        try:
            found = self.spark.catalog.listColumns(self.qualified(relation))
        except PySparkException as err:
            raise self._wrap(err) from err
        return [ColumnInfo.of(c.name, c.dataType.upper(), self.dialect) for c in found]

    def relation_kinds(self, relations: Sequence[TableName]) -> dict[TableName, str | None]:
        listed: dict[str, dict[str, str]] = {}
        kinds: dict[TableName, str | None] = {}
        for relation, schema in self.schemas_of(relations).items():
            if schema not in listed:
                listed[schema] = self._relations(schema)
            kinds[relation] = listed[schema].get(relation.name.lower())
        return kinds

    def _relations(self, schema: str) -> dict[str, str]:
        """Name -> 'table' | 'view' of the relations of ``schema`` (temporary views excluded)."""
        if not self.schema_exists(schema):
            return {}
        # the schema is a bound parameter, read as a quoted name by IDENTIFIER
        named = {"schema": str(exp.to_identifier(schema, quoted=True).sql(dialect=self.dialect))}
        tables = self._listing(_SHOW_TABLES, named)
        views = {str(row[1]).lower() for row in self._listing(_SHOW_VIEWS, named) if not row[2]}
        return {
            name: "view" if name in views else "table"
            for name in (str(row[1]).lower() for row in tables if not row[2])
        }

    def schema_exists(self, schema: str) -> bool:
        return schema.lower() in self._schemas()

    def _schemas(self) -> list[str]:
        return [str(row[0]).lower() for row in self._listing(_SHOW_SCHEMAS, {})]

    def _listing(self, statement: str, named: Mapping[str, str]) -> list[tuple[Any, ...]]:
        """A catalog listing by a ``SHOW`` command. Not through the Catalog API: on classic
        Spark its listings come back by ``toLocalIterator``, a job per partition (three to
        eight a listing, about 80 a run), where a command's rows are already in the driver."""
        try:
            return [tuple(row) for row in self.spark.sql(statement, args=dict(named)).collect()]
        except PySparkException as err:
            raise self._wrap(err) from err

    def schemas_starting_with(self, prefix: str) -> list[str]:
        return sorted(s for s in self._schemas() if s.startswith(prefix.lower()))

    def relations_starting_with(self, schema: str, prefix: str) -> list[str]:
        return sorted(n for n in self._relations(schema) if n.startswith(prefix.lower()))

    def current_schema(self) -> str:
        return str(self.fetchall("SELECT current_schema()")[0][0])

    def close(self) -> None:
        # a session anonsql did not create belongs to its caller: stopping it would stop their
        # application (SparkSession.stop stops the SparkContext every session shares)
        if self._owns_session:
            self.spark.stop()


def _batch(schema: pa.Schema, rows: list[tuple[Any, ...]]) -> pa.RecordBatch:
    columns = list(zip(*rows, strict=True))
    return pa.RecordBatch.from_arrays(
        [
            arrow.array(list(col), type=field.type)
            for col, field in zip(columns, schema, strict=True)
        ],
        schema=schema,
    )
