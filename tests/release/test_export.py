"""``anonsql export``: a release, alone, in a new DuckDB file or Parquet folder, opened as an
analyst who receives it would open it: exactly the relations analysts read, their rows as the
release shows them, and nothing of the source, the private schema or the recoding."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml
from click.testing import CliRunner
from helpers import load_people, people_spec
from one_to_many_fixtures import TABLE_1A, example_spec, load_table_1a

from anonsql import api
from anonsql.cli import main
from anonsql.engines import DuckDBEngine, Engine
from anonsql.errors import SpecError
from anonsql.spec.output import OutputNames
from anonsql.sql import TableName

PEOPLE = TableName("people", "anon")
PUBLIC = ("people", "people__classes", "people__certificate", "people__metrics")


def rows(table: pa.Table) -> list[tuple[Any, ...]]:
    """The rows of ``table`` as a sorted list (a relation has no order)."""
    return sorted((tuple(r.values()) for r in table.to_pylist()), key=repr)


def exported_duckdb(path: Path) -> dict[str, pa.Table]:
    """Every relation of an exported DuckDB file, as a fresh connection sees it."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        names = con.sql(
            "SELECT table_schema, table_name FROM information_schema.tables "
            "WHERE table_catalog = current_database()"
        ).fetchall()
        return {f"{s}.{n}": con.table(f'"{s}"."{n}"').to_arrow_table() for s, n in names}
    finally:
        con.close()


def exported_parquet(path: Path) -> dict[str, pa.Table]:
    return {p.name: pq.read_table(p) for p in sorted(path.iterdir())}


def strings(tables: Iterable[pa.Table]) -> set[str]:
    """Every text cell of ``tables`` (in lists too: fingerprints)."""
    found: set[str] = set()

    def add(value: Any) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, list | tuple):
            for item in value:
                add(item)
        elif isinstance(value, dict):
            for item in value.values():
                add(item)

    for table in tables:
        for row in table.to_pylist():
            for value in row.values():
                add(value)
    return found


def publish_people(engine: Engine, tmp_path: Path) -> None:
    load_people(engine)
    api.run(people_spec(tmp_path, k=5), engine=engine)
    # the release has private companions to leak: the recoding holds the source's cities
    assert engine.exists(OutputNames(PEOPLE).recoding)


def hidden_values(engine: Engine) -> set[str]:
    """Source values the release does not show, as text: the identifier's, and the exact ages
    and incomes the release generalized into intervals."""
    source = engine.query_arrow("select_all", relation=TableName("people", "main"))
    released = engine.query_arrow("select_all", relation=PEOPLE)
    hidden = set(source.column("name").to_pylist())
    for qid in ("age", "income"):
        exact = {str(v) for v in source.column(qid).to_pylist()}
        shown = set(released.column(qid).to_pylist())
        assert exact - shown, f"the release shows every {qid}: nothing to look for"
        hidden |= exact - shown
    return hidden


@pytest.mark.parametrize("export_format", ["duckdb", "parquet"])
def test_export_holds_the_release_alone(engine: Engine, tmp_path: Path, export_format: str) -> None:
    publish_people(engine, tmp_path)
    to = tmp_path / ("people.duckdb" if export_format == "duckdb" else "people")
    found = api.export(engine, "anon.people", to, format=export_format)
    if export_format == "duckdb":
        tables = exported_duckdb(to)
        expected = {f"anon.{name}": TableName(name, "anon") for name in PUBLIC}
    else:
        tables = exported_parquet(to)
        expected = {f"{name}.parquet": TableName(name, "anon") for name in PUBLIC}
    assert set(tables) == set(expected)
    assert {r.written_as: r.rows for r in found.relations} == {
        name: tables[name].num_rows for name in expected
    }
    for name, relation in expected.items():
        assert rows(tables[name]) == rows(engine.query_arrow("select_all", relation=relation))
    certificate = tables[next(n for n in expected if "people__certificate" in n)]
    assert certificate.column("verified").to_pylist() == [True]
    leaked = strings(tables.values()) & hidden_values(engine)
    assert not leaked, sorted(leaked)[:5]
    # only the export: no temporary file or folder left beside it
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_export_of_a_one_to_many_release(tmp_path: Path) -> None:
    with DuckDBEngine(tmp_path / "visits.duckdb") as engine:
        load_table_1a(engine)
        api.run(example_spec(tmp_path), engine=engine)
        names = OutputNames(TableName("visits", "anon"))
        assert engine.exists(names.person_map)
        found = api.export(engine, names.main, tmp_path / "export.duckdb")
        released = engine.query_arrow("select_all", relation=names.main)
    tables = exported_duckdb(tmp_path / "export.duckdb")
    public = ("", "__classes", "__certificate", "__metrics", "__by_person", "__fingerprints")
    assert set(tables) == {f"anon.visits{suffix}" for suffix in public}
    assert len(found.relations) == len(public)
    assert rows(tables["anon.visits"]) == rows(released)
    names_of_persons = {r[0] for r in TABLE_1A}
    assert not strings(tables.values()) & names_of_persons


