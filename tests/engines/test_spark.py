"""Spark SQL as an engine: the same release as DuckDB, published without transactions.

These tests carry the ``spark`` marker: they run in the Spark session of ``make test``
(``pytest -m spark``), on one local[2] Spark started for the session; elsewhere they are
deselected (Spark is an opt-in engine, see tests/conftest.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
import sqlglot
from engine_configs import CONFIGS
from helpers import load_people, people_spec, recorded, snapshot

from anonsql import api
from anonsql.demo import adult_spec
from anonsql.engines import DuckDBEngine, Engine
from anonsql.engines.spark.dialect import DIALECT
from anonsql.errors import SpecError, VerificationError
from anonsql.privacy.k_anonymity import KAnonymity
from anonsql.resolve.linked import LinkedColumn, linked_columns
from anonsql.samples import load_adult
from anonsql.sql import TableName

pytestmark = pytest.mark.spark


@pytest.fixture
def spark(request: pytest.FixtureRequest) -> Iterator[Engine]:
    engine = CONFIGS["spark"].open(request)
    try:
        yield engine
    finally:
        engine.close()


def release(engine: Engine, names: Any) -> dict[str, Any]:
    return {
        "rows": snapshot(engine, names.main),
        "classes": snapshot(engine, names.classes),
        "recoding": snapshot(engine, names.recoding),
    }


def test_capabilities_pick_the_versioned_swap(spark: Engine) -> None:
    assert spark.transactional_ddl is False
    assert spark.dialect == DIALECT  # sqlglot's Spark with anonsql's corrections
    # its own template shadows the shared one of the same name
    assert spark.sql.template_path("mondrian/finish_window").endswith(
        "engines/spark/templates/mondrian/finish_window.sql"
    )


def test_same_release_as_duckdb_and_replaced_by_views(spark: Engine, tmp_path: Path) -> None:
    spec = people_spec(tmp_path, k=5)
    with DuckDBEngine() as duck:
        load_people(duck)
        expected = api.run(spec, engine=duck)
        expected_release = release(duck, expected.names)
        expected_metrics = {(m.name, m.attribute): m.value for m in expected.metrics}
    load_people(spark)
    in_sql = {"mondrian": {"max_rows_in_memory": 0}}
    result = api.run({**spec, "engine": "spark", "algorithm": in_sql}, engine=spark)
    assert result.partitioning.rounds_in_memory == 0
    assert release(spark, result.names) == expected_release
    assert {(m.name, m.attribute): m.value for m in result.metrics} == pytest.approx(
        expected_metrics
    )
    assert result.certificate["verified"]
    # the published names are views over one version; a second run swaps in another version
    assert spark.relation_kind(result.names.main) == "view"
    first = spark.relations_starting_with("anon", "people__v")
    api.run({**people_spec(tmp_path, k=7), "engine": "spark"}, engine=spark)
    second = spark.relations_starting_with("anon", "people__v")
    assert first and second and not set(first) & set(second)
    assert api.check_output(spark, "anon.people").holds
    assert spark.schemas_starting_with("anonsql_work_") == []


def test_failed_verification_leaves_the_previous_release(
    spark: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_people(spark)
    first = api.run({**people_spec(tmp_path, k=5), "engine": "spark"}, engine=spark)
    before = snapshot(spark, first.names.main)
    names_before = spark.relations_starting_with("anon", "")
    monkeypatch.setattr(KAnonymity, "holds", lambda self, parts: parts.counts >= 1)
    monkeypatch.setattr(KAnonymity, "min_rows", lambda self: 1)
    with pytest.raises(VerificationError):
        api.run({**people_spec(tmp_path, k=5), "engine": "spark"}, engine=spark)
    assert snapshot(spark, first.names.main) == before
    assert spark.relations_starting_with("anon", "") == names_before


def test_catalog(spark: Engine) -> None:
    table = load_people(spark)
    columns = spark.columns(table)
    assert columns is not None
    by_name = {c.name: c for c in columns}
    assert by_name["age"].is_integer and not by_name["city"].is_numeric
    assert spark.columns(TableName("missing", "main")) is None
    assert spark.relation_kind(table) == "table"
    assert spark.relation_kind(TableName("people", "nowhere")) is None
    probed = [table, TableName("people", "nowhere"), TableName("missing", table.schema)]
    assert spark.relation_kinds(probed) == {table: "table", probed[1]: None, probed[2]: None}
    # listed by SHOW commands (no Spark job): views told from tables, temporary views left out
    view = TableName("people_view", table.schema)
    spark.run("publish/point_view", target=view, source=table)
    spark.spark.range(1).createOrReplaceTempView("people_temporary")  # type: ignore[attr-defined]
    assert spark.relation_kinds([table, view]) == {table: "table", view: "view"}
    assert spark.relations_starting_with(str(table.schema), "people") == ["people", "people_view"]
    assert spark.schema_exists(str(table.schema)) and not spark.schema_exists("nowhere")


def test_database_must_be_a_master_url_or_connect_address() -> None:
    from anonsql.engines.spark.engine import check_database

    for good in ("local", "local[2]", "local[*]", "spark://h:7077", "yarn", "sc://h:15002"):
        check_database(good)
    with pytest.raises(SpecError, match="database"):
        check_database("host=127.0.0.1 dbname=dw")


@pytest.mark.slow
def test_adult_identical_to_duckdb(spark: Engine) -> None:
    """Adult, k = 10: the same rows, classes, recoding and metrics as DuckDB (several minutes
    on a loaded 2-core machine: one Spark job per statement). Spark runs every Mondrian round
    as statements (``max_rows_in_memory: 0``), DuckDB its default rounds in memory."""
    spec = adult_spec(":memory:", acknowledged=True, k=10)
    with DuckDBEngine() as duck:
        load_adult(duck)
        expected = api.run(spec, engine=duck)
        expected_release = release(duck, expected.names)
        expected_metrics = {(m.name, m.attribute): round(m.value, 9) for m in expected.metrics}
    load_adult(spark)
    in_sql = {"mondrian": {"max_rows_in_memory": 0}}
    result = api.run({**spec, "engine": "spark", "algorithm": in_sql}, engine=spark)
    assert result.partitioning.rounds_in_memory == 0
    assert result.certificate["source_rows"] == 30162
    got = release(spark, result.names)
    for key, rows in expected_release.items():
        assert got[key] == rows, key
    assert {(m.name, m.attribute): round(m.value, 9) for m in result.metrics} == expected_metrics


def test_dialect_corrections_run_on_spark(spark: Engine) -> None:
    """Ordered ARRAY_AGG keeps its order and row ids are unique on Spark itself."""
    spark.execute(
        "CREATE TABLE main.items AS SELECT * FROM VALUES "
        "(1, 'b', 2), (1, 'a', 3), (1, 'c', 1), (2, 'z', 1) AS t(g, x, k)"
    )
    rows = spark.fetchall(
        spark.sql.generate(
            sqlglot.parse_one(
                "SELECT g, ARRAY_AGG(x ORDER BY x) AS by_x, ARRAY_AGG(x ORDER BY k) AS by_k, "
                "COUNT(DISTINCT id) AS ids FROM (SELECT *, ROW_NUMBER() OVER () AS id "
                "FROM main.items) AS r GROUP BY g ORDER BY g",
                read="duckdb",
            )
        )
    )
    assert [(g, list(by_x), list(by_k), ids) for g, by_x, by_k, ids in rows] == [
        (1, ["a", "b", "c"], ["c", "b", "a"], 3),
        (2, ["z"], ["z"], 1),
    ]


def test_a_model_needing_a_missing_capability_is_refused(spark: Engine) -> None:
    """eir_l_diversity's search cannot run on Spark: refused up front, naming engine and fix."""
    from anonsql.privacy import PRIVACY_MODELS

    model = PRIVACY_MODELS.get("eir_l_diversity").from_spec({"l": 2, "column": "s"}, key="p")
    with pytest.raises(SpecError, match="spark engine lacks") as err:
        model.prepared(spark, TableName("people", "main"), ["age"])
    assert "recursive_lateral_joins" in str(err.value)


