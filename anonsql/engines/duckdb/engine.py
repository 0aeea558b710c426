"""DuckDB, the embedded default engine."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from anonsql.engines.base import Engine, redact
from anonsql.engines.types import ColumnInfo
from anonsql.errors import EngineError, SpecError
from anonsql.spec.sources import FILES_SCHEMA, FileSource
from anonsql.sql import TableName

_counter = itertools.count()


class DuckDBEngine(Engine):
    """An in-process DuckDB database: a file path or ``:memory:``."""

    name = "duckdb"
    templates = Path(__file__).resolve().parent / "templates"
    dialect = "duckdb"
    settings = frozenset(
        {
            "memory_limit",
            "threads",
            "temp_directory",
            "max_temp_directory_size",
            "preserve_insertion_order",
        }
    )

    def __init__(
        self,
        database: str | Path = ":memory:",
        *,
        connection: duckdb.DuckDBPyConnection | None = None,
        threads: int | None = None,
    ) -> None:
        super().__init__()
        self.database = str(database)
        self._owns_connection = connection is None
        if connection is None:
            try:
                connection = duckdb.connect(self.database)
            except duckdb.Error as err:
                raise EngineError(
                    f"cannot open the DuckDB database {self.database}: "
                    f"{type(err).__name__}: {redact(str(err))}. Fix: check the path, and close "
                    "any other process that holds the file open (DuckDB lets one process write)"
                ) from None
        self.con = connection
        #: Arrow tables registered by :meth:`scratch`, per working schema (so per run).
        self._scratch: dict[str, set[str]] = {}
        #: Working schemas of live runs, each an in-memory database (:meth:`create_work_schema`),
        #: with the temporary tables written for it inside a transaction.
        self._work: dict[str, set[str]] = {}
        #: The temporary views of each working schema (:meth:`scratch_view`).
        self._views: dict[str, set[str]] = {}
        if self._owns_connection:
            # DuckDB's own progress bar writes to stdout during long statements, which would
            # corrupt `anonsql run --json`; anonsql reports progress itself
            self.run("set_setting", name="enable_progress_bar", value=False)
        if threads is not None:
            self.run("settings/set_threads", threads=int(threads))

    def interrupt(self) -> None:
        # DuckDB stops the statement at its next task and raises InterruptException
        self.con.interrupt()

    def _wrap(self, err: Exception) -> EngineError:
        if (
            isinstance(err, duckdb.InterruptException)
            or (isinstance(err, RuntimeError) and "interrupted" in str(err).lower())
            or "KeyboardInterrupt" in str(err)
        ):
            # Ctrl-C while DuckDB ran a statement (DuckDB 2.0 raises a plain RuntimeError, and
            # a KeyboardInterrupt raised while it scanned Python data comes back as a statement
            # error naming it): the same path as any other interrupt
            raise KeyboardInterrupt from err
        return EngineError(f"DuckDB refused a statement: {type(err).__name__}: {redact(str(err))}")

    def _execute(self, sql: str) -> None:
        try:
            self.con.execute(sql).fetchall()
        except (duckdb.Error, RuntimeError) as err:
            raise self._wrap(err) from err

    def _fetchall(self, sql: str) -> list[tuple[Any, ...]]:
        try:
            return self.con.execute(sql).fetchall()
        except (duckdb.Error, RuntimeError) as err:
            raise self._wrap(err) from err

    def _fetch_arrow(self, sql: str) -> pa.Table:
        try:
            return self.con.sql(sql).to_arrow_table()
        except (duckdb.Error, RuntimeError) as err:
            raise self._wrap(err) from err

    def _iter_arrow(self, sql: str, batch_rows: int) -> Iterator[pa.RecordBatch]:
        try:
            reader = self.con.sql(sql).to_arrow_reader(batch_rows)
            yield from reader
        except (duckdb.Error, RuntimeError) as err:
            raise self._wrap(err) from err

    def load_arrow(self, target: TableName, data: pa.Table) -> None:
        view_name = f"__anonsql_arrow_{next(_counter)}"
        try:
            with self.running():
                self.con.register(view_name, data)
        except (duckdb.Error, RuntimeError) as err:
            raise self._wrap(err) from err
        try:
            self.run("create_table_as_select_all", target=target, source=TableName(view_name))
        finally:
            # after an interrupt DuckDB may refuse this too; the first error is the one to tell
            with contextlib.suppress(duckdb.Error):
                self.con.unregister(view_name)

    def scratch(self, target: TableName, data: pa.Table) -> TableName:
        # registered on the connection, scanned in place: replacing it is a dictionary update,
        # where a table costs a CREATE and a DROP, each a commit to the database file
        schema = target.schema or ""
        view_name = f"__anonsql_scratch_{schema}_{target.name}"
        try:
            with self.running():
                self.con.register(view_name, data)
        except (duckdb.Error, RuntimeError) as err:
            raise self._wrap(err) from err
        self._scratch.setdefault(schema, set()).add(view_name)
        self.stats.statements += 1  # one decision table, one statement (as on every engine)
        return TableName(view_name)

    def release_run(self, run_id: str) -> None:
        # a run's working schema is named after its id
        for schema in [s for s in self._scratch if s.endswith(run_id)]:
            for view_name in self._scratch.pop(schema):
                with contextlib.suppress(duckdb.Error):
                    self.con.unregister(view_name)
        super().release_run(run_id)

    # A run's working schema is an in-memory database attached under the schema's name, so
    # "schema"."table" names its tables unchanged. Its tables (the rows' coded values) are never
    # written to the database file, where creating them is slower (BENCHMARKS.md "Working
    # tables in memory, fewer passes at publish, radix-grouped bins"); past memory_limit they
    # spill to temp_directory like any other data;
    # and a killed run leaves nothing behind. A transaction may write to one database only, so
    # what the publish transaction writes for the run goes to temporary tables.
    def create_work_schema(self, schema: str) -> None:
        self.run("work/attach_memory", name=schema)
        self._work[schema] = set()

    def drop_work_schema(self, schema: str) -> None:
        if schema not in self._work:
            super().drop_work_schema(schema)  # a schema a killed run of an older version left
            return
        for name in sorted(self._views.pop(schema, set())):
            self.drop(TableName(name, "temp"), view=True)
        for name in sorted(self._work.pop(schema)):  # sorted: the same statements every run
            self.drop(TableName(name, "temp"))
        self.run("work/detach", name=schema)

    def scratch_view(self, work: TableName) -> tuple[TableName, str]:
        # a view in the working database binds its names there, where the source's schema
        # (a file source's, any but `main`) does not exist: the run's views are temporary
        if work.schema not in self._work:
            return super().scratch_view(work)
        name = f"{work.schema}__{work.name}"
        self._views.setdefault(work.schema, set()).add(name)
        return TableName(name, "temp"), "TEMP "

    def transaction_work(self, work: TableName) -> tuple[TableName, str]:
        if work.schema not in self._work:
            return super().transaction_work(work)
        name = f"{work.schema}__{work.name}"
        self._work[work.schema].add(name)
        return TableName(name, "temp"), "TEMP "

    def schema_exists(self, schema: str) -> bool:
        return schema in self._work or super().schema_exists(schema)

    def columns(self, relation: TableName) -> list[ColumnInfo] | None:
        # DESCRIBE resolves the name as every statement does (a working schema's in-memory
        # database, temporary tables, the search path) and gives information_schema's type
        # names, far quicker than a process's first information_schema query (BENCHMARKS.md
        # "Working tables in memory, fewer passes at publish, radix-grouped bins")
        try:
            rows = self.query("catalog/describe", relation=relation)
        except EngineError as err:
            if isinstance(err.__cause__, duckdb.CatalogException):
                return None  # no such relation (or schema)
            raise
        return [ColumnInfo.of(r[0], str(r[1]), self.dialect) for r in rows]

    def file_relation(self, source: FileSource) -> TableName:
        if source.format not in ("parquet", "csv"):
            raise SpecError(
                "source",
                f"the duckdb engine does not read {source.format} files",
                "name a parquet: or csv: path, or a table",
            )
        target = source.relation
        self.ensure_schema(target.schema or FILES_SCHEMA)
        path = source.path
        if Path(path).is_dir():  # a folder as Spark writes it: its part files
            path = str(Path(path) / "**" / f"*.{source.format}")
        try:
            self.run("source/file_view", target=target, format=source.format, path=path)
        except EngineError as err:
            raise SpecError(
                "source", f"DuckDB cannot read the {source.format} files: {err}", "check the path"
            ) from None
        return target

    def current_schema(self) -> str:
        return str(self.fetchall("SELECT current_schema()")[0][0])

    def close(self) -> None:
        if self._owns_connection:
            self.con.close()
