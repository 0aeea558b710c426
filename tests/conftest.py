"""Shared fixtures. ``engine`` is the conformance fixture: every test that takes it runs on every
engine configured in ``tests/support/engine_configs.py`` — DuckDB in memory, a fresh database on
a real PostgreSQL server started for the session (a missing server is a failure in CI and a
clear skip elsewhere), and Spark (opt-in) — with each engine's known gaps as strict expected
failures that name the exception they raise (an unrelated failure of a gapped test fails the
run).

Selecting engines: each engine parameter carries a marker named after the engine (registered in
pyproject.toml), and so does every test needing an engine's server (the ``pg_server`` and
``spark_session`` fixtures, added here; tests/engines/test_spark.py and tests opening every
engine themselves mark themselves), so ``pytest -m postgres``, ``-m duckdb``, ``-m "not
postgres"`` (no server at hand) work as usual. The engines of a session are:

* by default DuckDB and PostgreSQL. Spark is opt-in: its session is slow to start (a JVM,
  30-60 s), so a default run must not start it; its tests are deselected;
* with ``-m`` asking for an opt-in engine's marker, that engine too: ``pytest -m spark
  tests/engines`` (``make test-spark``) runs the Spark tests without any setting;
* with ``ANONSQL_TEST_ENGINES`` (comma-separated, e.g. ``duckdb,spark``) exactly those: tests
  marked with another engine are deselected, and tests that compare every engine of the session
  (``test_same_release_twice_and_on_every_engine``) compare those (``make test-spark-all``).

Type checking: ``mypy`` (strict, pyproject.toml) checks tests/ as pytest imports them
(rootdir-less "prepend" import mode): each module top-level under its file name, its folder on
the path, so helpers are imported by bare name (``from helpers import ...``; tests/support is
put on the path below). Module names must therefore be unique across tests/, and this is the
only conftest.py: shared fixtures go here or into tests/support."""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

# shared test code lives apart from the tests, in tests/support
sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))

import engine_configs
from engine_configs import CONFIGS, selected
from pg_server import PostgresServer, PostgresUnavailable, start_server

from anonsql.engines import Engine

# its assertion compares snapshots: rewritten like the tests' own, it shows the diff
pytest.register_assert_rewrite("sql_snapshots")
_databases = itertools.count()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    try:
        server = start_server()
    except PostgresUnavailable as err:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL tests must run in CI: {err}")
        pytest.skip(str(err))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_database(pg_server: PostgresServer) -> Iterator[str]:
    """A fresh database with a schema ``main`` (DuckDB's default, so tests name tables the same
    way on both engines); returns its DSN."""
    name = f"t{os.getpid()}_{next(_databases)}"
    with psycopg.connect(pg_server.dsn, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    with psycopg.connect(pg_server.dsn_for(name), autocommit=True) as con:
        con.execute("CREATE SCHEMA main")
    try:
        yield pg_server.dsn_for(name)
    finally:
        with psycopg.connect(pg_server.dsn, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def spark_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One Spark for the test session, its warehouse in a temporary folder: a local[2] session
    in this process, or with ``ANONSQL_SPARK_TOPOLOGY=connect`` a Spark Connect client of a
    server the session starts on 127.0.0.1 (tests/support/spark_topology.py) and stops."""
    try:
        from anonsql.engines.spark.engine import open_session
    except Exception as err:  # pyspark missing: the extra is not installed
        if os.environ.get("CI"):
            pytest.fail(f"Spark tests must run in CI: {err}")
        pytest.skip(str(err))
    warehouse = tmp_path_factory.mktemp("spark-warehouse")
    if os.environ.get("ANONSQL_SPARK_TOPOLOGY") == "connect":
        from spark_topology import connect_server

        with connect_server(warehouse) as address:
            remote = open_session(address)
            try:
                yield remote
            finally:
                remote.stop()
        return
    session = open_session(
        "local[2]",
        {
            "spark.sql.warehouse.dir": str(warehouse),
            "spark.driver.extraJavaOptions": f"-Dderby.system.home={warehouse}",
            # tiny tables: compiling each query's Java code costs more than interpreting it
            "spark.sql.codegen.wholeStage": "false",
            "spark.sql.shuffle.partitions": "2",
        },
    )
    try:
        yield session
    finally:
        session.stop()


def open_engine(kind: str, request: pytest.FixtureRequest) -> Engine:
    return CONFIGS[kind].open(request)


def pytest_configure(config: pytest.Config) -> None:
    registered = {line.split(":")[0].split("(")[0].strip() for line in config.getini("markers")}
    missing = [kind for kind in CONFIGS if kind not in registered]
    if missing:
        raise pytest.UsageError(f"register the markers of engines {missing} in pyproject.toml")
    engine_configs.configure(config.option.markexpr)


@pytest.fixture(params=[pytest.param(kind, marks=getattr(pytest.mark, kind)) for kind in CONFIGS])
def engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    eng = open_engine(request.param, request)
    try:
        yield eng
    finally:
        eng.close()


@pytest.hookimpl(tryfirst=True)  # before -m deselects by the markers added here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests needing an engine's server with the engine's marker, deselect the tests
    marked with an engine the session does not run on, and mark each engine's known gaps as
    strict expected failures raising the gap's exception."""
    engines = set(selected())
    kept: list[pytest.Item] = []
    deselected: list[pytest.Item] = []
    for item in items:
        for kind, engine_config in CONFIGS.items():
            if engine_config.fixture in getattr(item, "fixturenames", ()):
                item.add_marker(getattr(pytest.mark, kind))
        if {mark.name for mark in item.iter_markers()} & (CONFIGS.keys() - engines):
            deselected.append(item)
            continue
        kept.append(item)
        callspec = getattr(item, "callspec", None)
        param = callspec.params.get("engine") if callspec is not None else None
        gap = CONFIGS[param].gap(item.name) if param in CONFIGS else None
        if gap is not None:
            item.add_marker(pytest.mark.xfail(reason=gap.reason, raises=gap.raises, strict=True))
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = kept


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """After a run of tests/docs: how the documentation's code blocks ran (doc_summary)."""
    from doc_summary import docs_summary

    docs_summary(terminalreporter)
