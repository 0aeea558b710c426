"""A real Ctrl-C (SIGINT) during `anonsql run`, in the search or while publishing and verifying:
exit code 130, no traceback, the previous output untouched, no working schema left behind, on
DuckDB and PostgreSQL."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import people_spec, work_schemas
from pg_server import PostgresServer

from anonsql.engines import DuckDBEngine, Engine, PostgresEngine

PEOPLE = (
    "CREATE TABLE main.people AS SELECT 'p' || i AS name, 18 + i % 73 AS age, "
    "(ARRAY['Lyon','Paris','Nice','Rome','Milan','Boston','Austin','Toronto'])[1 + i % 8] "
    "AS city, (CAST(i AS BIGINT) * 7919) % 100000 AS income, 'd' || (i % 5) AS disease, "
    "'a' AS note FROM {rows}"
)
ROWS = 400_000


def _run(spec: dict[str, Any], path: Path) -> subprocess.CompletedProcess[str]:
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "anonsql", "run", "--quiet", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )


def _interrupt(spec: dict[str, Any], path: Path, wait_for: str, delay: float) -> tuple[int, str]:
    """Start a run, send SIGINT ``delay`` seconds after it prints ``wait_for``."""
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "anonsql", "run", str(path)],
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    seen = []
    deadline = time.monotonic() + 180
    for line in proc.stderr:
        seen.append(line)
        if wait_for in line or time.monotonic() > deadline:
            break
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _, rest = proc.communicate(timeout=180)
    return proc.returncode, "".join(seen) + rest


def _release(engine: Engine) -> tuple[Any, ...]:
    return (
        engine.fetchall("SELECT run_id FROM anon.people__certificate"),
        engine.fetchall("SELECT count(*), count(DISTINCT city) FROM anon.people"),
    )


# Where the signal lands: in the search, and just after publishing began.
MOMENTS = [("round 3:", 0.0), ("publishing and verifying", 0.3)]


def _scenario(
    open_engine: Any, spec: dict[str, Any], tmp_path: Path, wait_for: str, delay: float
) -> None:
    done = _run(spec, tmp_path / "first.yaml")
    assert done.returncode == 0, done.stderr
    with open_engine() as engine:
        before = _release(engine)
    spec = {**spec, "privacy": [{"k_anonymity": {"k": 3}}]}
    code, err = _interrupt(spec, tmp_path / "second.yaml", wait_for, delay)
    assert code == 130, err
    assert "Traceback" not in err
    assert "interrupted" in err.lower()
    with open_engine() as engine:
        assert _release(engine) == before
        assert work_schemas(engine) == []


@pytest.mark.parametrize(("wait_for", "delay"), MOMENTS)
def test_sigint_on_duckdb_leaves_previous_output(
    tmp_path: Path, wait_for: str, delay: float
) -> None:
    db = tmp_path / "big.duckdb"
    with DuckDBEngine(db) as engine:
        engine.execute(PEOPLE.format(rows=f"range({ROWS}) t(i)").replace("ARRAY", ""))
    spec = people_spec(tmp_path, k=5)
    spec["database"] = db.name
    _scenario(lambda: DuckDBEngine(db), spec, tmp_path, wait_for, delay)


@pytest.mark.parametrize(("wait_for", "delay"), MOMENTS)
def test_sigint_on_postgres_leaves_previous_output(
    pg_server: PostgresServer, pg_database: str, tmp_path: Path, wait_for: str, delay: float
) -> None:
    with PostgresEngine(pg_database) as engine:
        engine.execute(PEOPLE.format(rows=f"generate_series(0, {ROWS - 1}) AS t(i)"))
    spec = people_spec(tmp_path, k=5)
    spec.update(engine="postgres", database=pg_database)
    _scenario(lambda: PostgresEngine(pg_database), spec, tmp_path, wait_for, delay)
