"""Shared fixtures. ``engine`` is the conformance fixture: every test that takes it runs on every
engine configured in ``tests/support/engine_configs.py`` — DuckDB in memory, and a fresh
database on a real PostgreSQL server started for the session (a missing server is a failure in
CI and a clear skip elsewhere) — with each engine's known gaps as strict expected failures."""

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

from engine_configs import CONFIGS, selected
from pg_server import PostgresServer, PostgresUnavailable, start_server

from anonsql.engines import Engine

ENGINES = selected()
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
    """One local[2] Spark for the test session, its warehouse in a temporary folder."""
    try:
        from anonsql.engines.spark.engine import open_session
    except Exception as err:  # pyspark missing: the extra is not installed
        if os.environ.get("CI"):
            pytest.fail(f"Spark tests must run in CI: {err}")
        pytest.skip(str(err))
    warehouse = tmp_path_factory.mktemp("spark-warehouse")
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


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    eng = open_engine(request.param, request)
    try:
        yield eng
    finally:
        eng.close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each engine's known gaps as strict expected failures."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        kind = callspec.params.get("engine") if callspec is not None else None
        if kind in CONFIGS:
            reason = CONFIGS[kind].gap(item.name)
            if reason:
                item.add_marker(pytest.mark.xfail(reason=reason, strict=True))
