"""The SQL dialect ``engine: spark`` generates: sqlglot's Spark, with the constructs that sqlglot
transpiles to Spark SQL that fails or means something else.

* ``ARRAY_AGG(x ORDER BY k)``: sqlglot writes ``COLLECT_LIST(x)``, dropping the order (Spark's
  aggregate has none), so equal sets of items could compare unequal. Here it becomes
  ``ARRAY_SORT(COLLECT_LIST(x))`` when ``k`` is ``x`` (``COLLECT_SET`` with ``DISTINCT``), and
  otherwise sorts ``(k, ..., x)`` structs and keeps ``x``.
* ``ROW_NUMBER() OVER ()`` (a row id, no order): Spark refuses a row number without an order.
  Here it becomes ``MONOTONICALLY_INCREASING_ID()``: unique, computed where the rows are, with
  no single-partition sort (ids are not consecutive; templates use them only to tell rows apart).
* ``a && b`` (arrays overlap): sqlglot keeps ``&&``, which is Spark's logical AND. Here it is
  ``ARRAYS_OVERLAP(a, b)``.
* ``WITH x AS MATERIALIZED (...)``: not Spark syntax; the hint is dropped (Spark reuses a
  non-deterministic CTE's result by itself and plans the others).

Imported without pyspark (it is only sqlglot), so the transpiling is testable anywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from sqlglot import exp
from sqlglot.dialects.spark import Spark
from sqlglot.errors import UnsupportedError
from sqlglot.generators.spark import SparkGenerator

#: The name sqlglot registers this dialect under (``SparkEngine.dialect``).
DIALECT = "anonsqlspark"


class AnonsqlSpark(Spark):
    """sqlglot's Spark dialect with anonsql's corrections (module docstring)."""

    class Generator(SparkGenerator):
        TRANSFORMS: ClassVar[dict[type[exp.Expr], Callable[..., str]]] = {
            **SparkGenerator.TRANSFORMS,
            exp.ArrayOverlaps: lambda self, e: self.func("ARRAYS_OVERLAP", e.this, e.expression),
        }

        def arrayagg_sql(self, expression: exp.ArrayAgg) -> str:
            order = expression.this
            if not isinstance(order, exp.Order):
                return str(super().arrayagg_sql(expression))
            value = order.this
            distinct = isinstance(value, exp.Distinct)
            if distinct:
                value = value.expressions[0]
            keys = list(order.expressions)
            if any(key.args.get("desc") for key in keys):
                raise UnsupportedError("ARRAY_AGG(... ORDER BY ... DESC) has no Spark form here")
            if len(keys) == 1 and keys[0].this == value:
                collect = "COLLECT_SET" if distinct else "COLLECT_LIST"
                return f"ARRAY_SORT({self.func(collect, value)})"
            if distinct:
                raise UnsupportedError("ARRAY_AGG(DISTINCT x ORDER BY y) has no Spark form here")
            fields = [
                exp.alias_(key.this.copy(), f"k{i}", quoted=True) for i, key in enumerate(keys)
            ]
            fields.append(exp.alias_(value.copy(), "v", quoted=True))
            items = self.func("COLLECT_LIST", self.func("STRUCT", *fields))
            return f"TRANSFORM(ARRAY_SORT({items}), e -> e.`v`)"

        def cte_sql(self, expression: exp.CTE) -> str:
            if expression.args.get("materialized") is not None:
                expression = expression.copy()
                expression.set("materialized", None)
            return str(super().cte_sql(expression))

        def window_sql(self, expression: exp.Window) -> str:
            if (
                isinstance(expression.this, exp.RowNumber)
                and not expression.args.get("partition_by")
                and not expression.args.get("order")
            ):
                return "MONOTONICALLY_INCREASING_ID()"
            return str(super().window_sql(expression))
