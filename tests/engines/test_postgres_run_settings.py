"""PostgreSQL runs anonsql's statements under its own planner settings for the length of a run
(``PostgresEngine.run_session_settings``: memory for groupings and sorts, no JIT, parallel
workers for the row hashes) and sets the session's own values back when the run ends, however
it ends; a setting the spec gives (``engine_settings``) is the spec's. The settings are not
counted as the run's statements."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from helpers import load_people, people_spec

from anonsql import api
from anonsql.engines.postgres.engine import PostgresEngine
from anonsql.errors import AnonsqlError

NAMES = [name for name, _ in PostgresEngine.run_session_settings]


def current(engine: PostgresEngine) -> dict[str, str]:
    return {n: str(engine.fetchall(f"SELECT current_setting('{n}')")[0][0]) for n in NAMES}


def test_a_run_sets_its_settings_and_sets_the_sessions_back(
    pg_database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with PostgresEngine(pg_database) as engine:
        load_people(engine)
        engine.execute("SET work_mem = '8MB'")
        engine.execute("SET jit = on")
        engine.execute("SET parallel_tuple_cost = 0.25")
        before = current(engine)
        seen: list[dict[str, str]] = []
        result = api.run(
            people_spec(tmp_path), engine=engine, progress=lambda _: seen.append(current(engine))
        )
        assert result.certificate["verified"]
        wanted = {n: v for n, v in PostgresEngine.run_session_settings}
        assert seen and all(s == {**s, "jit": "off"} for s in seen)
        assert seen[0]["work_mem"] == wanted["work_mem"]
        assert float(seen[0]["parallel_tuple_cost"]) == float(wanted["parallel_tuple_cost"])
        assert current(engine) == before
        # the settings are not counted among the run's statements (as ANALYZE is not)
        counts = []
        for settings in (PostgresEngine.run_session_settings, ()):
            monkeypatch.setattr(PostgresEngine, "run_session_settings", settings)
            start = engine.stats.statements
            api.run(people_spec(tmp_path), engine=engine, replace=True)
            counts.append(engine.stats.statements - start)
        assert counts[0] == counts[1]


def test_a_failed_run_sets_them_back_and_a_spec_setting_is_kept(
    pg_database: str, tmp_path: Path
) -> None:
    with PostgresEngine(pg_database) as engine:
        load_people(engine)
        engine.execute("SET work_mem = '8MB'")
        before = current(engine)
        spec = people_spec(tmp_path)
        spec["source"] = "main.nobody"
        with pytest.raises(AnonsqlError):
            api.run(spec, engine=engine)
        assert current(engine) == before
        engine.apply_settings({"work_mem": "16MB"})
        seen: list[str] = []
        api.run(
            people_spec(tmp_path),
            engine=engine,
            progress=lambda _: seen.append(current(engine)["work_mem"]),
        )
        assert set(seen) == {"16MB"}
        assert current(engine)["work_mem"] == "16MB"


WORKERS = PostgresEngine.WORKERS_SETTING


def _workers_at_history_writes(engine: PostgresEngine, tmp_path: Path) -> list[str]:
    """The session's worker setting each time a statement writing a history runs."""
    seen: list[str] = []

    def listen(sql: str) -> None:
        if re.match(r'\s*CREATE TABLE \S+__version_rows" AS', sql):
            seen.append(str(engine._fetchall(f"SELECT current_setting('{WORKERS}')")[0][0]))

    engine.listeners.append(listen)
    try:
        api.run(people_spec(tmp_path), engine=engine, replace=True)
    finally:
        engine.listeners.remove(listen)
    return seen


def test_a_history_is_written_with_a_core_left_to_its_leader(
    pg_database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``PostgresEngine.writing_every_row``: on a server of two cores the new history's CREATE
    TABLE AS runs with one parallel worker (its leader writes every row), and the session's
    value is back after it; with cores to spare, on a remote server (cores unknown), under a
    lower session value or a spec's value, the setting is kept."""
    with PostgresEngine(pg_database) as engine:
        assert engine.server_cores() is not None  # the tests' server is on 127.0.0.1
        load_people(engine)
        engine.execute(f"SET {WORKERS} = 3")
        for cores, workers in ((2, "1"), (3, "2"), (8, "3"), (None, "3")):
            monkeypatch.setattr(engine, "server_cores", lambda cores=cores: cores)
            assert _workers_at_history_writes(engine, tmp_path) == [workers]
        monkeypatch.setattr(engine, "server_cores", lambda: 2)
        assert engine._fetchall(f"SELECT current_setting('{WORKERS}')")[0][0] == "3"
        engine.execute(f"SET {WORKERS} = 0")
        assert _workers_at_history_writes(engine, tmp_path) == ["0"]
        engine.apply_settings({WORKERS: 4})
        assert _workers_at_history_writes(engine, tmp_path) == ["4"]
        assert engine._fetchall(f"SELECT current_setting('{WORKERS}')")[0][0] == "4"


def test_the_working_rows_are_summed_from_the_counted_rows_in_one_process(
    pg_database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``PostgresEngine.serial``: the working rows summed from the counted rows (their groups
    nearly as many as the counted rows) run with no parallel workers, and the session's value
    is back after them; a spec's value is kept."""
    spec = people_spec(tmp_path, algorithm={"mondrian": {"weighted_from_rows": 0}})
    working_rows = re.compile(r'\s*CREATE UNLOGGED TABLE \S+\."rows" AS')
    # the people's rows are all distinct: counted rows are kept however many they are
    prepare_module = importlib.import_module("anonsql.prepare.prepare")
    monkeypatch.setattr(prepare_module, "COUNTED_MAX_SHARE", 1.0)

    def workers_at_working_rows(engine: PostgresEngine) -> list[str]:
        seen: list[str] = []

        def listen(sql: str) -> None:
            if working_rows.match(sql):
                read = "counted" if '."counted"' in sql else "source"
                workers = engine._fetchall(f"SELECT current_setting('{WORKERS}')")[0][0]
                seen.append(f"{workers} {read}")

        engine.listeners.append(listen)
        try:
            api.run(spec, engine=engine, replace=True)
        finally:
            engine.listeners.remove(listen)
        return seen

    with PostgresEngine(pg_database) as engine:
        load_people(engine)
        engine.execute(f"SET {WORKERS} = 3")
        assert workers_at_working_rows(engine) == ["0 counted"]
        assert engine._fetchall(f"SELECT current_setting('{WORKERS}')")[0][0] == "3"
        engine.apply_settings({WORKERS: 2})
        assert workers_at_working_rows(engine) == ["2 counted"]
