"""The engine interface: how anonsql talks to a database.

An engine owns a connection, runs SQL that the ``sql`` layer rendered for its dialect, moves
small decision tables in as Arrow, fetches aggregates out as Arrow, and reports the catalog.
It contains no algorithm logic. Capabilities are class attributes, not probes.
"""

from __future__ import annotations

import contextlib
import logging
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pyarrow as pa
from typing_extensions import Self

from anonsql.engines.types import ColumnInfo
from anonsql.errors import EngineError, SpecError
from anonsql.spec.sources import FileSource
from anonsql.sql import SqlRenderer, TableName

log = logging.getLogger("anonsql.sql")

_STRING_LITERAL = re.compile(r"'(?:[^']|'')*'")


def redact(sql: str) -> str:
    """Hide string literals (which may be data values) before SQL reaches a log."""
    return _STRING_LITERAL.sub("'…'", sql)


# a number standing alone (not part of an identifier such as q0 or "distinct1")
_NUMBER_LITERAL = re.compile(r"(?<![\w.\"'])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w\"'])")


def redact_values(sql: str) -> str:
    """Hide string *and* numeric literals (split points such as medians are data values):
    what users see of SQL (``-v``, ``--dry-run``)."""
    return _NUMBER_LITERAL.sub("#", redact(sql))


@dataclass
class QueryStats:
    """Counts statements and their time, for benchmarks and the queries-per-round figure."""

    statements: int = 0
    seconds: float = 0.0

    def snapshot(self) -> tuple[int, float]:
        return self.statements, self.seconds


