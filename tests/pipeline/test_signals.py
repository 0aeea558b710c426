"""A signal (SIGINT, SIGTERM) at any moment of `anonsql run` ends it the way its message says,
on DuckDB and PostgreSQL: exit 130, no traceback, and either "published" with the new release
in place and certified, or "nothing was published" with the previous release as it was; no
working schema is left behind either way. Moments: targeted ones (during validation, the
search, publishing, just before the swap's commit, at the COMMIT, just after it) sent by the
run itself (tests/support/signal_driver.py), and a seeded set of delays spread over a run's
duration sent from outside."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import people_spec, work_schemas
from pg_server import PostgresServer

from anonsql import api
from anonsql.engines import DuckDBEngine, Engine, PostgresEngine

DRIVER = Path(__file__).resolve().parents[1] / "support" / "signal_driver.py"
PEOPLE = (
    "CREATE TABLE main.people AS SELECT 'p' || i AS name, 18 + i % 73 AS age, "
    "(ARRAY['Lyon','Paris','Nice','Rome','Milan','Boston','Austin','Toronto'])[1 + i % 8] "
    "AS city, (CAST(i AS BIGINT) * 7919) % 100000 AS income, 'd' || (i % 5) AS disease, "
    "'a' AS note FROM {rows}"
)
ROWS = 20_000
#: An internal error shows its traceback (and fails the test, which refuses one) rather than
#: only its type.
ENV = {**os.environ, "ANONSQL_DEBUG": "1"}
PUBLISHED = "after the release was published"
UNPUBLISHED = "nothing was published and the previous release is intact"

Opener = Callable[[], AbstractContextManager[Engine]]

#: Moments the run signals itself at (signal_driver.py's MOMENT), and whether the release is
#: published then. "+s": from a timer thread s seconds later, while a statement runs.
TARGETED = [
    pytest.param("before:anonsql.pipeline.run:resolve+0.05", False, id="validation"),
    pytest.param(
        "before:anonsql.algorithms.mondrian.algorithm:Mondrian.partition+0.1",
        False,
        id="partitioning",
    ),
    pytest.param("before:anonsql.pipeline.run:publish+0.05", False, id="publishing"),
    pytest.param("after:anonsql.pipeline.run:certify", False, id="just before the commit"),
    pytest.param("statement:^COMMIT$", True, id="at the commit"),
    pytest.param("before:anonsql.pipeline.run:report", True, id="just after the commit"),
]


def release(engine: Engine) -> tuple[Any, ...]:
    return (
        engine.fetchall("SELECT run_id FROM anon.people__certificate"),
        engine.fetchall("SELECT count(*), count(DISTINCT city) FROM anon.people"),
    )


def write(spec: dict[str, Any], path: Path) -> Path:
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    return path


def command(spec: Path, moment: str = "none", signame: str = "SIGINT") -> list[str]:
    return [sys.executable, str(DRIVER), moment, signame, "run", str(spec)]


def check_outcome(
    open_engine: Opener, before: tuple[Any, ...], code: int, err: str
) -> tuple[bool, tuple[Any, ...]]:
    """Assert the exit tells the truth; whether the release was published, and the release."""
    assert "Traceback" not in err, err
    assert "EngineError" not in err and "KeyboardInterrupt" not in err, err
    with open_engine() as engine:
        now = release(engine)
        assert work_schemas(engine) == [], err
        if code == 0:
            published = True
        else:
            assert code == 130, err
            assert "interrupted by SIG" in err, err
            published = PUBLISHED in err
            assert published or UNPUBLISHED in err, err
        if published:
            assert now[0] != before[0], f"said published, but the release is the old one: {err}"
            assert api.check_output(engine, "anon.people").holds
            certificate = engine.fetchall("SELECT verified FROM anon.people__certificate")
            assert certificate == [(True,)]
        else:
            assert now == before, f"said nothing was published, but the release changed: {err}"
    return published, now


def first_release(open_engine: Opener, spec: dict[str, Any], tmp_path: Path) -> tuple[Any, ...]:
    done = subprocess.run(
        [*command(write(spec, tmp_path / "first.yaml")), "--quiet"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    with open_engine() as engine:
        return release(engine)


def targeted(
    open_engine: Opener, spec: dict[str, Any], tmp_path: Path, moment: str, published: bool
) -> None:
    before = first_release(open_engine, spec, tmp_path)
    path = write({**spec, "privacy": [{"k_anonymity": {"k": 3}}]}, tmp_path / "second.yaml")
    for signame in ("SIGINT", "SIGTERM"):
        done = subprocess.run(
            command(path, moment, signame), capture_output=True, text=True, timeout=300, env=ENV
        )
        said, before = check_outcome(open_engine, before, done.returncode, done.stderr)
        assert done.returncode == 130, done.stderr
        assert said == published, done.stderr
        assert f"interrupted by {signame}" in done.stderr


def spread(open_engine: Opener, spec: dict[str, Any], tmp_path: Path, seed: int) -> None:
    """Signals at seeded delays after the run's first line, spread over a run's duration."""
    start = time.monotonic()
    before = first_release(open_engine, spec, tmp_path)
    duration = time.monotonic() - start
    rng = random.Random(seed)
    path = write({**spec, "privacy": [{"k_anonymity": {"k": 3}}]}, tmp_path / "second.yaml")
    outcomes = []
    for i in range(10):
        delay = rng.uniform(0, duration)
        signame = ("SIGINT", "SIGTERM")[i % 2]
        proc = subprocess.Popen(
            command(path), stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=ENV
        )
        assert proc.stderr is not None
        first = proc.stderr.readline()  # the handlers are installed before it is printed
        time.sleep(delay)
        proc.send_signal(signal.Signals[signame])
        _, rest = proc.communicate(timeout=300)
        err = first + rest
        published, before = check_outcome(open_engine, before, proc.returncode, err)
        outcomes.append((round(delay, 2), signame, proc.returncode, published))
    # the delays cover the run: some signals land before the commit
    assert any(code == 130 and not published for _, _, code, published in outcomes), outcomes


@pytest.fixture
def duckdb_people(tmp_path: Path) -> tuple[Opener, dict[str, Any]]:
    db = tmp_path / "big.duckdb"
    with DuckDBEngine(db) as engine:
        engine.execute(PEOPLE.format(rows=f"range({ROWS}) t(i)").replace("ARRAY", ""))
    spec = people_spec(tmp_path, k=5)
    spec["database"] = db.name
    return (lambda: DuckDBEngine(db)), spec


@pytest.fixture
def postgres_people(
    pg_server: PostgresServer, pg_database: str, tmp_path: Path
) -> tuple[Opener, dict[str, Any]]:
    with PostgresEngine(pg_database) as engine:
        engine.execute(PEOPLE.format(rows=f"generate_series(0, {ROWS - 1}) AS t(i)"))
    spec = people_spec(tmp_path, k=5)
    spec.update(engine="postgres", database=pg_database)
    return (lambda: PostgresEngine(pg_database)), spec


@pytest.mark.parametrize(("moment", "published"), TARGETED)
def test_signal_at_a_moment_on_duckdb(
    duckdb_people: tuple[Opener, dict[str, Any]], tmp_path: Path, moment: str, published: bool
) -> None:
    targeted(*duckdb_people, tmp_path, moment, published)


@pytest.mark.parametrize(("moment", "published"), TARGETED)
def test_signal_at_a_moment_on_postgres(
    postgres_people: tuple[Opener, dict[str, Any]], tmp_path: Path, moment: str, published: bool
) -> None:
    targeted(*postgres_people, tmp_path, moment, published)


def test_signals_spread_over_a_run_on_duckdb(
    duckdb_people: tuple[Opener, dict[str, Any]], tmp_path: Path
) -> None:
    spread(*duckdb_people, tmp_path, seed=30)


def test_signals_spread_over_a_run_on_postgres(
    postgres_people: tuple[Opener, dict[str, Any]], tmp_path: Path
) -> None:
    spread(*postgres_people, tmp_path, seed=31)
