"""PostgreSQL through psycopg 3.

The connection comes from a DSN (``database:`` in the spec, e.g. ``host=127.0.0.1 dbname=dw``
or ``postgresql://user@host/db``) completed by the usual ``PG*`` environment variables. A
password is never accepted in the spec: use ``PGPASSWORD`` or ``~/.pgpass``.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

import pyarrow as pa

from anonsql import arrow
from anonsql.engines.base import Engine, redact
from anonsql.engines.types import ColumnInfo
from anonsql.errors import EngineError, SpecError
from anonsql.sql import TableName

try:
    import psycopg
    from psycopg import conninfo as pg_conninfo
except ImportError:  # the core install runs on DuckDB only
    raise SpecError(
        "engine",
        "the postgres engine needs the psycopg driver, which is not installed",
        "pip install 'anonsql[postgres]'",
    ) from None

_cursors = itertools.count()

# result column type OIDs -> Arrow types (everything else is inferred from the values)
_ARROW_BY_OID: dict[int, pa.DataType] = {
    16: pa.bool_(),
    20: pa.int64(),
    21: pa.int16(),
    23: pa.int32(),
    700: pa.float32(),
    701: pa.float64(),
    25: pa.string(),
    1043: pa.string(),
}


@lru_cache(maxsize=256)
def _copy_statements(query: str) -> tuple[str, str] | None:
    """The query's columns without its rows, and its rows as CSV through ``COPY``, every value
    but NULL quoted (so an empty text is told from a NULL); None for a query sqlglot does not
    read (it is then fetched as tuples)."""
    import sqlglot
    from sqlglot import exp

    try:
        inner: Any = sqlglot.parse_one(query, read="postgres")
    except sqlglot.errors.SqlglotError:
        return None
    columns = exp.select("*").from_(inner.subquery("q")).limit(0)
    copy = exp.Copy(
        this=inner.subquery(),
        kind=False,
        files=[exp.to_identifier("STDOUT")],
        params=[
            exp.CopyParameter(this=exp.var("FORMAT"), expression=exp.var("csv")),
            exp.CopyParameter(this=exp.var("FORCE_QUOTE"), expression=exp.Star()),
        ],
    )
    return columns.sql("postgres"), copy.sql("postgres")


def _csv_carries(description: Sequence[Any]) -> bool:
    """Whether CSV carries every column exactly (booleans, integers, floats in PostgreSQL's
    shortest exact form, text) and the names are distinct."""
    names = [c.name for c in description]
    return len(set(names)) == len(names) and all(c.type_code in _ARROW_BY_OID for c in description)


def _csv_table(description: Sequence[Any], data: bytes) -> pa.Table:
    import pyarrow.csv as pa_csv

    types = {c.name: _ARROW_BY_OID[c.type_code] for c in description}
    if not data:
        return arrow.table({name: arrow.array([], type=t) for name, t in types.items()})
    return pa_csv.read_csv(
        pa.py_buffer(data),
        read_options=pa_csv.ReadOptions(column_names=list(types)),
        parse_options=pa_csv.ParseOptions(newlines_in_values=True),
        convert_options=pa_csv.ConvertOptions(
            column_types=types,
            # every value is quoted but NULL, which is an empty unquoted field
            null_values=[""],
            strings_can_be_null=True,
            quoted_strings_can_be_null=False,
            true_values=["t"],
            false_values=["f"],
        ),
    )


def _csv_rows(batch: pa.RecordBatch) -> bytes:
    import pyarrow.csv as pa_csv

    sink = pa.BufferOutputStream()
    pa_csv.write_csv(batch, sink, write_options=pa_csv.WriteOptions(include_header=False))
    return bytes(sink.getvalue())


def sql_type(arrow_type: pa.DataType) -> str:
    """The column type (in the templates' dialect) that holds an Arrow type."""
    if pa.types.is_boolean(arrow_type):
        return "BOOLEAN"
    if pa.types.is_int8(arrow_type) or pa.types.is_int16(arrow_type):
        return "SMALLINT"
    if pa.types.is_int32(arrow_type):
        return "INTEGER"
    if pa.types.is_integer(arrow_type):
        return "BIGINT"
    if pa.types.is_float32(arrow_type):
        return "REAL"
    if pa.types.is_floating(arrow_type):
        return "DOUBLE"
    if pa.types.is_decimal(arrow_type):
        return f"DECIMAL({arrow_type.precision}, {arrow_type.scale})"
    if pa.types.is_date(arrow_type):
        return "DATE"
    if pa.types.is_timestamp(arrow_type):
        return "TIMESTAMP"
    return "VARCHAR"


def _arrow_table(description: Sequence[Any], rows: Sequence[tuple[Any, ...]]) -> pa.Table:
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in description]
    arrays = {}
    for column, values in zip(description, columns, strict=True):
        arrow_type = _ARROW_BY_OID.get(column.type_code)
        if arrow_type is None and not values:
            arrow_type = pa.float64() if column.type_code == 1700 else pa.string()
        arrays[column.name] = arrow.array(list(values), type=arrow_type)
    return arrow.table(arrays)