def test_export_refuses_and_replaces(tmp_path: Path) -> None:
    db = tmp_path / "people.duckdb"
    with DuckDBEngine(db) as engine:
        publish_people(engine, tmp_path)
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump({**people_spec(tmp_path), "database": db.name}), "utf-8")
    runner = CliRunner()
    to = tmp_path / "export.duckdb"
    made = runner.invoke(main, ["export", str(spec), "--to", str(to), "--json"])
    assert made.exit_code == 0, made.output
    assert made.stdout.count("\n") == 1 and '"anon.people": 400' in made.stdout
    again = runner.invoke(main, ["export", str(spec), "--to", str(to)])
    assert again.exit_code == 2 and "exists" in again.stderr and "--replace" in again.stderr
    replaced = runner.invoke(
        main,
        ["export", "--database", str(db), "--output", "anon.people", "--to", str(to), "--replace"],
    )
    assert replaced.exit_code == 0, replaced.output
    assert set(exported_duckdb(to)) == {f"anon.{name}" for name in PUBLIC}
    # the source database itself, a release that does not exist, a format that does not
    for args, words in [
        (["--output", "anon.people", "--to", str(db), "--replace"], "read from"),
        (["--output", "anon.nope", "--to", str(tmp_path / "n.duckdb")], "not a relation"),
        (["--output", "anon.people", "--to", str(tmp_path / "n"), "--format", "csv"], "csv"),
        (["--output", "anon.people", "--to", str(tmp_path / "no" / "n.duckdb")], "folder"),
    ]:
        refused = runner.invoke(main, ["export", "--database", str(db), *args])
        assert refused.exit_code == 2, refused.output
        assert words in refused.stderr
    assert not (tmp_path / "n.duckdb").exists() and not (tmp_path / "n").exists()


@pytest.mark.parametrize("export_format", ["duckdb", "parquet"])
def test_an_interrupted_export_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, export_format: str
) -> None:
    db = tmp_path / "people.duckdb"
    with DuckDBEngine(db) as engine:
        publish_people(engine, tmp_path)
        before = sorted(p.name for p in tmp_path.iterdir())
        calls: list[int] = []

        def interrupted(*args: Any, **kwargs: Any) -> None:
            calls.append(1)
            if len(calls) == 2:  # Ctrl-C after the first relation was written
                raise KeyboardInterrupt
            original(*args, **kwargs)

        if export_format == "duckdb":
            original = DuckDBEngine.load_arrow
            monkeypatch.setattr(DuckDBEngine, "load_arrow", interrupted)
        else:
            original = pq.write_table
            monkeypatch.setattr(pq, "write_table", interrupted)
        with pytest.raises(KeyboardInterrupt):
            api.export(engine, PEOPLE, tmp_path / "export", format=export_format)
        assert sorted(p.name for p in tmp_path.iterdir()) == before
        # an existing export stays as it was when its replacement is interrupted
        monkeypatch.undo()
        api.export(engine, PEOPLE, tmp_path / "export", format=export_format)
        kept = sorted(p.name for p in tmp_path.iterdir())
        calls.clear()
        monkeypatch.setattr(
            DuckDBEngine if export_format == "duckdb" else pq,
            "load_arrow" if export_format == "duckdb" else "write_table",
            interrupted,
        )
        with pytest.raises(KeyboardInterrupt):
            api.export(engine, PEOPLE, tmp_path / "export", format=export_format, replace=True)
        assert sorted(p.name for p in tmp_path.iterdir()) == kept


def test_export_checks_its_arguments(tmp_path: Path) -> None:
    with DuckDBEngine(tmp_path / "empty.duckdb") as engine:
        with pytest.raises(SpecError, match="not an export format"):
            api.export(engine, PEOPLE, tmp_path / "x", format="csv")
        with pytest.raises(SpecError, match="not a relation published by anonsql"):
            api.export(engine, PEOPLE, tmp_path / "x")
    assert not (tmp_path / "x").exists()
