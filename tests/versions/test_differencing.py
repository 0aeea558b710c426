"""Versions attacked by differencing: an analyst keeps every version of a release and compares
each pair. Per published class, the rows inserted and the rows deleted between any two kept
versions must satisfy the certified models (k-anonymity, distinct l-diversity), recomputed
here by pandas over the snapshots alone; held-back rows appear once their batch completes,
and ``status`` counts them."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow as pa
from helpers import history_frame, load_people, people_spec
from history_columns import history_columns  # noqa: F401  (autouse: text and codes)

from anonsql import api
from anonsql.engines import Engine
from anonsql.sql import TableName

QIDS = ["age", "city", "income"]
K, L = 5, 2


def snapshot(engine: Engine) -> pd.DataFrame:
    frame: pd.DataFrame = engine.query_arrow(
        "select_all", relation=TableName("people", "anon")
    ).to_pandas()
    return frame.astype(str)


def difference(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``a`` not in ``b``, as multisets."""
    columns = list(a.columns)
    ca = a.groupby(columns, dropna=False).size().rename("n_a")
    cb = b.groupby(columns, dropna=False).size().rename("n_b")
    both = pd.concat([ca, cb], axis=1).fillna(0)
    extra = (both["n_a"] - both["n_b"]).clip(lower=0).astype(int)
    rows = [key for key, n in extra.items() for _ in range(n)]
    return pd.DataFrame(rows, columns=columns)


def differencing_breaches(versions: list[pd.DataFrame]) -> list[str]:
    """Every (pair, change, class) whose rows break k-anonymity or distinct l-diversity."""
    found = []
    for i, a in enumerate(versions):
        for j in range(i + 1, len(versions)):
            b = versions[j]
            for change, rows in (("inserted", difference(b, a)), ("deleted", difference(a, b))):
                if rows.empty:
                    continue
                for key, group in rows.groupby(QIDS):
                    if len(group) < K or group["disease"].nunique() < L:
                        found.append(f"v{i + 1}->v{j + 1} {change} {key}: {len(group)} rows")
    return found


def insert(engine: Engine, rows: list[dict[str, object]]) -> None:
    table = pa.table({c: [r[c] for r in rows] for c in rows[0]})
    engine.load_arrow(TableName("arrivals", "main"), table)
    engine.execute("INSERT INTO main.people SELECT * FROM main.arrivals")
    engine.drop(TableName("arrivals", "main"))


def newcomers(start: int, n: int) -> list[dict[str, object]]:
    diseases = ["flu", "cold", "asthma"]
    return [
        {
            "name": f"new {start + i}",
            "age": 30 + i % 3,
            "city": "Lyon",
            "income": 50000,
            "disease": diseases[i % 3],
            "note": "a",
        }
        for i in range(n)
    ]


def test_no_version_pair_reveals_a_person(engine: Engine, tmp_path: Path) -> None:
    load_people(engine)
    privacy = [{"k_anonymity": {"k": K}}, {"distinct_l_diversity": {"column": "disease", "l": L}}]
    spec = people_spec(tmp_path, k=K, privacy=privacy)
    first = api.run(spec, engine=engine)
    assert "source_checksum" not in first.certificate
    assert first.certificate["version"] == 1 and first.certificate["freshness"] == "fresh"
    kept = [snapshot(engine)]

    # one insert: it cannot form a class, so the version holds it back
    insert(engine, newcomers(0, 1))
    status = api.status(engine, "anon.people")
    assert status.stale and status.new_rows == 1
    second = api.run(spec, engine=engine)
    kept.append(snapshot(engine))
    assert second.certificate["freshness"] == "stale" and second.certificate["held_rows"] == 1
    assert len(kept[1]) == len(kept[0])
    assert api.status(engine, "anon.people").held_rows == 1

    # enough arrivals to form a class with it: they appear together
    insert(engine, newcomers(1, 2 * K))
    api.run(spec, engine=engine)
    kept.append(snapshot(engine))
    assert len(kept[2]) == len(kept[0]) + 2 * K + 1

    # one delete: its row stays published until its batch would satisfy the models
    engine.execute("DELETE FROM main.people WHERE name = 'person 0'")
    api.run(spec, engine=engine)
    kept.append(snapshot(engine))
    assert len(kept[3]) == len(kept[2])
    assert api.status(engine, "anon.people").pending_deletions == 1

    # one update (a delete plus an insert)
    engine.execute("UPDATE main.people SET disease = 'ulcer' WHERE name = 'person 1'")
    api.run(spec, engine=engine)
    kept.append(snapshot(engine))

    # a whole class of newcomers deleted at once: it leaves as a batch
    engine.execute("DELETE FROM main.people WHERE name LIKE 'new %'")
    api.run(spec, engine=engine)
    kept.append(snapshot(engine))
    assert len(kept[5]) == len(kept[0])  # the update: old row pending, new one held back

    assert differencing_breaches(kept) == []
    assert api.check_output(engine, "anon.people").holds
    # the version's rows, changed in place from version to version, are what analysts read;
    # the rows that left are kept apart, each with the version it left in
    rows = history_frame(engine, TableName("people__version_rows", "anon_private"))
    left = history_frame(engine, TableName("people__left_rows", "anon_private"))
    assert len(left) > 0 and left["__anonsql_until"].notna().all()
    published = rows[list(kept[-1].columns)]
    assert difference(published.astype(str), kept[-1]).empty
    assert difference(kept[-1], published.astype(str)).empty


def test_the_pandas_attack_finds_a_live_views_difference(engine: Engine, tmp_path: Path) -> None:
    """The attack above can fail: on the live-view opt-in one insert shows up alone."""
    load_people(engine)
    spec = people_spec(tmp_path, k=K)
    spec["output"]["materialize"] = "live"
    result = api.run(spec, engine=engine)
    assert result.certificate["live_view"] is True
    before = snapshot(engine)
    row = engine.query_arrow("select_all", relation=TableName("people", "main")).to_pandas()
    engine.execute(
        "INSERT INTO main.people SELECT 'twin', age, city, income, 'ulcer', note "
        "FROM main.people WHERE name = 'person 0'"
    )
    assert len(row) == 400
    after = snapshot(engine)
    assert len(difference(after, before)) == 1
    breaches = [b for b in differencing_breaches([before, after]) if "inserted" in b]
    assert len(breaches) == 1