#: The high bits of anonsql's advisory lock keys, so they do not meet other applications' locks.
_LOCK_NAMESPACE = 0x616E << 48


def _run_lock_key(run_id: str) -> int:
    """A run's advisory lock key (run ids are 12 hex digits: 48 bits)."""
    return _LOCK_NAMESPACE | int(run_id, 16)


def check_dsn(dsn: str) -> None:
    try:
        parts = pg_conninfo.conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        raise SpecError(
            "database",
            "not a valid PostgreSQL connection string",
            "write e.g. 'host=127.0.0.1 port=5432 dbname=warehouse user=me'",
        ) from None
    if parts.get("password"):
        raise SpecError(
            "database",
            "the connection string contains a password",
            "remove it and use PGPASSWORD or ~/.pgpass",
        )


class PostgresEngine(Engine):
    """A PostgreSQL database (15 or newer) reached through psycopg 3."""

    name = "postgres"
    templates = Path(__file__).resolve().parent / "templates"
    dialect = "postgres"
    settings = frozenset(
        {"work_mem", "maintenance_work_mem", "temp_buffers", "max_parallel_workers_per_gather"}
    )
    supports_grants = True
    max_identifier_bytes = 63  # NAMEDATALEN - 1
    database_is_path = False
    unlogged_tables = True
    security_barrier_views = True
    hashes_null_safe_joins = False
    numbers_repeats_after_sums = True
    counts_source_once = True

    def __init__(
        self, database: str = "", *, connection: psycopg.Connection[Any] | None = None
    ) -> None:
        super().__init__()
        self.database = database
        self._owns_connection = connection is None
        if connection is None:
            check_dsn(database)
            try:
                connection = psycopg.connect(database, autocommit=True)
            except psycopg.OperationalError as err:
                raise EngineError(f"cannot connect to PostgreSQL: {redact(str(err))}") from None
        self.con = connection

    #: Planner settings of anonsql's own publish transaction (``SET LOCAL``: the session, and
    #: every query analysts run on the release, keep theirs). The released view joins the
    #: source to the recoding map on every quasi-identifier; PostgreSQL's hash-join estimate
    #: takes the most selective key alone, so on low-cardinality keys it sorts both sides for a
    #: merge join instead, and JIT then compiles for the misestimated cost. What the two
    #: settings save: BENCHMARKS.md "Spark at scale (local[2]) beside DuckDB and PostgreSQL".
    #: No nested loops either (its joins are over tables without indexes; with no statistics
    #: for a CTE's columns PostgreSQL estimates one row after a few joins and loops over every
    #: row), and groupings hashed in memory rather than sorted on disk at the default 4 MB:
    #: at 1e7 rows the release's grouping by its nine columns (``publish/refined``, ~380,000
    #: groups) took 19.6 s sorted on disk at 64 MB, 10.5 s hashed at 128 MB and 9.1 s at
    #: 256 MB. A setting the spec gives (``engine_settings``, e.g. a smaller ``work_mem`` on
    #: a busy server) is the spec's: it is not set again here.
    transaction_settings: ClassVar[tuple[tuple[str, str], ...]] = (
        ("enable_mergejoin", "off"),
        ("enable_nestloop", "off"),
        ("work_mem", "256MB"),
        ("jit", "off"),
    )

    #: Settings of the session for the length of a run (set back to the session's own values
    #: when it ends): the statements outside the publish transaction (the keyed batch, the
    #: working rows, the repeated-row counts, the linked columns' screens) group, sort and hash
    #: every source row. At the default 4 MB those sorts spilled to disk; JIT compiled for
    #: misestimated costs; and PostgreSQL priced gathering a row from a parallel worker above
    #: computing its row hash, so the batch's copy hashed 1e7 rows in one process (16.6 s
    #: against 11.3 s with the workers). No nested loops and no merge joins either, as in the
    #: publish transaction: the working rows join the source's distinct combinations to the
    #: leaf tables, estimated at one row after a few joins (the combinations have no
    #: statistics), and looped over each leaf table per combination (3.2 s against 1.4 s at
    #: 1e6). The tables a run builds are analyzed with a sample of 3,000 rows
    #: (``default_statistics_target`` 10, against 30,000): the planner needs their sizes and
    #: rough distinct counts, and the six ANALYZEs of a 1e6 run took 0.80 s against 0.11 s.
    #: Figures: BENCHMARKS.md, "PostgreSQL's run settings".
    run_session_settings: ClassVar[tuple[tuple[str, str], ...]] = (
        *transaction_settings,
        ("parallel_tuple_cost", "0"),
        ("default_statistics_target", "10"),
    )

    @contextmanager
    def run_settings(self) -> Iterator[None]:
        own = [(n, v) for n, v in self.run_session_settings if n not in self.spec_settings]
        current = "settings/current"
        before = [(n, str(self._fetchall(self.sql.render(current, name=n))[0][0])) for n, _ in own]
        for name, value in own:
            self._housekeeping(self.sql.render("set_setting", name=name, value=value))
        try:
            yield
        finally:
            # a connection that broke (or a transaction that failed) has nothing to restore
            with contextlib.suppress(EngineError):
                for name, value in before:
                    self._housekeeping(self.sql.render("set_setting", name=name, value=value))

    #: The setting :meth:`writing_every_row` lowers.
    WORKERS_SETTING: ClassVar[str] = "max_parallel_workers_per_gather"

    def server_cores(self) -> int | None:
        """The cores of the server's machine, when it is this machine (a Unix socket or a
        loopback address: the cores this process may use); None for a remote server, whose
        core count PostgreSQL does not tell a client."""
        host = self.con.info.host
        if not (host.startswith("/") or host in {"localhost", "127.0.0.1", "::1"}):
            return None
        affinity = getattr(os, "sched_getaffinity", None)
        return len(affinity(0)) if affinity is not None else os.cpu_count()

    @contextmanager
    def writing_every_row(self) -> Iterator[None]:
        """Parallel workers for a ``CREATE TABLE AS`` of every source row, so that its leader
        keeps a core of its own: the leader writes every row (PostgreSQL 15 has no parallel
        insert) and the workers join and hash them; a worker on the leader's core slows the
        write. A new history of 1e7 rows on a two-core machine: 19.6 s with one worker against
        25.7 s with two (23.4 s with two and a leader that only writes; 34.6 s with none).
        Where the server's cores are not known (a remote server) or leave a core to the
        leader, the session's setting is kept, as is a value the spec gives
        (``engine_settings``)."""
        cores = self.server_cores()
        with self._at_most_workers(None if cores is None else max(1, cores - 1)):
            yield

    @contextmanager
    def serial(self) -> Iterator[None]:
        """No parallel workers for a grouping of rows that are nearly all distinct groups
        (the working rows summed from the counted rows): each worker's partial groups are
        nearly as many as its rows, and the leader merges them all again in one process.
        1.1M counted rows into 885,000 working rows at 1e7: 3.7 s serial against 4.8 s with
        two workers. A value the spec gives (``engine_settings``) is kept."""
        with self._at_most_workers(0):
            yield

    @contextmanager
    def _at_most_workers(self, workers: int | None) -> Iterator[None]:
        """The session's parallel workers per gather lowered to ``workers`` for the block
        (None, or a value the spec gives: unchanged), then set back."""
        name = self.WORKERS_SETTING
        if name in self.spec_settings or workers is None:
            yield
            return
        # not counted as the run's statements (as the run's settings), so counts match DuckDB's
        before = int(self._fetchall(self.sql.render("settings/current", name=name))[0][0])
        if before <= workers:
            yield
            return
        self._housekeeping(self.sql.render("set_setting", name=name, value=workers))
        try:
            yield
        finally:
            # a failed statement aborted the transaction: its rollback sets the value back
            with contextlib.suppress(EngineError):
                self._housekeeping(self.sql.render("set_setting", name=name, value=before))

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with super().transaction():
            for name, value in self.transaction_settings:
                if name not in self.spec_settings:
                    self.run("settings/set_local", name=name, value=value)
            yield

    def interrupt(self) -> None:
        # psycopg's cancel request, on a connection of its own; the statement then fails with
        # QueryCanceled and the connection is ready for the rollback
        self.con.cancel_safe(timeout=5.0)

    def _wrap(self, err: psycopg.Error) -> EngineError:
        return EngineError(
            f"PostgreSQL refused a statement: {type(err).__name__}: {redact(str(err))}"
        )

    def _execute(self, sql: str) -> None:
        try:
            self.con.execute(sql)
        except psycopg.Error as err:
            raise self._wrap(err) from err

    def _fetchall(self, sql: str) -> list[tuple[Any, ...]]:
        try:
            with self.con.cursor() as cur:
                cur.execute(sql)
                return list(cur.fetchall())
        except psycopg.Error as err:
            raise self._wrap(err) from err

    def _fetch_arrow(self, sql: str) -> pa.Table:
        # a result of the types CSV carries exactly comes as COPY's CSV, parsed by Arrow: 250,000
        # working rows of nine integers in 0.18 s against 0.45 s as tuples, of text 0.21 s
        # against 1.38 s; any other result as tuples
        wrapped = _copy_statements(sql)
        try:
            with self.con.cursor() as cur:
                if wrapped is not None:
                    columns, copy = wrapped
                    cur.execute(columns)
                    description = cur.description or []
                    if _csv_carries(description):
                        with cur.copy(copy) as data:
                            chunks = b"".join(bytes(chunk) for chunk in data)
                        with contextlib.suppress(pa.ArrowInvalid):
                            # not expected (PostgreSQL printed these types); Arrow's message
                            # would quote the value, so the query is fetched as tuples instead
                            return _csv_table(description, chunks)
                cur.execute(sql)
                description = cur.description or []
                rows = cur.fetchall()
        except psycopg.Error as err:
            raise self._wrap(err) from err
        return _arrow_table(description, rows)

    def _iter_arrow(self, sql: str, batch_rows: int) -> Iterator[pa.RecordBatch]:
        # a server-side cursor, so the server, not this process, holds the rest of the result;
        # it lives in a transaction (a savepoint when one is already open)
        name = f"anonsql_stream_{next(_cursors)}"
        try:
            with self.con.transaction(), self.con.cursor(name=name) as cur:
                cur.execute(sql)
                description = cur.description or []
                while rows := cur.fetchmany(batch_rows):
                    yield from _arrow_table(description, rows).to_batches()
        except psycopg.Error as err:
            raise self._wrap(err) from err

    def load_arrow(self, target: TableName, data: pa.Table) -> None:
        # One load counts as one statement, as on DuckDB, though it is CREATE + COPY + ANALYZE
        # here (fresh statistics keep the planner from nested-looping over the new table).
        columns = [{"name": f.name, "type": sql_type(f.type)} for f in data.schema]
        create = self.sql.render("create_table_columns", target=target, columns=columns)
        # rows of the types CSV carries exactly are written as CSV by Arrow, not row by row
        # (Mondrian's 234,784 finished vectors at 1e6 rows: 0.285 s as rows)
        # (floats in their shortest exact form; every text quoted, so an empty text is told
        # from a NULL, an empty unquoted field)
        csv = all(arrow.plain_scalar(t) for t in data.schema.types)
        copy_sql = self.sql.render(
            "copy_from_stdin", target=target, columns=[c["name"] for c in columns], csv=csv
        )
        analyze = self.sql.render("catalog/analyze", relation=target)
        start = self._timed(create)
        try:
            with self.running():
                self._execute(create)
                self.notify(copy_sql)
                with self.con.cursor() as cur, cur.copy(copy_sql) as copy:
                    for batch in data.to_batches(max_chunksize=65536):
                        if csv:
                            copy.write(_csv_rows(batch))
                            continue
                        for row in zip(*(col.to_pylist() for col in batch.columns), strict=True):
                            copy.write_row(row)
                self.notify(analyze)
                self._execute(analyze)
        except psycopg.Error as err:
            raise self._wrap(err) from err
        finally:
            self.stats.seconds += time.perf_counter() - start

    def columns(self, relation: TableName) -> list[ColumnInfo] | None:
        rows = self.query(
            "catalog_columns", schema=relation.schema or self.current_schema(), name=relation.name
        )
        if not rows:
            return None
        return [ColumnInfo.of(r[0], str(r[1]).upper(), self.dialect) for r in rows]

    def analyze(self, relation: TableName) -> None:
        # Without fresh statistics the planner nested-loops over tables built moments ago.
        # Housekeeping, not counted as a statement, so statement counts match DuckDB's (where
        # this is a no-op); listeners (snapshots) still see it.
        self._housekeeping(self.sql.render("catalog/analyze", relation=relation))

    def _housekeeping(self, statement: str) -> None:
        """Run a statement that is not counted as one of the run's (statistics, session
        settings), so that statement counts match DuckDB's; listeners still see it."""
        self.notify(statement)
        start = time.perf_counter()
        try:
            with self.running():
                self._execute(statement)
        finally:
            self.stats.seconds += time.perf_counter() - start

    #: Suffix of the function that fences a guarded live view, beside its released rows.
    GUARD_FUNCTION_SUFFIX = "__guard"

    def create_guarded(self, target: TableName, released: TableName, **params: Any) -> None:
        # A security_barrier view stops only functions that are not leakproof: the planner
        # still pushes an analyst's `=` (leakproof) below the guard's anti-join, and EXPLAIN
        # (ANALYZE) then counts, per plan node, the withheld rows the predicate matches. The
        # guarded rows are computed in a SECURITY DEFINER function instead, which the planner
        # neither inlines nor looks into: every predicate is evaluated on the function's
        # result, and the plan shows a function scan and nothing below it.
        if released.schema is None:
            # the function resolves no name through the caller's search_path
            released = TableName(released.name, self.current_schema())
        body = self.sql.render("publish/guarded_rows", released=released, **params)
        function = released.with_name(target.name + self.GUARD_FUNCTION_SUFFIX)
        columns = [c.name for c in self.columns(released) or []]
        self._run_as_written("publish/guard_drop", function=function)
        self._run_as_written(
            "publish/guard_function",
            function=function,
            released=released,
            columns=columns,
            body=body,
        )
        self._run_as_written("publish/guard_view", target=target, function=function)

    def _run_as_written(self, template: str, /, **params: Any) -> None:
        """Run one statement of this engine's own templates written in PostgreSQL's dialect,
        as written: for what sqlglot cannot generate (``CREATE FUNCTION``)."""
        self.execute(self.sql.render_text(template, params).strip())

    def hold_run(self, run_id: str) -> None:
        super().hold_run(run_id)
        self.query("runs/lock", key=_run_lock_key(run_id))

    def release_run(self, run_id: str) -> None:
        super().release_run(run_id)
        self.query("runs/unlock", key=_run_lock_key(run_id))

    def run_is_alive(self, run_id: str) -> bool:
        # a live run's session holds its advisory lock; a killed run's session released it
        if super().run_is_alive(run_id):
            return True
        key = _run_lock_key(run_id)
        if not self.query("runs/try_lock", key=key)[0][0]:
            return True
        self.query("runs/unlock", key=key)
        return False

    def role_exists(self, role: str) -> bool:
        return bool(self.query("catalog/role_exists", role=role))

    def current_schema(self) -> str:
        return str(self.fetchall("SELECT current_schema()")[0][0])

    def close(self) -> None:
        if self._owns_connection:
            self.con.close()
