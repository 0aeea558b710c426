"""PostgreSQL hands Arrow tables over as COPY's CSV (anonsql.engines.postgres.engine): every
value must arrive as the tuple protocol gives it, NULL told from an empty text, quotes, commas,
newlines and non-ASCII text intact, floats exact (NaN and infinities too), booleans, integers at
their limits; results of other types (numeric, dates) and repeated column names take the tuple
path; load_arrow writes such rows as Arrow's CSV. Checked against the values written and against
psycopg's own tuples."""

from __future__ import annotations

import math
from typing import Any

import psycopg
import pyarrow as pa
import pytest

from anonsql.engines.postgres.engine import PostgresEngine, _arrow_table
from anonsql.sql import TableName

TRICKY = """
SELECT * FROM (VALUES
  (1, CAST(NULL AS TEXT), TRUE, CAST(9223372036854775807 AS BIGINT),
   CAST('NaN' AS DOUBLE PRECISION), CAST(1.5 AS REAL), CAST(-32768 AS SMALLINT),
   CAST('x' AS VARCHAR(5))),
  (2, '', FALSE, CAST(-9223372036854775808 AS BIGINT), CAST('Infinity' AS DOUBLE PRECISION),
   CAST('-Infinity' AS REAL), CAST(32767 AS SMALLINT), CAST(NULL AS VARCHAR(5))),
  (3, 'a "quoted", value' || chr(10) || 'on two lines' || chr(13), NULL, NULL,
   CAST(0.1 AS DOUBLE PRECISION), CAST(3.4028235e38 AS REAL), CAST(NULL AS SMALLINT), ''),
  (4, 'NULL', TRUE, 0, CAST(4.9e-324 AS DOUBLE PRECISION), NULL, CAST(0 AS SMALLINT), 'NaN'),
  (5, 'Zürich, 東京 ☃', FALSE, -1, NULL, CAST(-0.0 AS REAL), CAST(1 AS SMALLINT), 'f')
) AS v(id, label, flag, big, wide, narrow, small, short)
ORDER BY id
"""


def tuples(dsn: str, sql: str) -> pa.Table:
    with psycopg.connect(dsn) as con, con.cursor() as cur:
        cur.execute(sql)
        return _arrow_table(cur.description or [], cur.fetchall())


def same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b and type(a) is type(b))


def assert_same(fetched: pa.Table, expected: pa.Table) -> None:
    assert fetched.schema == expected.schema
    for column in fetched.column_names:
        got, want = fetched[column].to_pylist(), expected[column].to_pylist()
        assert all(same(a, b) for a, b in zip(want, got, strict=True)), column


def test_every_value_arrives_as_the_tuples_give_it(pg_database: str) -> None:
    with PostgresEngine(pg_database) as engine:
        fetched = engine.fetch_arrow(TRICKY)
    assert_same(fetched, tuples(pg_database, TRICKY))
    assert fetched.schema.field("narrow").type == pa.float32()
    assert fetched.schema.field("small").type == pa.int16()
    labels = fetched["label"].to_pylist()
    assert labels[0] is None and labels[1] == "" and labels[3] == "NULL"
    assert labels[2] == 'a "quoted", value\non two lines\r'
    assert math.isinf(fetched["narrow"][1].as_py()) and fetched["flag"][2].as_py() is None


def test_other_types_and_repeated_names_take_the_tuple_path(pg_database: str) -> None:
    sql = "SELECT CAST(1.25 AS NUMERIC) AS n, DATE '2026-11-29' AS d, 1 AS a, 2 AS a"
    with PostgresEngine(pg_database) as engine:
        fetched = engine.fetch_arrow(sql)
    assert fetched.equals(tuples(pg_database, sql))


def test_an_empty_result_keeps_its_columns(pg_database: str) -> None:
    sql = "SELECT CAST(1 AS BIGINT) AS a, 'x' AS b WHERE FALSE"
    with PostgresEngine(pg_database) as engine:
        fetched = engine.fetch_arrow(sql)
    assert fetched.num_rows == 0
    assert fetched.schema == pa.schema([("a", pa.int64()), ("b", pa.string())])


def test_loaded_rows_arrive_as_written(pg_database: str) -> None:
    """load_arrow writes rows of these types as Arrow's CSV: read back as tuples, every value
    is the one written (NULL and empty text apart, floats exact, quotes and newlines kept)."""
    data = pa.table(
        {
            "label": ["", None, 'a "quoted", value\non two lines\r', "NULL", "Zürich ☃"],
            "wide": [float("nan"), float("inf"), -0.0, 0.1, None],
            "narrow": pa.array([1.5, None, float("-inf"), 3.4028235e38, 0.1], pa.float32()),
            "flag": [True, None, False, True, False],
            "big": [1, None, -9223372036854775808, 9223372036854775807, 0],
            "small": pa.array([1, 2, None, -32768, 32767], pa.int16()),
        }
    )
    with PostgresEngine(pg_database) as engine:
        engine.create_schema("main")
        engine.load_arrow(TableName("loaded", "main"), data)
    back = tuples(pg_database, "SELECT * FROM main.loaded")
    assert back.column_names == data.column_names
    for column in data.column_names:
        written, read = data[column].to_pylist(), back[column].to_pylist()
        assert all(same(a, b) for a, b in zip(written, read, strict=True)), column


def test_a_query_sqlglot_cannot_read_is_fetched_as_tuples(
    pg_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlglot

    import anonsql.engines.postgres.engine as postgres

    def unreadable(*args: Any, **kwargs: Any) -> Any:
        raise sqlglot.errors.ParseError("unreadable")

    postgres._copy_statements.cache_clear()
    monkeypatch.setattr(sqlglot, "parse_one", unreadable)
    with PostgresEngine(pg_database) as engine:
        fetched = engine.fetch_arrow(TRICKY)
    postgres._copy_statements.cache_clear()
    assert_same(fetched, tuples(pg_database, TRICKY))


def test_csv_arrow_cannot_read_falls_back_to_tuples(
    pg_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should Arrow ever refuse the CSV PostgreSQL printed, its message (which quotes the
    value) never surfaces: the query is fetched as tuples."""
    import anonsql.engines.postgres.engine as postgres

    def refuse(*args: Any) -> pa.Table:
        raise pa.ArrowInvalid("CSV conversion error: invalid value 'Zürich'")

    monkeypatch.setattr(postgres, "_csv_table", refuse)
    with PostgresEngine(pg_database) as engine:
        fetched = engine.fetch_arrow(TRICKY)
    assert_same(fetched, tuples(pg_database, TRICKY))
