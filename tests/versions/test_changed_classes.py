"""A later version's gate checks the classes it changes (``versions/touched.sql``): every row
of each class, as analysts group them, that gained or lost rows at this version. The other
classes hold the rows the previous version was verified with, under the same spec.

Checked against pandas on every engine, and by tampering with the private history: a bad class
among the changed ones is refused by the models' check; one outside them is not read by it and
is caught by the row accounting instead (``anonsql check`` reads the whole release)."""

from __future__ import annotations

import importlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from helpers import history_frame, load_people, people_spec, spy_gate_checks
from history_columns import history_columns  # noqa: F401  (autouse: text and codes)

from anonsql import api
from anonsql.engines import Engine
from anonsql.errors import VerificationError
from anonsql.privacy.check import Grouping, PlannedCheck
from anonsql.sql import TableName
from anonsql.versions.layout import VERSION_ROWS

K = 5
QIDS = ["age", "city", "income"]
ROWS = TableName("people__version_rows", "anon_private")
LEFT = TableName("people__left_rows", "anon_private")
LABELS = TableName("people__labels", "anon_private")
MAIN = TableName("people", "anon")


def frame(engine: Engine, relation: TableName) -> pd.DataFrame:
    df: pd.DataFrame = engine.query_arrow("select_all", relation=relation).to_pandas()
    return df


def counted(series: pd.Series) -> list[tuple[tuple[str, ...], int]]:
    """A count per group key (a tuple of values), as sortable text."""
    keys: list[tuple[Any, ...]] = [tuple(k) if isinstance(k, tuple) else (k,) for k in series.index]
    return sorted((tuple(str(v) for v in key), int(n)) for key, n in zip(keys, series, strict=True))


def rows_of(df: pd.DataFrame, columns: list[str]) -> list[tuple[str, ...]]:
    return sorted(tuple(str(v) for v in row) for row in df[columns].itertuples(index=False))


def two_versions(engine: Engine, tmp_path: Path) -> dict[str, Any]:
    load_people(engine)
    spec = people_spec(tmp_path, k=K)
    api.run(spec, engine=engine)
    engine.execute(
        "INSERT INTO main.people SELECT 'new ' || name, age, city, income, disease, note "
        "FROM main.people WHERE name LIKE 'person 1%'"
    )
    engine.execute("DELETE FROM main.people WHERE name LIKE 'person 3%'")
    return spec


