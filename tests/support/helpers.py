"""Small builders shared by the pipeline tests."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from anonsql.engines import Engine
from anonsql.privacy.check import CheckResult, Grouping, PlannedCheck
from anonsql.sql import TableName
from anonsql.sql.quoting import ident, literal

CITY_HIERARCHY = """Lyon;FR;EU;*
Paris;FR;EU;*
Nice;FR;EU;*
Rome;IT;EU;*
Milan;IT;EU;*
Boston;US;NA;*
Austin;US;NA;*
Toronto;CA;NA;*
"""


def people(n: int = 400, seed: int = 0) -> pa.Table:
    """A small person table: numeric age and income, a city with a 3-level hierarchy."""
    rng = random.Random(seed)
    cities = [line.split(";")[0] for line in CITY_HIERARCHY.splitlines()]
    diseases = ["flu", "cold", "asthma", "diabetes", "ulcer"]
    return pa.table(
        {
            "name": [f"person {i}" for i in range(n)],
            "age": [rng.randint(18, 90) for _ in range(n)],
            "city": [rng.choice(cities) for _ in range(n)],
            "income": [rng.randint(10, 200) * 1000 for _ in range(n)],
            "disease": [rng.choice(diseases) for _ in range(n)],
            "note": [rng.choice(["a", "b"]) for _ in range(n)],
        }
    )


def load_people(
    engine: Engine, table: TableName = TableName("people", "main"), **kwargs: Any
) -> TableName:
    engine.load_arrow(table, people(**kwargs))
    return table


def people_spec(tmp: Path, *, k: int = 5, **overrides: Any) -> dict[str, Any]:
    hierarchy = tmp / "city.csv"
    hierarchy.write_text(CITY_HIERARCHY, encoding="utf-8")
    spec: dict[str, Any] = {
        "source": "main.people",
        "output": {"schema": "anon", "name": "people"},
        "columns": {
            "name": {"role": "identifier"},
            "age": {"role": "quasi_identifier", "type": "numeric"},
            "city": {"role": "quasi_identifier", "hierarchy": str(hierarchy)},
            "income": {"role": "quasi_identifier", "type": "numeric"},
            # random beside the quasi-identifiers, the disease gives a few ages away in a table
            # this small, and the note refines the classes below k (tests/pipeline/
            # test_linkage.py): the tests that use this spec publish them acknowledged
            "disease": {"role": "sensitive", "acknowledge_linked": True},
            "note": {"role": "insensitive", "acknowledge_linked": True},
        },
        "privacy": [{"k_anonymity": {"k": k}}],
    }
    spec.update(overrides)
    return spec


@contextmanager
def recorded(engine: Engine) -> Iterator[list[str]]:
    """The statements ``engine`` runs inside the block, in order."""
    sent: list[str] = []
    engine.listeners.append(sent.append)
    try:
        yield sent
    finally:
        engine.listeners.remove(sent.append)


def snapshot(engine: Engine, relation: TableName) -> list[tuple[Any, ...]]:
    """All rows of a relation, sorted, to compare before/after."""
    return sorted(engine.query("select_all", relation=relation), key=repr)


def work_schemas(engine: Engine) -> list[tuple[Any, ...]]:
    """Working schemas left behind by runs (there should be none)."""
    return engine.fetchall(
        "SELECT schema_name FROM information_schema.schemata "
        "WHERE schema_name LIKE 'anonsql_work_%'"
    )


#: What a spy on the publish gate's checks sees of each call: the engine, the release's main
#: relation, the planned checks and the grouping the checks may read instead of the rows.
GateCall = Callable[[Engine, TableName, Sequence[PlannedCheck], Grouping | None], None]


def spy_gate_checks(monkeypatch: pytest.MonkeyPatch, during: GateCall) -> None:
    """Call ``during`` with each of the verify step's ``run_checks`` calls, while the release's
    relations exist, before the checks run as they would."""
    verify_step = importlib.import_module("anonsql.verify.verify")  # the function shadows it
    original = verify_step.run_checks

    def spy(
        e: Engine,
        relation: TableName,
        checks: Sequence[PlannedCheck],
        grouping: Grouping | None = None,
    ) -> CheckResult:
        during(e, relation, checks, grouping)
        result: CheckResult = original(e, relation, checks, grouping)
        return result

    monkeypatch.setattr(verify_step, "run_checks", spy)


def history_frame(engine: Engine, table: TableName) -> Any:
    """A private history table (``<release>__version_rows`` or ``__left_rows``) as pandas, its
    coded columns replaced by their labels from the release's dictionary (``__labels``),
    decoded here rather than through anonsql's own decoding views."""
    frame = engine.query_arrow("select_all", relation=table).to_pandas()
    base = table.name.rsplit("__", 1)[0]
    labels = TableName(f"{base}__labels", table.schema)
    if engine.relation_kind(labels) is None:
        return frame
    dictionary = engine.query_arrow("select_all", relation=labels).to_pandas()
    for column, entries in dictionary.groupby("__anonsql_column"):
        lookup = dict(zip(entries["__anonsql_code"], entries["__anonsql_label"], strict=True))
        frame[column] = [None if c is None or c != c else lookup[int(c)] for c in frame[column]]
    return frame


def tamper_history(
    engine: Engine, release: TableName, private: str, values: dict[str, str]
) -> None:
    """Insert one row of published ``values`` (labels) into a versioned release's private
    history: a broken release, made behind anonsql's back. In a history of codes the labels
    join the dictionary and the release's view is published again to list them."""
    rows = TableName(f"{release.name}__version_rows", private)
    labels = TableName(f"{release.name}__labels", private)
    if engine.relation_kind(labels) is None:  # a history of text: the view shows the row
        names = ", ".join(ident(c) for c in values)
        listed = ", ".join(literal(v) for v in values.values())
        engine.execute(f"INSERT INTO {rows.sql()} ({names}) VALUES ({listed})")
        return
    dictionary = engine.query_arrow("select_all", relation=labels).to_pandas()
    coded = set(dictionary["__anonsql_column"])
    selected = []
    for column, value in values.items():
        if column not in coded:
            selected.append(literal(value))
            continue
        known = dictionary[
            (dictionary["__anonsql_column"] == column) & (dictionary["__anonsql_label"] == value)
        ]
        if known.empty:
            engine.execute(
                f"INSERT INTO {labels.sql()} SELECT {literal(column)}, MAX(__anonsql_code) + 1, "
                f"{literal(value)} FROM {labels.sql()} WHERE __anonsql_column = {literal(column)}"
            )
        selected.append(
            f"(SELECT MAX(__anonsql_code) FROM {labels.sql()} WHERE __anonsql_column = "
            f"{literal(column)} AND __anonsql_label = {literal(value)})"
        )
    names = ", ".join(ident(c) for c in values)
    engine.execute(f"INSERT INTO {rows.sql()} ({names}) SELECT {', '.join(selected)}")
    columns = [c.name for c in engine.columns(release) or []]
    decode: dict[str, list[str]] = {}
    for column, _, label in engine.query("versions/labels_read", labels=labels):
        decode.setdefault(str(column), []).append(str(label))
    engine.drop(release, view=True)
    engine.run("versions/version_view", target=release, rows=rows, columns=columns, decode=decode)
