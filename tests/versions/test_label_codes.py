"""The version's rows hold each published quasi-identifier as a code (``__labels`` is the
dictionary), and the views decode them (``versions/_decoded.sql``). Checked independently:
the history decoded in pandas from the dictionary is the published release; the dictionary
holds exactly the labels published, never a suppressed partition's; a column with too many
labels, or a history written without the dictionary, stays text and is published on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from helpers import history_frame, load_people, people_spec

from anonsql import api
from anonsql.engines import DuckDBEngine, Engine
from anonsql.errors import AnonsqlError
from anonsql.sql import TableName
from anonsql.versions import layout

RELEASE = TableName("people", "anon")
ROWS = TableName("people__version_rows", "anon_private")
LABELS = TableName("people__labels", "anon_private")
QIDS = ["age", "city", "income"]


@pytest.fixture(autouse=True)
def history_columns(monkeypatch: pytest.MonkeyPatch) -> str:
    """Codes, as a source of ``CODED_FROM_ROWS`` rows would have them (tests/versions/conftest)."""
    monkeypatch.setattr(layout, "CODED_FROM_ROWS", 0)
    return "codes"


def frame(engine: Engine, relation: TableName) -> pd.DataFrame:
    df: pd.DataFrame = engine.query_arrow("select_all", relation=relation).to_pandas()
    return df


def rows_of(df: pd.DataFrame, columns: list[str]) -> list[tuple[str, ...]]:
    return sorted(tuple(str(v) for v in row) for row in df[columns].itertuples(index=False))


def view_definition(engine: Engine, relation: TableName) -> str:
    if isinstance(engine, DuckDBEngine):
        sql = "SELECT sql FROM duckdb_views() WHERE schema_name = 'anon' AND view_name = 'people'"
    else:
        sql = "SELECT pg_get_viewdef('anon.people'::regclass)"
    return str(engine.fetchall(sql)[0][0])


def column_types(engine: Engine, relation: TableName) -> dict[str, bool]:
    """Whether each column of ``relation`` is an integer."""
    return {c.name: c.is_integer for c in engine.columns(relation) or []}


def assert_history_is_the_release(engine: Engine) -> None:
    published = frame(engine, RELEASE)
    history = history_frame(engine, ROWS)
    columns = list(published.columns)
    assert rows_of(history, columns) == rows_of(published, columns)


def changed(engine: Engine) -> None:
    engine.execute(
        "INSERT INTO main.people SELECT 'new ' || name, age + 1, city, income, disease, note "
        "FROM main.people WHERE name LIKE 'person 1%'"
    )
    engine.execute("DELETE FROM main.people WHERE name LIKE 'person 3%'")


def test_the_history_holds_codes_and_the_release_their_labels(
    engine: Engine, tmp_path: Path
) -> None:
    load_people(engine)
    spec = people_spec(tmp_path)
    assert api.run(spec, engine=engine).check.holds
    types = column_types(engine, ROWS)
    assert all(types[q] for q in QIDS) and not types["disease"]
    assert_history_is_the_release(engine)
    # a later version appends the labels it publishes; every code keeps its label
    before = frame(engine, LABELS)
    changed(engine)
    second = api.run(spec, engine=engine)
    assert second.certificate["version"] == 2 and second.check.holds
    after = frame(engine, LABELS)
    assert rows_of(before, list(before.columns)) == rows_of(
        after.merge(before[["__anonsql_column", "__anonsql_code"]]), list(before.columns)
    )
    assert_history_is_the_release(engine)
    for column, labels in after.groupby("__anonsql_column"):
        assert sorted(labels["__anonsql_code"]) == list(range(1, len(labels) + 1)), column
        # every label the release ever published, and only those (the deleted rows' classes
        # were published by version 1)
        assert set(labels["__anonsql_label"]) >= set(frame(engine, RELEASE)[column].dropna())
    assert api.check_output(engine, "anon.people").holds


def test_a_suppressed_partitions_labels_are_never_listed(engine: Engine, tmp_path: Path) -> None:
    """Two people in Toronto are too few for a class of their own: held back, their city is
    in no view's definition and not in the dictionary."""
    load_people(engine)
    engine.execute(
        "UPDATE main.people SET city = 'Boston' WHERE city = 'Toronto' "
        "AND name NOT IN ('person 1', 'person 2')"
    )
    engine.execute("UPDATE main.people SET city = 'Toronto' WHERE name IN ('person 1', 'person 2')")
    spec = people_spec(tmp_path, algorithm="full_domain", suppression_limit=0.05)
    for column in ("age", "income"):
        spec["columns"][column] = {"role": "insensitive", "acknowledge_linked": True}
    result = api.run(spec, engine=engine)
    assert result.check.holds and result.certificate["held_rows"] == 2
    published = set(frame(engine, RELEASE)["city"])
    assert "Toronto" not in published and len(published) == 7
    labels = frame(engine, LABELS)
    assert set(labels["__anonsql_label"]) == published
    definition = view_definition(engine, RELEASE)
    assert "Boston" in definition and "Toronto" not in definition


