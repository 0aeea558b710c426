"""A new version finds its batch and its pending deletions by row hash alone (one pass)
and falls back to keying every source row when a copy of a published row was added or removed
(anonsql.versions.delta). Both paths must give the same history: checked here by running the
same changes with the fast path on and forced off, on every engine."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from helpers import load_people, people_spec
from history_columns import history_columns  # noqa: F401  (autouse: text and codes)

from anonsql import api
from anonsql.engines import Engine
from anonsql.sql import TableName
from anonsql.versions import delta

K = 5
ROWS = TableName("people__version_rows", "anon_private")
LEFT = TableName("people__left_rows", "anon_private")
KEYS = ["__anonsql_row_hash", "__anonsql_row_ord", "__anonsql_since", "__anonsql_until"]


def history(engine: Engine) -> list[tuple[str, ...]]:
    """Every row the release published, with the versions it was published in and left in:
    the version's rows (until None) and the rows that left."""
    published: pd.DataFrame = engine.query_arrow("select_all", relation=ROWS).to_pandas()
    published["__anonsql_until"] = None
    left: pd.DataFrame = engine.query_arrow("select_all", relation=LEFT).to_pandas()
    frame = pd.concat([published[KEYS], left[KEYS]])
    return sorted(tuple(str(v) for v in row) for row in frame.itertuples(index=False))


def copies(engine: Engine, n: int) -> None:
    """``n`` more identical copies of the row named 'person 2' (kept aside as ``main.twin``)."""
    engine.execute("CREATE TABLE main.twin AS SELECT * FROM main.people WHERE name = 'person 2'")
    for _ in range(n):
        engine.execute("INSERT INTO main.people SELECT * FROM main.twin")


def one_copy_left(engine: Engine) -> None:
    engine.execute("DELETE FROM main.people WHERE name = 'person 2'")
    engine.execute("INSERT INTO main.people SELECT * FROM main.twin")


def changes(engine: Engine) -> list[Callable[[], None]]:
    return [
        # new people only: the fast path
        lambda: engine.execute(
            "INSERT INTO main.people SELECT 'new ' || name, age, city, income, disease, note "
            "FROM main.people WHERE name LIKE 'person 1%'"
        ),
        # copies of a published row: the hash is on both sides with more source rows
        lambda: copies(engine, 2 * K),
        # deletions of other people: the fast path again
        lambda: engine.execute("DELETE FROM main.people WHERE name LIKE 'person 3%'"),
        # all copies of that row removed but one: fewer source rows than published
        lambda: one_copy_left(engine),
    ]


def versions(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, fast: bool
) -> tuple[list[list[tuple[str, ...]]], list[bool]]:
    taken: list[bool] = []
    original = delta._changed_by_key

    def spy(*args: Any, **kwargs: Any) -> bool:
        found = fast and original(*args, **kwargs)
        taken.append(found)
        return found

    monkeypatch.setattr(delta, "_changed_by_key", spy)
    load_people(engine)
    # the copies are one person's rows: certified as rows, knowingly
    spec = people_spec(tmp_path, k=K, record_level="acknowledged")
    api.run(spec, engine=engine)
    kept = [history(engine)]
    for change in changes(engine):
        change()
        api.run(spec, engine=engine)
        kept.append(history(engine))
    assert api.check_output(engine, "anon.people").holds
    return kept, taken


def test_both_paths_give_the_same_history(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast, taken = versions(engine, tmp_path, monkeypatch, fast=True)
    # the copies added and removed send the run to the exact path; the others do not
    assert taken == [True, False, True, False]
    engine.execute("DROP SCHEMA anon CASCADE")
    engine.execute("DROP SCHEMA anon_private CASCADE")
    engine.drop_existing([TableName("people", "main"), TableName("twin", "main")])
    exact, forced = versions(engine, tmp_path, monkeypatch, fast=False)
    assert forced == [False] * 4
    assert fast == exact
    # the copies were published (a class of their own) and most left again
    assert fast[2] != fast[1] and fast[4] != fast[3]


def test_repeated_hashes_found_in_parts_key_the_rows_alike(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new history's repeated row hashes are found part by part of the hash space on large
    sources (``delta.hash_parts``): the rows get the same keys and ordinals either way."""
    load_people(engine)
    copies(engine, 3)
    spec = people_spec(tmp_path, k=K, record_level="acknowledged")
    api.run(spec, engine=engine)
    whole = history(engine)
    rows = engine.count_rows(TableName("people", "main"))
    monkeypatch.setattr(delta, "ROWS_PER_HASH_PART", max(1, rows // 5))
    assert delta.hash_parts(rows) >= 5
    statements: list[str] = []
    execute = type(engine).execute

    def recorded(self: Engine, sql: str, *args: Any, **kwargs: Any) -> Any:
        statements.append(sql)
        return execute(self, sql, *args, **kwargs)

    monkeypatch.setattr(type(engine), "execute", recorded)
    api.run(spec, engine=engine, replace=True)
    if engine.dialect == "duckdb":  # PostgreSQL's batch is a keyed copy (one window)
        parts = [s for s in statements if "v_repeated" in s and "% " in s]
        assert len(parts) >= 5
    assert history(engine) == whole
    # the copies were numbered 1..4 in both
    ords = {row[1] for row in whole}
    assert {"1", "2", "3", "4"} <= ords


def test_hash_parts() -> None:
    assert delta.hash_parts(0) == 1
    assert delta.hash_parts(delta.ROWS_PER_HASH_PART) == 1
    assert delta.hash_parts(delta.ROWS_PER_HASH_PART + 1) == 2
    assert delta.hash_parts(1_000_000_000) == 8


def test_new_history_checksum_is_the_sources(engine: Engine, tmp_path: Path) -> None:
    """A new history's checksum describes the source as ``anonsql status`` reads it, however
    it was summed (PostgreSQL sums the keys of the rows once placed, and writes the history
    again, numbered, when a hash repeats: Engine.numbers_repeats_after_sums)."""
    load_people(engine)
    copies(engine, 3)
    spec = people_spec(tmp_path, k=K, record_level="acknowledged")
    api.run(spec, engine=engine)
    status = api.status(engine, "anon.people")
    assert not status.stale and status.new_rows == 0 and status.held_rows == 0
    # every source row is published once, the copies numbered 1..4
    whole = history(engine)
    assert len(whole) == engine.count_rows(TableName("people", "main"))
    assert len({row[:2] for row in whole}) == len(whole)
    assert {"1", "2", "3", "4"} <= {row[1] for row in whole}
    # one more copy: the source is no longer the certified one
    engine.execute("INSERT INTO main.people SELECT * FROM main.twin")
    assert api.status(engine, "anon.people").stale
