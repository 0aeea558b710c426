"""The source's rows counted once (``Engine.counts_source_once``, PostgreSQL's): the weighted
working rows and the recovery measure read one table of the source's rows counted per distinct
combination of the quasi-identifier, sensitive and published columns instead of each grouping
the source. On every engine the run with the counted rows publishes the same release, with
the same recovery figures and working rows, as the run without; a later version reads the
source itself for the recovery measure (its batch's counted rows are not the source's); and
counted rows too many to save a grouping are dropped."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import load_people, people_spec, snapshot

from anonsql import api
from anonsql.engines import Engine
from anonsql.sql import SqlRenderer, TableName

RELEASE = TableName("people", "anon")
# the module (its package exports a function of the same name)
prepare_module = importlib.import_module("anonsql.prepare.prepare")


def _spec(tmp_path: Path) -> dict[str, Any]:
    # weighted working rows from the first row, so the counted rows serve them
    return people_spec(tmp_path, algorithm={"mondrian": {"weighted_from_rows": 0}})


def _run(engine: Engine, tmp_path: Path, statements: list[str]) -> dict[str, Any]:
    engine.listeners.append(statements.append)
    try:
        result = api.run(_spec(tmp_path), engine=engine, replace=True)
    finally:
        engine.listeners.remove(statements.append)
    certificate = result.certificate
    assert certificate["verified"]
    kept = ("linked_columns", "attacks", "classes", "ncp_percent", "published_rows", "violations")
    assert certificate["linked_columns"]  # the recovery measure ran
    return {"rows": snapshot(engine, RELEASE), **{k: certificate[k] for k in kept}}


#: The counted rows' table, as each engine quotes it.
_COUNTED = re.compile(r'\.["`]counted["`]')


def _reads_counted(statement: str) -> bool:
    return _COUNTED.search(statement) is not None


def _counted(statements: list[str]) -> list[str]:
    """The statements creating the counted rows."""
    return [
        s for s in statements if re.match(r'\s*CREATE (UNLOGGED )?TABLE \S+\.["`]counted["`] AS', s)
    ]


@pytest.fixture
def recovery_sources(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of the relation each recovery query (``linked/recovery``) reads as the source,
    in order, with `` distinct`` added where it is read as distinct combinations (not grouped
    again)."""
    seen: list[str] = []
    render = SqlRenderer.render

    def spy(self: SqlRenderer, template: str, /, **params: Any) -> str:
        if template == "linked/recovery":
            name = getattr(params["source"], "name", str(params["source"]))
            seen.append(name + (" distinct" if params.get("distinct") else ""))
        return render(self, template, **params)

    monkeypatch.setattr(SqlRenderer, "render", spy)
    return seen


def test_counted_rows_publish_the_same_release(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, recovery_sources: list[str]
) -> None:
    load_people(engine)
    # the people's rows are all distinct: counted rows are kept however many they are
    monkeypatch.setattr(prepare_module, "COUNTED_MAX_SHARE", 1.0)
    results, seen, sources = [], [], []
    for once in (False, True):
        monkeypatch.setattr(type(engine), "counts_source_once", once)
        statements: list[str] = []
        recovery_sources.clear()
        results.append(_run(engine, tmp_path, statements))
        seen.append(statements)
        sources.append(set(recovery_sources))
    assert not _counted(seen[0]) and len(_counted(seen[1])) == 1
    # the working rows and the recovery measure read them, not the source
    working_rows = re.compile(r'\s*CREATE (UNLOGGED )?TABLE \S+\.["`]?rows["`]? AS')
    built = [s for s in seen[1] if working_rows.match(s)]
    assert len(built) == 1 and _reads_counted(built[0])
    # grouped by exactly the columns a recovery query reads (every published column), they are
    # read as they are; a query of fewer columns groups them
    assert sources[0] and not any("counted" in s for s in sources[0])
    assert sources[1] == {"counted", "counted distinct"}
    assert results[0] == results[1]


def test_a_later_version_reads_the_source(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, recovery_sources: list[str]
) -> None:
    if not engine.transactional_ddl:
        pytest.skip("releases are versioned only on engines with transactional DDL")
    load_people(engine)
    monkeypatch.setattr(type(engine), "counts_source_once", True)
    monkeypatch.setattr(prepare_module, "COUNTED_MAX_SHARE", 1.0)
    api.run(_spec(tmp_path), engine=engine, replace=True)
    engine.execute(
        "UPDATE main.people SET age = age + 1 "
        "WHERE name IN (SELECT name FROM main.people ORDER BY name LIMIT 20)"
    )
    recovery_sources.clear()
    result = api.run(_spec(tmp_path), engine=engine)
    assert result.certificate["verified"]
    assert recovery_sources and not any("counted" in s for s in recovery_sources)


def test_counted_rows_too_many_are_dropped(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, recovery_sources: list[str]
) -> None:
    load_people(engine)
    monkeypatch.setattr(type(engine), "counts_source_once", True)
    # counted rows of more than the allowed share of the source's rows are not kept
    monkeypatch.setattr(prepare_module, "COUNTED_MAX_SHARE", 0.0)
    statements: list[str] = []
    engine.listeners.append(statements.append)
    try:
        result = api.run(_spec(tmp_path), engine=engine, replace=True)
    finally:
        engine.listeners.remove(statements.append)
    assert result.certificate["verified"]
    assert len(_counted(statements)) == 1
    assert recovery_sources and not any("counted" in s for s in recovery_sources)
