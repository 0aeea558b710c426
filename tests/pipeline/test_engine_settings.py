"""``engine_settings``: session settings from the spec (DuckDB's memory limit and spill folder
for tables larger than memory), whitelisted per engine, refused with the key and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import load_people, people_spec

from anonsql import api
from anonsql.engines import DuckDBEngine, Engine, PostgresEngine
from anonsql.errors import SpecError


def _database(tmp_path: Path) -> str:
    db = tmp_path / "people.duckdb"
    with DuckDBEngine(db) as engine:
        load_people(engine)
    return str(db)


def test_duckdb_settings_are_applied_to_the_run(tmp_path: Path) -> None:
    spill = tmp_path / "spill"
    settings = {"memory_limit": "512MB", "threads": 1, "temp_directory": str(spill)}
    spec = people_spec(tmp_path, database=_database(tmp_path), engine_settings=settings)
    engine = api.open_engine(api.as_spec(spec))
    try:
        row = engine.fetchall(
            "SELECT current_setting('threads'), current_setting('temp_directory')"
        )[0]
        assert int(row[0]) == 1 and row[1] == str(spill)
    finally:
        engine.close()
    result = api.run(spec)
    assert result.certificate["verified"]


@pytest.mark.parametrize(
    ("settings", "key"),
    [
        ({"enable_external_access": False}, "engine_settings.enable_external_access"),
        ({"memory_limit": "lots"}, "engine_settings.memory_limit"),
    ],
)
def test_unknown_or_refused_settings_name_the_key(
    tmp_path: Path, settings: dict[str, object], key: str
) -> None:
    spec = people_spec(tmp_path, database=_database(tmp_path), engine_settings=settings)
    with pytest.raises(SpecError) as err:
        api.run(spec)
    assert err.value.key == key and "Fix:" in str(err.value)


def test_every_engine_applies_its_own_settings(engine: Engine) -> None:
    samples = {"memory_limit": "1GB", "work_mem": "64MB"}
    name = next(n for n in samples if n in engine.settings)
    engine.apply_settings({name: samples[name]})
    with pytest.raises(SpecError):
        engine.apply_settings({"not_a_setting": 1})


@pytest.mark.postgres
def test_the_spec_setting_holds_inside_the_publish_transaction(pg_database: str) -> None:
    """PostgreSQL's publish transaction sets its planner defaults (``work_mem`` 256 MB) with
    SET LOCAL, except a setting the spec gave: a smaller ``work_mem`` on a busy server holds
    for the statements that need it most."""
    show = "SELECT current_setting('work_mem'), current_setting('jit')"
    with PostgresEngine(pg_database) as engine:
        with engine.transaction():
            assert engine.fetchall(show) == [("256MB", "off")]
        engine.apply_settings({"work_mem": "32MB"})
        with engine.transaction():
            assert engine.fetchall(show) == [("32MB", "off")]
        assert engine.fetchall(show)[0][0] == "32MB"
