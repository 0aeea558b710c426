"""anonsql's Spark dialect: the constructs sqlglot's Spark transpiles wrongly (no Spark needed;
tests/engines/test_spark.py runs the same SQL on Spark)."""

from __future__ import annotations

import pytest
import sqlglot

from anonsql.engines.spark.dialect import DIALECT


def spark_sql(duckdb_sql: str) -> str:
    return sqlglot.parse_one(duckdb_sql, read="duckdb").sql(
        DIALECT, unsupported_level=sqlglot.ErrorLevel.RAISE
    )


def test_ordered_array_agg_keeps_its_order() -> None:
    assert spark_sql("SELECT ARRAY_AGG(x ORDER BY x) FROM t") == (
        "SELECT ARRAY_SORT(COLLECT_LIST(x)) FROM t"
    )
    assert spark_sql("SELECT ARRAY_AGG(DISTINCT x ORDER BY x) FROM t") == (
        "SELECT ARRAY_SORT(COLLECT_SET(x)) FROM t"
    )
    assert spark_sql("SELECT ARRAY_AGG(label ORDER BY first_leaf, depth) FROM t") == (
        "SELECT TRANSFORM(ARRAY_SORT(COLLECT_LIST(STRUCT(first_leaf AS `k0`, depth AS `k1`, "
        "label AS `v`))), e -> e.`v`) FROM t"
    )
    # an unordered ARRAY_AGG stays sqlglot's
    assert spark_sql("SELECT ARRAY_AGG(x) FROM t") == "SELECT COLLECT_LIST(x) FROM t"


def test_descending_array_agg_is_refused_not_reordered() -> None:
    with pytest.raises(sqlglot.errors.UnsupportedError):
        spark_sql("SELECT ARRAY_AGG(x ORDER BY x DESC) FROM t")


def test_row_id_without_an_order() -> None:
    assert spark_sql("SELECT ROW_NUMBER() OVER () AS id FROM t") == (
        "SELECT MONOTONICALLY_INCREASING_ID() AS id FROM t"
    )
    assert "ROW_NUMBER() OVER (PARTITION BY a ORDER BY b" in spark_sql(
        "SELECT ROW_NUMBER() OVER (PARTITION BY a ORDER BY b) FROM t"
    )


def test_array_overlap_and_materialized_ctes() -> None:
    assert spark_sql("SELECT * FROM t WHERE NOT (a && b)") == (
        "SELECT * FROM t WHERE NOT (ARRAYS_OVERLAP(a, b))"
    )
    assert spark_sql("WITH c AS MATERIALIZED (SELECT 1 AS x) SELECT x FROM c") == (
        "WITH c AS (SELECT 1 AS x) SELECT x FROM c"
    )
