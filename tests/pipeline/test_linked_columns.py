"""The linked-column check (a column published unchanged that functionally determines a
quasi-identifier) against pandas, on every engine: the SQL compares MIN and MAX per value of
the column, pandas counts distinct values, and both must name the same quasi-identifiers."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pyarrow as pa
import pytest
from helpers import recorded

from anonsql.engines import Engine
from anonsql.resolve import linked
from anonsql.resolve.linked import linked_columns
from anonsql.sql import TableName

QIDS = ["word", "number", "real", "flag"]


def determined_by_pandas(table: pa.Table, column: str) -> tuple[str, ...]:
    """Quasi-identifiers with several values of which every value of ``column`` holds one."""
    df = table.to_pandas()
    found = []
    for q in QIDS:
        several = df[q].nunique(dropna=True) > 1
        per_value = df.groupby(column, dropna=False)[q].nunique(dropna=True)
        if several and (per_value <= 1).all():
            found.append(q)
    return tuple(found)


def random_table(seed: int) -> pa.Table:
    rng = random.Random(seed)
    n = rng.randint(1, 40)
    keys = [rng.choice(["a", "b", "c", None]) for _ in range(n)]
    # each QID either follows the key (determined) or varies freely, with NULLs now and then
    follow = {q: rng.random() < 0.5 for q in QIDS}

    def value(q: str, key: str | None, i: int) -> object:
        if rng.random() < 0.1:
            return None
        base = key if follow[q] else rng.choice(["x", "y"]) if rng.random() < 0.7 else "z"
        pick = {"x": 0, "y": 1, "z": 2, "a": 0, "b": 1, "c": 2, None: 3}[base]
        return {
            "word": ["lo", "mid", "hi", "none"][pick],
            "number": [5, -3, 12, 0][pick],
            "real": [0.5, -0.0, 2.25, 0.0][pick],
            "flag": [True, False, True, False][pick],
        }[q]

    columns: dict[str, Sequence[object]] = {"key": keys}
    for q in QIDS:
        columns[q] = [value(q, k, i) for i, k in enumerate(keys)]
    types = {"key": pa.string(), "word": pa.string(), "number": pa.int64()}
    types |= {"real": pa.float64(), "flag": pa.bool_()}
    return pa.table({name: pa.array(values, types[name]) for name, values in columns.items()})


def test_a_recoding_column_determines_its_qid(engine: Engine) -> None:
    """Adult's case: ``education`` is a one-to-one recoding of ``education_num``."""
    table = pa.table(
        {
            "education": ["HS", "HS", "BSc", "MSc", "BSc"],
            "education_num": [9, 9, 13, 14, 13],
            "age": [30, 40, 30, 50, 41],
            "smoker": [True, False, True, True, False],
        }
    )
    source = TableName("linked_adult", "main")
    engine.load_arrow(source, table)
    found = linked_columns(
        engine, source, ["education"], ["education_num", "age", "smoker"], boolean=["smoker"]
    )
    assert [(f.column, f.determines) for f in found] == [("education", ("education_num",))]


def test_one_valued_or_null_qids_are_not_determined(engine: Engine) -> None:
    """A QID with one value (or NULLs and one value) gives nothing away; -0.0 equals 0.0."""
    table = pa.table(
        {
            "key": ["a", "b", "c"],
            "same": [7, 7, None],
            "zero": pa.array([0.0, -0.0, 0.0], pa.float64()),
            "flag": [True, True, None],
        }
    )
    source = TableName("linked_flat", "main")
    engine.load_arrow(source, table)
    assert linked_columns(engine, source, ["key"], ["same", "zero", "flag"], boolean=["flag"]) == []


@pytest.mark.parametrize("screen_rows", [100_000, 3])
@pytest.mark.parametrize("seed", range(12))
def test_matches_pandas(
    engine: Engine, seed: int, screen_rows: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same columns whatever the screen reads: all the rows, or (PostgreSQL's, which
    reads the source's first rows) only three."""
    monkeypatch.setattr(linked, "SCREEN_ROWS", screen_rows)
    table = random_table(seed)
    source = TableName(f"linked_{seed}", "main")
    engine.load_arrow(source, table)
    found = linked_columns(engine, source, ["key"], QIDS, boolean=["flag"])
    got = found[0].determines if found else ()
    assert got == determined_by_pandas(table, "key")


@pytest.mark.postgres
def test_postgres_screens_some_rows_and_confirms_exactly(
    pg_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL's linked-column check reads the source's first rows and asks for the
    counts over every row only where they cannot decide: a column that determines nothing in
    one query over three rows, one that determines a quasi-identifier in two; a column whose
    first three rows determine a quasi-identifier that a later row splits is not linked."""
    from anonsql.engines import PostgresEngine
    from anonsql.resolve.linked import LinkedColumn

    monkeypatch.setattr(linked, "SCREEN_ROWS", 3)
    frame = pa.table(
        {
            "city": ["Lyon", "Paris", "Lyon", "Paris", "Nice", None],
            "zip": ["69", "75", "69", "75", "06", "06"],  # determines city (NULL ignored)
            "note": ["a", "a", "b", "b", "a", "b"],  # splits all in the first three rows
            "late": ["x", "y", "x", "y", "x", "z"],  # a fifth row splits city
            "flag": [True, False, False, True, False, True],
            "age": [30, 31, 31, 30, 30, 31],
        }
    )
    table = TableName("cities", "main")
    with PostgresEngine(pg_database) as pg:
        pg.load_arrow(table, frame)
        for column, queries, expected in (
            ("note", 1, []),
            ("zip", 2, [LinkedColumn("zip", ("city",))]),
            ("late", 2, []),
        ):
            with recorded(pg) as sent:
                found = linked_columns(
                    pg, table, [column], ["city", "age", "flag"], boolean={"flag"}
                )
            assert found == expected, column
            assert sum("LIMIT 3" in sql for sql in sent) == 1, column
            assert sum("determines" in sql for sql in sent) == queries, column


def test_duckdb_screens_by_hash_and_confirms_exactly() -> None:
    """DuckDB's linked-column check compares hashes (MIN and MAX of text compare strings row by
    row) and asks for the exact counts only where the screen cannot decide: a column that
    determines nothing in one query, one that determines a quasi-identifier in two."""
    from anonsql.engines import DuckDBEngine
    from anonsql.resolve.linked import LinkedColumn

    frame = pa.table(
        {
            "city": ["Lyon", "Lyon", "Paris", "Paris", "Nice", None],
            "zip": ["69", "69", "75", "75", "06", "06"],  # determines city (NULL ignored)
            "note": ["a", "b", "a", "b", "a", "b"],  # splits every one
            "flag": [True, False, False, True, False, True],
            "age": [30, 31, 31, 30, 30, 31],
        }
    )
    table = TableName("cities", "main")
    with DuckDBEngine() as duck:
        duck.create_schema("main")
        duck.load_arrow(table, frame)
        for column, queries, expected in (
            ("note", 1, []),
            ("zip", 2, [LinkedColumn("zip", ("city",))]),
        ):
            with recorded(duck) as sent:
                found = linked_columns(
                    duck, table, [column], ["city", "age", "flag"], boolean={"flag"}
                )
            assert found == expected, column
            assert sum("HASH(" in sql.upper() for sql in sent) == 1, column
            assert sum("determines" in sql for sql in sent) == queries, column