def test_linked_columns_screen_by_hash_and_confirm_exactly(spark: Engine) -> None:
    """Spark's linked-column check compares hashes (a hash aggregate, where MIN and MAX of text
    sort every row) and asks for the exact counts only where the screen cannot decide: the
    same columns as DuckDB's, a column that determines nothing in one query, one that
    determines a quasi-identifier (or a constant one) in two."""
    frame = pa.table(
        {
            "city": ["Lyon", "Lyon", "Paris", "Paris", "Nice", "Nice"],
            "zip": ["69", "69", "75", "75", "06", "06"],  # determines city
            "note": ["a", "b", "a", "b", "a", "b"],  # splits every one
            "flag": [True, False, False, True, False, True],
            "age": [30, 31, 31, 30, 30, 31],
        }
    )
    table = TableName("cities", "main")
    expected = {}
    with DuckDBEngine() as duck:
        duck.create_schema("main")
        duck.load_arrow(table, frame)
        for column in ("zip", "note"):
            expected[column] = linked_columns(
                duck, table, [column], ["city", "age", "flag"], boolean={"flag"}
            )
    spark.load_arrow(table, frame)
    for column, queries in (("note", 1), ("zip", 2)):
        with recorded(spark) as sent:
            found = linked_columns(
                spark, table, [column], ["city", "age", "flag"], boolean={"flag"}
            )
        assert found == expected[column]
        assert sum("determines" in sql for sql in sent) == queries, column
    assert expected["zip"] == [LinkedColumn("zip", ("city",))] and expected["note"] == []