def test_the_gate_reads_every_row_of_the_changed_classes(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = two_versions(engine, tmp_path)
    read: list[pd.DataFrame] = []
    grouped: list[pd.DataFrame] = []

    def during(
        e: Engine,
        relation: TableName,
        checks: Sequence[PlannedCheck],
        grouping: Grouping | None,
    ) -> None:
        read.extend(frame(e, c.relation) for c in checks)
        # the weighted models read the changed classes' groups (versions/touched, grouped)
        assert grouping is not None and {c.relation for c in checks} == {grouping.of}
        grouped.append(frame(e, grouping.relation))

    spy_gate_checks(monkeypatch, during)
    second = api.run(spec, engine=engine)
    assert second.certificate["version"] == 2 and second.check.holds
    assert len(read) == 1
    published = frame(engine, MAIN)
    rows, left = history_frame(engine, ROWS), history_frame(engine, LEFT)
    columns = list(published.columns)
    changed = {
        *rows_of(rows[rows["__anonsql_since"] == 2], QIDS),
        *rows_of(left[left["__anonsql_until"] == 2], QIDS),
    }
    expected = published[[t in changed for t in rows_of_each(published, QIDS)]]
    assert rows_of(read[0], columns) == rows_of(expected, columns)
    # the groups stand for exactly those rows: each group's rows counted
    groups = grouped[0]
    kept = [c for c in groups.columns if c != "__anonsql_rows"]
    assert set(QIDS) <= set(kept)
    as_counted = expected.astype(str).groupby(kept, dropna=False).size()
    assert sorted(
        (tuple(str(v) for v in row[:-1]), int(row[-1]))
        for row in groups[[*kept, "__anonsql_rows"]].itertuples(index=False)
    ) == counted(as_counted)
    # something changed, and not everything
    assert 0 < len(read[0]) < len(published)


def rows_of_each(df: pd.DataFrame, columns: list[str]) -> list[tuple[str, ...]]:
    return [tuple(str(v) for v in row) for row in df[columns].itertuples(index=False)]


def tamper(engine: Engine, since: int) -> None:
    """One more published row in the private history, alone in a class of its own."""
    names = [c.name for c in engine.columns(ROWS) or []]
    city = "'tampered'"
    if engine.relation_kind(LABELS) is not None:
        # the city column holds codes: 'tampered' becomes a label of the dictionary
        engine.execute(
            "INSERT INTO anon_private.people__labels SELECT 'city', MAX(__anonsql_code) + 1, "
            "'tampered' FROM anon_private.people__labels WHERE __anonsql_column = 'city'"
        )
        city = (
            "(SELECT MAX(__anonsql_code) FROM anon_private.people__labels "
            "WHERE __anonsql_column = 'city')"
        )
    values = {
        "__anonsql_row_hash": "r.__anonsql_row_hash + 1",
        "__anonsql_class_id": "r.__anonsql_class_id + 100000",
        "__anonsql_since": str(since),
        "city": city,
    }
    select = ", ".join(values.get(n, f"r.{n}") for n in names)
    engine.execute(
        f"INSERT INTO anon_private.people__version_rows SELECT {select} "
        "FROM anon_private.people__version_rows AS r WHERE r.__anonsql_since = 2 LIMIT 1"
    )


@pytest.mark.parametrize("since", [3, 1])
def test_a_bad_class_is_refused_by_the_check_that_reads_it(
    engine: Engine, tmp_path: Path, since: int
) -> None:
    spec = two_versions(engine, tmp_path)
    api.run(spec, engine=engine)
    before = frame(engine, MAIN)
    # among the classes version 3 changes (placed "at version 3"), or among the old ones
    tamper(engine, since)
    engine.execute(
        "INSERT INTO main.people SELECT 'newer ' || name, age, city, income, disease, note "
        "FROM main.people WHERE name LIKE 'person 2%'"
    )
    with pytest.raises(VerificationError) as refused:
        api.run(spec, engine=engine)
    violated = {what for what, n in refused.value.violations.items() if n}
    if since == 3:
        # the models' own check on the classes (not only the differencing check's pairs)
        assert any(
            "anonymity" in what and "between two versions" not in what for what in violated
        ), violated
    else:
        # the models' check does not read it; the count of the version's table finds it
        assert violated == {VERSION_ROWS}
    # nothing published: the release analysts read is version 2's, the tampered row aside
    # (in a history of codes, version 2's view lists version 2's labels: the tampered code
    # decodes to NULL)
    after = frame(engine, MAIN)
    tampered = after["city"].isna() | (after["city"] == "tampered")
    assert before["city"].notna().all() and tampered.sum() == 1
    assert rows_of(after[~tampered], list(before.columns)) == rows_of(before, list(before.columns))


def test_a_later_batch_splits_by_the_rule_the_previous_version_chose(
    engine: Engine, tmp_path: Path
) -> None:
    """``split: auto`` compares its rules on version 1's rows and records the one it kept
    (the certificate's ``search``); a later version's batch is split by it, not compared
    again."""
    load_people(engine)
    spec = people_spec(tmp_path, k=K)
    said: list[str] = []
    first = api.run(spec, engine=engine, progress=said.append)
    chosen = json.loads(first.certificate["search"])["split"]
    assert chosen in ("gain_ratio", "widest", "loss")
    compared = [m for m in said if "NCP times rows" in m]
    assert len(compared) == 3, said
    engine.execute(
        "INSERT INTO main.people SELECT 'new ' || name, age, city, income, disease, note "
        "FROM main.people"
    )
    said.clear()
    second = api.run(spec, engine=engine, progress=said.append)
    assert second.certificate["version"] == 2
    assert second.certificate["published_rows"] > first.certificate["published_rows"]
    assert not [m for m in said if "NCP times rows" in m], said
    assert json.loads(second.certificate["search"])["split"] == chosen


def test_the_kept_grouping_equals_the_release_grouped_again(engine: Engine, tmp_path: Path) -> None:
    """The publish step's grouping of a version (its class table, the recovery and the attacks
    read it) is kept and updated by each later version: after inserts and deletes it equals the
    release grouped by pandas."""
    load_people(engine)
    # disease and note are published unchanged: the release is grouped by them too
    spec = people_spec(tmp_path, k=K)
    changes = [
        "INSERT INTO main.people SELECT 'new ' || name, age, city, income, disease, note "
        "FROM main.people WHERE name LIKE 'person 1%'",
        # whole classes deleted: their batches apply, the rows leave the version
        "DELETE FROM main.people WHERE age < 35",
        "INSERT INTO main.people SELECT 'newer ' || name, age, city, income, disease, note "
        "FROM main.people WHERE name LIKE 'person 2%'",
    ]
    groups = TableName("people__version_groups", "anon_private")
    for change in [None, *changes]:
        if change:
            engine.execute(change)
        result = api.run(spec, engine=engine)
        kept = frame(engine, groups)
        keys = [c for c in kept.columns if c != "__anonsql_rows"]
        assert set(QIDS) <= set(keys) and "note" in keys
        published = frame(engine, MAIN)
        expected = published.groupby(keys, dropna=False).size()
        got = kept.set_index(keys)["__anonsql_rows"]
        assert counted(expected) == counted(got)
        assert int(got.sum()) == result.certificate["published_rows"]
    assert result.certificate["version"] == 4
    assert engine.count_rows(LEFT) > 0  # the groups lost rows too


def test_the_refined_checks_read_the_changed_classes_groups(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An insensitive column published unchanged (not acknowledged) refines the classes the
    models must hold on: a later version checks the changed classes refined by it on their
    groups of the kept grouping, which hold that column, and the version holds."""
    load_people(engine)
    engine.execute("ALTER TABLE main.people ADD COLUMN shift TEXT")
    engine.execute("UPDATE main.people SET shift = 'day'")
    spec = people_spec(tmp_path, k=K)
    spec["columns"] = {**spec["columns"], "shift": {"role": "insensitive"}}
    api.run(spec, engine=engine)
    engine.execute(
        "INSERT INTO main.people SELECT 'new ' || name, age, city, income, disease, note, shift "
        "FROM main.people WHERE name LIKE 'person 1%'"
    )
    linkage_step = importlib.import_module("anonsql.measure.linkage")
    original = linkage_step.run_checks
    served: list[tuple[bool, str]] = []

    def spy(
        e: Engine,
        relation: TableName,
        checks: Sequence[PlannedCheck],
        grouping: Grouping | None = None,
    ) -> Any:
        for check in checks:
            for model in check.models:
                assert grouping is not None and "shift" in check.qids
                served.append((grouping.serves(check, model), grouping.relation.name))
        return original(e, relation, checks, grouping)

    monkeypatch.setattr(linkage_step, "run_checks", spy)
    second = api.run(spec, engine=engine)
    assert second.certificate["version"] == 2 and second.check.holds
    assert served and all(ok for ok, _ in served)
    assert all(name.endswith("v_touched_groups") for _, name in served)
