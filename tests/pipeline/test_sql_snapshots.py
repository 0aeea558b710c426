"""Every statement of a fixed run, per engine, kept as a snapshot so that changes to generated
SQL are visible in review. The statements are executed while they are recorded: the snapshot is
what ran (pretty-printed where the engine runs transpiled SQL: tests/support/sql_snapshots.py).
Regenerate with ``UPDATE_SNAPSHOTS=1 pytest tests/pipeline/test_sql_snapshots.py``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from helpers import load_people, people_spec
from one_to_many_fixtures import example_spec, load_table_1a
from paths import SNAPSHOTS
from sql_snapshots import compare

from anonsql import api
from anonsql.engines import Engine
from anonsql.engines.postgres.engine import PostgresEngine

_RUN_ID = re.compile(r"anonsql_work_[0-9a-f]{12}")
_ARROW_VIEW = re.compile(r"__anonsql_arrow_[0-9]+")
#: PostgreSQL advisory lock keys are derived from the run id.
_LOCK_KEY = re.compile(r"(ADVISORY_(?:UN)?LOCK)\([0-9]+\)")
#: A version's summary row: when it was published, the spec's hash (the hierarchy's path is in
#: the spec) and the run id.
_TIMESTAMP = re.compile(r"'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00'")
_SHA256 = re.compile(r"'[0-9a-f]{64}'")
_RUN_LITERAL = re.compile(r"'[0-9a-f]{12}'")


@pytest.fixture(autouse=True)
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL's workers for a table of every row follow the server's cores
    (``PostgresEngine.writing_every_row``): the snapshots are of a two-core machine's run."""
    monkeypatch.setattr(PostgresEngine, "server_cores", lambda self: 2)


def normalize(statement: str, tmp: Path) -> str:
    """Replace what differs between runs: the run id (and lock keys), the Arrow scan names and a
    version's time and spec hash."""
    statement = _ARROW_VIEW.sub("__anonsql_arrow_N", _RUN_ID.sub("anonsql_work_RUN", statement))
    statement = _LOCK_KEY.sub(r"\1(RUN)", statement)
    statement = _TIMESTAMP.sub("'TIME'", statement)
    statement = _RUN_LITERAL.sub("'RUN'", _SHA256.sub("'SHA256'", statement))
    return statement.replace(str(tmp), "TMP")


def record(engine: Engine, spec: dict[str, Any], tmp: Path) -> list[str]:
    statements: list[str] = []
    engine.listeners.append(statements.append)
    api.run(spec, engine=engine)
    engine.listeners.remove(statements.append)
    return [normalize(s, tmp) for s in statements]


@pytest.mark.parametrize("rounds", ["in_memory", "sql"])
def test_generated_sql_matches_snapshot(engine: Engine, tmp_path: Path, rounds: str) -> None:
    """By default Mondrian's rounds run in memory on a table this small; with
    ``max_rows_in_memory: 0`` every round is statements."""
    load_people(engine)
    spec = people_spec(
        tmp_path,
        k=5,
        privacy=[
            {"k_anonymity": {"k": 5}},
            {"distinct_l_diversity": {"column": "disease", "l": 2}},
        ],
    )
    name = "people_k5_l2.sql"
    if rounds == "sql":
        spec["algorithm"] = {"mondrian": {"max_rows_in_memory": 0}}
        name = "people_k5_l2_sql_rounds.sql"
    compare(SNAPSHOTS / engine.dialect / name, record(engine, spec, tmp_path), engine.dialect)


def test_one_to_many_sql_matches_snapshot(engine: Engine, tmp_path: Path) -> None:
    """The 1:M run of the paper's example (Partition rounds, person-level Mondrian, the two
    views and their checks)."""
    load_table_1a(engine)
    statements = record(engine, example_spec(tmp_path), tmp_path)
    compare(SNAPSHOTS / engine.dialect / "visits_kl_2_3.sql", statements, engine.dialect)