def test_a_local_session_loads_arrow_through_parquet_as_through_the_gateway(
    spark: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a local master a table beyond a few thousand rows reaches Spark as a Parquet file;
    it must land with the types and values ``createDataFrame`` gives (NULLs, NaN and text that
    needs quoting included), and a type the file path does not take (a date) still loads
    through the gateway. (This table is small: the file path is taken here for any size.)"""
    import anonsql.engines.spark.engine as spark_engine

    monkeypatch.setattr(spark_engine, "SMALL_LOAD_ROWS", 0)
    data = pa.table(
        {
            "i8": pa.array([1, None, -3], pa.int8()),
            "i32": pa.array([2**31 - 1, 0, None], pa.int32()),
            "i64": pa.array([2**62, -1, None], pa.int64()),
            "f": pa.array([float("nan"), None, -0.5], pa.float64()),
            "t": pa.array(["it's `quoted`", None, "é"], pa.string()),
            "b": pa.array([True, None, False], pa.bool_()),
        }
    )
    schema = "arrow_paths"
    spark.ensure_schema(schema)
    through_file, through_gateway = TableName("file", schema), TableName("gateway", schema)
    assert spark._shares_files  # type: ignore[attr-defined]
    spark.load_arrow(through_file, data)
    spark.__dict__["_shares_files"] = False
    try:
        spark.load_arrow(through_gateway, data)
    finally:
        del spark.__dict__["_shares_files"]

    def read(table: TableName) -> list[tuple[str, ...]]:
        rows = spark.query("select_all", relation=table)
        return sorted(tuple(repr(v) for v in row) for row in rows)  # NaN compares by its text

    assert spark.columns(through_file) == spark.columns(through_gateway)
    assert read(through_file) == read(through_gateway)
    dated = pa.table({"d": pa.array([0, None], pa.int32()).cast(pa.date32())})
    spark.load_arrow(TableName("dated", schema), dated)
    assert spark.count_rows(TableName("dated", schema)) == 2