@pytest.mark.parametrize("dictionary", ["too many labels", "written before the dictionary"])
def test_a_text_history_is_published_on(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dictionary: str
) -> None:
    load_people(engine)
    spec: dict[str, Any] = people_spec(tmp_path)
    # the city has 8 leaves and 3 levels: at most 12 labels; the age and income have more
    monkeypatch.setattr(layout, "MAX_CODED_LABELS", 12)
    assert api.run(spec, engine=engine).check.holds
    types = column_types(engine, ROWS)
    assert types["city"] and not types["age"] and not types["income"]
    if dictionary == "written before the dictionary":
        monkeypatch.setattr(layout, "MAX_CODED_LABELS", 0)
        assert api.run(spec, engine=engine, replace=True).check.holds
        types = column_types(engine, ROWS)
        assert not any(types[q] for q in QIDS)
        engine.drop(LABELS)
    assert_history_is_the_release(engine)
    changed(engine)
    monkeypatch.setattr(layout, "MAX_CODED_LABELS", 10_000)
    monkeypatch.setattr(layout, "CODED_FROM_ROWS", 0)
    second = api.run(spec, engine=engine)
    assert second.certificate["version"] == 2 and second.check.holds
    # the columns stay as the history was created, whatever the limit now
    assert column_types(engine, ROWS) == types
    assert_history_is_the_release(engine)
    assert api.check_output(engine, "anon.people").holds


def test_a_small_source_keeps_text(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Below ``CODED_FROM_ROWS`` rows the history holds text and no dictionary is kept."""
    load_people(engine)
    monkeypatch.setattr(layout, "CODED_FROM_ROWS", 401)
    assert api.run(people_spec(tmp_path), engine=engine).check.holds
    assert not any(column_types(engine, ROWS)[q] for q in QIDS)
    assert engine.relation_kind(LABELS) is None
    monkeypatch.setattr(layout, "CODED_FROM_ROWS", 400)
    assert api.run(people_spec(tmp_path), engine=engine, replace=True).check.holds
    assert all(column_types(engine, ROWS)[q] for q in QIDS)


def test_a_dictionary_missing_a_code_is_refused(engine: Engine, tmp_path: Path) -> None:
    """A label deleted from the dictionary behind anonsql's back would shift every later label
    onto another code: the next version refuses, naming the column and --replace, and the
    release analysts read is left as it was."""
    load_people(engine)
    spec = people_spec(tmp_path)
    assert api.run(spec, engine=engine).check.holds
    before = frame(engine, RELEASE)
    engine.execute(
        "DELETE FROM anon_private.people__labels "
        "WHERE __anonsql_column = 'city' AND __anonsql_code = 1"
    )
    changed(engine)
    with pytest.raises(AnonsqlError) as refused:
        api.run(spec, engine=engine)
    message = str(refused.value)
    assert "'city'" in message and "--replace" in message
    assert not any(label in message for label in set(before["city"]))
    after = frame(engine, RELEASE)
    assert rows_of(after, list(before.columns)) == rows_of(before, list(before.columns))
