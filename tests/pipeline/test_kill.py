"""A run killed hard (SIGKILL) must not leave its working tables (every row's coded values)
where they outlive it: on PostgreSQL the next run, or `anonsql cleanup`, removes its working
schema, and never the schema of a run that is still running (another session's live run);
DuckDB keeps them in an in-memory database, so the file never holds them."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psycopg
import yaml
from helpers import people_spec, work_schemas
from pg_server import PostgresServer

from anonsql import api
from anonsql.engines import DuckDBEngine, Engine, PostgresEngine

BIG_PEOPLE = (
    "CREATE TABLE main.people AS SELECT 'p' || i AS name, 18 + i % 73 AS age, "
    "(ARRAY['Lyon','Paris','Nice','Rome','Milan','Boston','Austin','Toronto'])[1 + i % 8] "
    "AS city, (CAST(i AS BIGINT) * 7919) % 100000 AS income, 'd' || (i % 5) AS disease, "
    "'a' AS note FROM {rows}"
)


def start_run(
    spec_path: Path, *, wait_for: str = "round 2:", replace: bool = False
) -> subprocess.Popen[str]:
    """``replace``: partition the whole source again (re-running a versioned release over an
    unchanged source partitions nothing)."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "anonsql",
            "run",
            *(["--replace"] if replace else []),
            str(spec_path),
        ],
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    deadline = time.monotonic() + 120
    for line in proc.stderr:
        if wait_for in line or time.monotonic() > deadline:
            break
    return proc


def run_to_the_end(spec_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "anonsql", "run", "--quiet", str(spec_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def write_spec(tmp_path: Path, **changes: Any) -> Path:
    spec = people_spec(tmp_path, k=5)
    spec.update(changes)
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    return path


def test_killed_run_on_duckdb_leaves_nothing_in_the_file(tmp_path: Path) -> None:
    """DuckDB keeps a run's working tables in an in-memory database: a killed run leaves none
    of its coded rows in the file. A working schema an older version left in the file is
    removed by the next run."""
    db = tmp_path / "big.duckdb"
    with DuckDBEngine(db) as engine:
        engine.execute(BIG_PEOPLE.format(rows="range(300000) t(i)").replace("ARRAY", ""))
        engine.execute('CREATE SCHEMA "anonsql_work_0123456789ab"')
        engine.execute('CREATE TABLE "anonsql_work_0123456789ab"."rows" AS SELECT 1 AS q0')
    spec = write_spec(tmp_path, database=db.name)
    proc = start_run(spec)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    with DuckDBEngine(db) as engine:
        # the killed run started by removing the older schema, and left none of its own
        assert work_schemas(engine) == []
        assert api.cleanup(engine) == []
        tables = engine.fetchall("SELECT table_schema, table_name FROM information_schema.tables")
        assert {s for s, _ in tables} == {"main"}, tables
    run_to_the_end(spec)
    with DuckDBEngine(db) as engine:
        assert work_schemas(engine) == []
        assert api.check_output(engine, "anon.people").holds


def _pg(server: PostgresServer, dsn: str) -> Engine:
    return PostgresEngine(dsn)


def test_killed_run_on_postgres_is_cleaned_but_live_runs_are_not(
    pg_server: PostgresServer, pg_database: str, tmp_path: Path
) -> None:
    with _pg(pg_server, pg_database) as engine:
        engine.execute(BIG_PEOPLE.format(rows="generate_series(0, 299999) AS t(i)"))
    spec = write_spec(tmp_path, engine="postgres", database=pg_database)
    # a release to replace: the live run below waits at publish for an analyst reading it, so
    # it is still running however fast its rounds are
    run_to_the_end(spec)
    killed = start_run(spec, replace=True)
    killed.send_signal(signal.SIGKILL)
    killed.communicate(timeout=60)
    time.sleep(0.5)  # the server notices the closed session and releases its lock
    with _pg(pg_server, pg_database) as engine:
        dead = {r[0] for r in work_schemas(engine)}
        assert len(dead) == 1  # what kill -9 leaves
    with psycopg.connect(pg_database) as analyst:
        # a read in an open transaction: the live run's publish cannot drop the view until it ends
        analyst.execute("SELECT * FROM anon.people LIMIT 1").fetchall()
        live = start_run(spec, replace=True)
        try:
            with _pg(pg_server, pg_database) as engine:
                running = {r[0] for r in work_schemas(engine)}
                # the live run removed the dead run's schema when it started, and its own stays
                assert len(running) == 1 and not running & dead
                assert api.cleanup(engine) == []  # a live run's schema is never removed
                assert {r[0] for r in work_schemas(engine)} == running
            assert live.poll() is None, "the live run ended before the checks"
            analyst.rollback()
            _, err = live.communicate(timeout=600)
            assert live.returncode == 0, err
        finally:
            if live.poll() is None:
                live.kill()
    with _pg(pg_server, pg_database) as engine:
        assert work_schemas(engine) == []
        assert api.check_output(engine, "anon.people").holds