class Engine(ABC):
    """Base class of database engines.

    Subclasses declare ``name`` (the spec's ``engine:`` value) and ``dialect`` (sqlglot's name),
    and implement connection-level primitives. Everything above this layer speaks SQL rendered by
    :class:`~anonsql.sql.SqlRenderer` for ``dialect``.
    """

    name: ClassVar[str]
    dialect: ClassVar[str]
    # -- capabilities, consulted by the code above this layer (never probed) -----------------
    #: Whether DDL (CREATE/DROP/ALTER ... RENAME) is transactional: publishing then swaps a
    #: release in one transaction; otherwise it builds versioned relations and repoints views
    #: (:mod:`anonsql.publish.swap`).
    transactional_ddl: ClassVar[bool] = True
    #: Whether published relations can be granted to roles (``output.grants``).
    supports_grants: ClassVar[bool] = False
    #: The longest identifier the engine keeps, in bytes of UTF-8 (PostgreSQL truncates longer
    #: names silently, so two long names could become one); None when there is no such limit.
    max_identifier_bytes: ClassVar[int | None] = None
    #: Whether the spec's ``database`` is a file path (resolved beside the spec file).
    database_is_path: ClassVar[bool] = True
    #: Whether working tables are created UNLOGGED (skipping the WAL pays off: they are rebuilt
    #: every round and dropped at the end).
    unlogged_tables: ClassVar[bool] = False
    #: Whether views can be marked security barriers, so that no user function runs below a
    #: view's filters and sees the rows they withhold (PostgreSQL's leaky-function attack).
    security_barrier_views: ClassVar[bool] = False
    #: Whether a recursive CTE's step may join a correlated ``LATERAL`` subquery with ``ORDER BY
    #: ... LIMIT`` (the hitting-set search of ``eir_l_diversity``); models that need a
    #: capability list it in ``PrivacyModel.engine_capabilities`` and the engine refuses them.
    recursive_lateral_joins: ClassVar[bool] = True
    #: Whether a join on ``a IS NOT DISTINCT FROM b`` runs as a hash join. PostgreSQL cannot
    #: hash that operator (a nested-loop anti-join in every guarded view); there the guard
    #: compares a typed ``COALESCE`` plus an is-null flag, two hashable equalities that hold
    #: exactly when the values are not distinct.
    hashes_null_safe_joins: ClassVar[bool] = True
    #: Whether a new history's keyed batch (``versions/keyed_batch``) is a view giving every row
    #: ordinal 1, whose key sums (with their distinct count) are read of the history's rows and
    #: held rows once placed (``versions/placed_keys``); only when some hash repeats is the
    #: batch made a keyed copy numbered by a window (``versions/number_repeats``) and the
    #: history written again (VersionedRecordLayout). PostgreSQL's batch was a keyed copy of the
    #: source, numbered by a window that sorted every row, and its key sums then hashed every
    #: source row a second time.
    numbers_repeats_after_sums: ClassVar[bool] = False
    #: Whether the weighted working rows and the recovery measure read one table of the
    #: source's rows counted per distinct combination of the quasi-identifiers, sensitive and
    #: published columns (``prepare/counted_rows``: :class:`~anonsql.sql.CountedRows`) instead
    #: of each grouping every source row. PostgreSQL's two groupings of 1e7 rows took 8.8 and
    #: 10.6 s, ~90 % of it the parallel grouping they share; DuckDB groups faster than it
    #: writes and reads a table.
    counts_source_once: ClassVar[bool] = False

    #: The engine's own SQL templates (``anonsql/engines/<name>/templates/``): those only it runs
    #: and its overrides of shared ones, under the shared templates' names; searched first.
    templates: ClassVar[Path | None] = None

    #: Session settings a spec may set (``engine_settings``): memory, threads, spill folders.
    #: Names outside this set are refused, so a spec cannot reach other settings.
    settings: ClassVar[frozenset[str]] = frozenset()
    #: Whether the engine takes the spec's ``engine_settings`` when it starts (``conf=`` of its
    #: constructor: Spark's memory and executors are fixed when its application starts).
    settings_at_open: ClassVar[bool] = False

    #: Runs alive in this process (each holds its id from start to end).
    _live_runs: ClassVar[set[str]] = set()
    #: Engines of this process talking to their database now (:meth:`running`).
    _running: ClassVar[set[Engine]] = set()

    def __init__(self) -> None:
        kind = "UNLOGGED " if self.unlogged_tables else ""
        self.sql = SqlRenderer(self.dialect, {"working_table": kind}, templates=self.templates)
        self.stats = QueryStats()
        #: Called with every statement before it runs (SQL snapshots, tracing).
        self.listeners: list[Callable[[str], None]] = []
        self._depth = 0
        self._stopping = False
        #: The settings the spec gave this session (:meth:`apply_settings`): an engine's own
        #: defaults for its statements (PostgreSQL's publish transaction) leave them alone.
        self.spec_settings: frozenset[str] = frozenset()

    # -- primitives every engine implements -------------------------------------------------
    @abstractmethod
    def _execute(self, sql: str) -> None: ...

    @abstractmethod
    def _fetch_arrow(self, sql: str) -> pa.Table: ...

    @abstractmethod
    def _fetchall(self, sql: str) -> list[tuple[Any, ...]]: ...

    @abstractmethod
    def _iter_arrow(self, sql: str, batch_rows: int) -> Iterator[pa.RecordBatch]:
        """The result in record batches of at most ``batch_rows`` rows, read as consumed."""

    @abstractmethod
    def load_arrow(self, target: TableName, data: pa.Table) -> None:
        """Create table ``target`` holding ``data`` (replacing nothing: it must not exist)."""

    @abstractmethod
    def columns(self, relation: TableName) -> list[ColumnInfo] | None:
        """Columns of a table or view in catalog order, or None if it does not exist."""

    @abstractmethod
    def close(self) -> None: ...

    # -- interrupts (anonsql.interrupts) -------------------------------------------------------
    def interrupt(self) -> None:
        """Ask the database to stop the statement running on this connection, which then fails;
        called from a signal handler. By default nothing: the statement runs to its end."""

    @contextmanager
    def running(self) -> Iterator[None]:
        """Mark this engine as talking to its database: a signal then stops the statement
        (:meth:`interrupt_running`) instead of raising inside the driver, and the block raises
        ``KeyboardInterrupt`` when it ends, whether the statement failed or returned."""
        self._depth += 1
        Engine._running.add(self)
        try:
            yield
        except BaseException:
            if self._leave():
                raise KeyboardInterrupt from None
            raise
        if self._leave():
            raise KeyboardInterrupt

    def _leave(self) -> bool:
        """Leave a :meth:`running` block; whether it must end in ``KeyboardInterrupt``."""
        self._depth -= 1
        if not self._depth:
            Engine._running.discard(self)
        stopping, self._stopping = self._stopping, False
        return stopping

    @classmethod
    def interrupt_running(cls) -> bool:
        """Interrupt every engine of this process that is running a statement (a signal
        handler's work); whether there was one."""
        engines = list(cls._running)
        for engine in engines:
            engine._stopping = True
            with contextlib.suppress(Exception):
                engine.interrupt()
        return bool(engines)

    # -- shared behaviour ---------------------------------------------------------------------
    def _timed(self, sql: str) -> float:
        self.stats.statements += 1
        self.notify(sql)
        return time.perf_counter()

    def notify(self, sql: str) -> None:
        """Tell listeners (and the debug log, redacted) about a statement."""
        if log.isEnabledFor(logging.DEBUG):
            log.debug("%s", redact(sql))
        for listener in self.listeners:
            listener(sql)

    def execute(self, sql: str) -> None:
        start = self._timed(sql)
        try:
            with self.running():
                self._execute(sql)
        finally:
            self.stats.seconds += time.perf_counter() - start

    def fetch_arrow(self, sql: str) -> pa.Table:
        start = self._timed(sql)
        try:
            with self.running():
                return self._fetch_arrow(sql)
        finally:
            self.stats.seconds += time.perf_counter() - start

    def iter_arrow(self, sql: str, batch_rows: int = 1 << 16) -> Iterator[pa.RecordBatch]:
        """Stream a result in Arrow batches, so Python holds one batch at a time. Run no other
        statement on this engine until the iteration ends."""
        start = self._timed(sql)
        batches = self._iter_arrow(sql, batch_rows)
        try:
            while True:
                # only fetching counts as running: the caller's work on a batch is its own
                with self.running():
                    batch = next(batches, None)
                if batch is None:
                    return
                yield batch
        finally:
            if isinstance(batches, Generator):
                with self.running():
                    batches.close()
            self.stats.seconds += time.perf_counter() - start

    def fetchall(self, sql: str) -> list[tuple[Any, ...]]:
        start = self._timed(sql)
        try:
            with self.running():
                return self._fetchall(sql)
        finally:
            self.stats.seconds += time.perf_counter() - start

    def run(self, template: str, /, **params: Any) -> None:
        """Render a template (possibly several statements) and execute it."""
        for statement in self.sql.render_many(template, **params):
            self.execute(statement)

    def query(self, template: str, /, **params: Any) -> list[tuple[Any, ...]]:
        return self.fetchall(self.sql.render(template, **params))

    def query_arrow(self, template: str, /, **params: Any) -> pa.Table:
        return self.fetch_arrow(self.sql.render(template, **params))

    def query_batches(
        self, template: str, /, batch_rows: int = 1 << 16, **params: Any
    ) -> Iterator[pa.RecordBatch]:
        return self.iter_arrow(self.sql.render(template, **params), batch_rows)

    def exists(self, relation: TableName) -> bool:
        return self.columns(relation) is not None

    def analyze(self, relation: TableName) -> None:
        """Refresh the planner's statistics of a table just built (a no-op where not needed)."""

    def role_exists(self, role: str) -> bool:
        """Whether a database role exists (engines without roles have none)."""
        return False

    @abstractmethod
    def current_schema(self) -> str:
        """The schema unqualified names resolve to."""

    def relation_kind(self, relation: TableName) -> str | None:
        """``'view'``, ``'table'``, or None if nothing by that name exists."""
        return self.relation_kinds([relation])[relation]

    def relation_kinds(self, relations: Sequence[TableName]) -> dict[TableName, str | None]:
        """:meth:`relation_kind` of each relation, from one catalog query."""
        schemas = self.schemas_of(relations)
        by_schema: dict[str, list[str]] = {}
        for relation, schema in schemas.items():
            by_schema.setdefault(schema, []).append(relation.name)
        found: dict[tuple[str, str], str] = {}
        if by_schema:
            for schema, name, kind in self.query("relation_kinds", wanted=list(by_schema.items())):
                found[(str(schema), str(name))] = "view" if "VIEW" in str(kind).upper() else "table"
        return {r: found.get((schema, r.name)) for r, schema in schemas.items()}

    def schemas_of(self, relations: Sequence[TableName]) -> dict[TableName, str]:
        """Each relation's schema, the current one for unqualified names (asked once)."""
        current: list[str] = []
        out: dict[TableName, str] = {}
        for relation in relations:
            if relation.schema is None and not current:
                current.append(self.current_schema())
            out[relation] = relation.schema or current[0]
        return out

    def drop_any(self, relation: TableName) -> None:
        """Drop a table or view if it exists, whichever it is."""
        self.drop_existing([relation])

    def drop_existing(self, relations: Sequence[TableName]) -> None:
        """Drop what exists of ``relations``: the views first, then the tables, each in the
        given order (dependents first), with one catalog query for all of them."""
        kinds = self.relation_kinds(relations)
        for relation in sorted(relations, key=lambda r: kinds[r] != "view"):
            if kinds[relation] is not None:
                self.drop(relation, view=kinds[relation] == "view")

    def count_rows(self, relation: TableName) -> int:
        return int(self.query("count_rows", relation=relation)[0][0])

    def count_query_rows(self, query: str) -> int:
        """Rows a query returns, counted in the engine."""
        return int(self.fetchall(self.sql.count_of(query))[0][0])

    def drop(self, relation: TableName, *, view: bool = False) -> None:
        self.run("drop_relation", relation=relation, kind="VIEW" if view else "TABLE")

    @classmethod
    def refused_settings(cls, names: Iterable[str]) -> list[str]:
        """The names among ``names`` a spec's ``engine_settings`` may not set on this engine."""
        return [name for name in names if name not in cls.settings]

    def apply_settings(self, settings: Mapping[str, str | int | float | bool]) -> None:
        """Set the spec's ``engine_settings`` on this session (DuckDB's ``memory_limit`` and
        ``temp_directory`` let a table larger than memory be processed out of core)."""
        for name, value in settings.items():
            if name not in self.settings:
                raise SpecError(
                    f"engine_settings.{name}",
                    f"{self.name} has no setting anonsql may set by that name",
                    f"use one of {', '.join(sorted(self.settings)) or '(none)'}",
                )
            try:
                self.run("set_setting", name=name, value=value)
                self.spec_settings |= {name}
            except EngineError as err:
                raise SpecError(
                    f"engine_settings.{name}",
                    f"{self.name} refused the value ({err})",
                    "give a value the engine accepts",
                ) from None

    @contextmanager
    def run_settings(self) -> Iterator[None]:
        """Session settings for the length of one run, set back when it ends (an engine's
        planner settings for its own statements; none by default)."""
        yield

    @contextmanager
    def writing_every_row(self) -> Iterator[None]:
        """Around a statement that writes a table of every source row (a new history, a
        frozen copy of it): the engine's settings for a write that one process does (none by
        default; PostgreSQL's, :meth:`PostgresEngine.writing_every_row`)."""
        yield

    @contextmanager
    def serial(self) -> Iterator[None]:
        """Around a statement that groups rows into nearly as many groups (the working rows
        summed from the counted rows): the engine's settings for running it in one process
        (none by default; PostgreSQL's, :meth:`PostgresEngine.serial`)."""
        yield

    def scratch(self, target: TableName, data: pa.Table) -> TableName:
        """A small table the next statements of a run read (a round's decisions), replacing the
        previous one of that name; returns the name to read it by. By default it is (re)created
        as ``target``; an engine that can scan Arrow data in place returns another name and
        writes nothing (DuckDB: no catalog change and no commit per round). Nothing published
        may refer to it: it lives until the run ends. It counts as one statement on every
        engine, however many it takes, so that statement counts compare across engines."""
        before = self.stats.statements
        self.drop(target)
        self.load_arrow(target, data)
        self.stats.statements = before + 1
        return target

    def create_guarded(self, target: TableName, released: TableName, **params: Any) -> None:
        """Create ``target``, what analysts query of a live release: the rows of the
        ``publish/guarded_rows`` template over ``released`` (rendered with ``params``), as a
        view. An engine whose planner would evaluate an analyst's filters on rows below the
        guard, and report what they matched, fences the rows first (PostgreSQL)."""
        self.run("publish/guarded", target=target, released=released, **params)

    def create_schema(self, schema: str) -> None:
        self.run("create_schema", schema=schema)

    def file_relation(self, source: FileSource) -> TableName:
        """Register the files of a path source (``source: parquet:/data/visits``) as a
        relation and return its name; the files are only read."""
        raise SpecError(
            "source",
            f"the {self.name} engine does not read files named by path",
            "load the files into a table and name the table, or use engine duckdb or spark",
        )

    def ensure_schema(self, schema: str) -> None:
        """Create ``schema`` if it is missing, outside any transaction. Another session may be
        creating it at the same moment (PostgreSQL's IF NOT EXISTS then fails on the catalog's
        unique index): that is fine as long as the schema exists afterwards."""
        if self.schema_exists(schema):
            return
        try:
            self.create_schema(schema)
        except EngineError:
            if not self.schema_exists(schema):
                raise

    # -- a run's working schema ----------------------------------------------------------------
    def create_work_schema(self, schema: str) -> None:
        """Create a run's working schema (its tables hold the rows' coded values)."""
        self.create_schema(schema)

    def drop_work_schema(self, schema: str) -> None:
        """Drop a run's working schema and every table of it."""
        self.run("drop_schema", schema=schema)

    def scratch_view(self, work: TableName) -> tuple[TableName, str]:
        """Where a run's view over user relations named ``work`` goes, and the prefix its
        CREATE takes: here, where it is named (DuckDB: a temporary view, which binds the
        source's names as the run does)."""
        return work, ""

    def transaction_work(self, work: TableName) -> tuple[TableName, str]:
        """Where the working table ``work`` goes when it is written inside the publish
        transaction, and the ``working_table`` prefix its CREATE takes: here, where it is
        named. (DuckDB keeps working tables in a database of their own, which a transaction
        that writes the release cannot also write.)"""
        return work, str(self.sql.defaults["working_table"])

    def schema_exists(self, schema: str) -> bool:
        return int(self.query("schema_exists", schema=schema)[0][0]) > 0

    def schemas_starting_with(self, prefix: str) -> list[str]:
        """Names of the schemas whose names start with ``prefix``, sorted."""
        return [str(row[0]) for row in self.query("work_schemas", prefix=prefix)]

    def relations_starting_with(self, schema: str, prefix: str) -> list[str]:
        """Names of the tables and views of ``schema`` starting with ``prefix``, sorted."""
        return [str(row[0]) for row in self.query("publish/versions", schema=schema, prefix=prefix)]

    # -- runs: which working schemas belong to a live run ---------------------------------------
    def hold_run(self, run_id: str) -> None:
        """Mark a run alive until :meth:`release_run` (or until its process dies)."""
        Engine._live_runs.add(run_id)

    def release_run(self, run_id: str) -> None:
        Engine._live_runs.discard(run_id)

    def run_is_alive(self, run_id: str) -> bool:
        """Whether the run owning a working schema still runs. An embedded database is written
        by one process at a time, so there a run is alive only if this process holds it;
        engines with sessions also ask the database (a killed run's session is gone)."""
        return run_id in Engine._live_runs

    @contextmanager
    def transaction(self) -> Iterator[None]:
        self.execute("BEGIN")
        try:
            yield
        except BaseException:
            # the original error matters more than a failed rollback (an interrupted engine
            # may already have aborted the transaction itself)
            with contextlib.suppress(Exception):
                self.execute("ROLLBACK")
            raise
        else:
            self.execute("COMMIT")

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
