"""A source outside the default schema is versioned like any other: a new history's batch
(a temporary view on DuckDB, a copy on PostgreSQL) reads it by its schema, and a later version
finds its changes."""

from __future__ import annotations

from pathlib import Path

from helpers import load_people, people_spec
from history_columns import history_columns  # noqa: F401  (autouse: text and codes)

from anonsql import api
from anonsql.engines import Engine
from anonsql.sql import TableName


def test_a_source_in_its_own_schema_publishes_versions(engine: Engine, tmp_path: Path) -> None:
    load_people(engine)
    engine.execute('CREATE SCHEMA "sales data"')
    engine.execute(
        "CREATE TABLE \"sales data\".people AS SELECT * FROM main.people WHERE name NOT LIKE '%7'"
    )
    spec = {**people_spec(tmp_path, k=5), "source": '"sales data".people'}
    first = api.run(spec, engine=engine)
    assert first.check.holds and first.certificate["version"] == 1
    rows = engine.count_rows(TableName("people", "sales data"))
    assert engine.count_rows(first.names.main) == rows - first.certificate["held_rows"]
    engine.execute(
        "INSERT INTO \"sales data\".people SELECT * FROM main.people WHERE name LIKE '%7'"
    )
    second = api.run(spec, engine=engine)
    assert second.check.holds and second.certificate["version"] == 2
    assert second.certificate["source_rows"] == engine.count_rows(TableName("people", "main"))
    assert second.certificate["source_rows"] > rows
