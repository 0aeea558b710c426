"""The working rows' sensitive codes (``prepare/create_rows``): each row's value ranked among
the column's distinct values, NULL last, on every engine (each builds them from a rank table of
the distinct values joined back; PostgreSQL by equality with NULL given the last code), held to
pandas' dense rank; and the weighted working rows (Mondrian's) held to those codes counted
by Python."""

from __future__ import annotations

import collections
import itertools

import pandas as pd
import pyarrow as pa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonsql.algorithms.workspace import Dimension, SensitiveAttribute
from anonsql.engines import Engine
from anonsql.sql import TableName

_tables = itertools.count()


def _expected(values: list[object]) -> list[int]:
    ranks = pd.Series(values, dtype=object).rank(method="dense", na_option="keep") - 1
    top = int(ranks.max()) + 1 if ranks.notna().any() else 0
    return [top if pd.isna(r) else int(r) for r in ranks]


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    text=st.lists(st.one_of(st.none(), st.sampled_from(["a", "b", "c", "Zed"])), min_size=1),
    number=st.data(),
)
def test_codes_are_dense_ranks_with_null_last(
    engine: Engine, text: list[str | None], number: st.DataObject
) -> None:
    floats = number.draw(
        st.lists(
            st.one_of(st.none(), st.sampled_from([-2.5, 0.0, 1.0, 3.25])),
            min_size=len(text),
            max_size=len(text),
        )
    )
    schema = "sensitive_codes"
    engine.ensure_schema(schema)
    n = next(_tables)
    source, rows = TableName(f"src{n}", schema), TableName(f"rows{n}", schema)
    engine.load_arrow(
        source,
        pa.table(
            {
                "id": pa.array(range(len(text)), pa.int64()),
                "t": pa.array(text, pa.string()),
                "f": pa.array(floats, pa.float64()),
            }
        ),
    )
    sensitive = [
        SensitiveAttribute(index=0, column="t", distinct=0, numeric=False),
        SensitiveAttribute(index=1, column="f", distinct=0, numeric=True),
    ]
    # the id rides along as a numeric quasi-identifier so each code is read back by its row
    dims = [Dimension(index=0, column="id", kind="numeric")]
    engine.run(
        "prepare/create_rows",
        rows=rows,
        source=source,
        dims=dims,
        sensitive=sensitive,
        leaves={},
        weight=None,
    )
    got = sorted(engine.query("select_all", relation=rows), key=lambda r: r[1])
    assert [int(r[2]) for r in got] == _expected(list(text))
    assert [int(r[3]) for r in got] == _expected(list(floats))

    # weighted (Mondrian from weighted_from_rows): one row per distinct (pid, codes), weighing
    # the rows it stands for, over a quasi-identifier that repeats
    weighted = TableName(f"weighted{n}", schema)
    group = [Dimension(index=0, column="g", kind="numeric")]
    grouped_source = TableName(f"grouped_src{n}", schema)
    engine.load_arrow(
        grouped_source,
        pa.table(
            {
                "g": pa.array([i % 3 for i in range(len(text))], pa.int64()),
                "t": pa.array(text, pa.string()),
                "f": pa.array(floats, pa.float64()),
            }
        ),
    )
    engine.run(
        "prepare/create_rows",
        rows=weighted,
        source=grouped_source,
        dims=group,
        sensitive=sensitive,
        leaves={},
        weight="w",
    )
    groups = [i % 3 for i in range(len(text))]
    counted = collections.Counter(
        zip(groups, _expected(list(text)), _expected(list(floats)), strict=True)
    )
    expected = sorted((0, g, s0, s1, w) for (g, s0, s1), w in counted.items())
    assert (
        sorted(tuple(int(v) for v in r) for r in engine.query("select_all", relation=weighted))
        == expected
    )
    assert int(engine.query("prepare/working_rows", rows=weighted, weight="w")[0][0]) == len(text)


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    values=st.lists(
        st.tuples(st.sampled_from(["x", "y", "zz", "y y"]), st.integers(0, 3)), min_size=1
    )
)
def test_weighted_rows_of_text_columns_need_no_second_grouping(
    engine: Engine, values: list[tuple[str, int]]
) -> None:
    # a text column's distinct values have distinct leaves, so PostgreSQL's weighted rows
    # (distinct combinations first, then their leaves) need not be grouped again by their
    # codes (distinct_leaves): both forms give one row per code vector, counted as Python does
    schema = "weighted_leaves"
    engine.ensure_schema(schema)
    n = next(_tables)
    source, leaves = TableName(f"src{n}", schema), TableName(f"leaves{n}", schema)
    engine.load_arrow(
        source,
        pa.table(
            {
                "c": pa.array([v[0] for v in values], pa.string()),
                "g": pa.array([v[1] for v in values], pa.int64()),
            }
        ),
    )
    labels = ["x", "y", "y y", "zz"]
    engine.load_arrow(
        leaves,
        pa.table(
            {"value": pa.array(labels, pa.string()), "leaf_rank": pa.array(range(4), pa.int64())}
        ),
    )
    dims = [
        Dimension(index=0, column="c", kind="categorical"),
        Dimension(index=1, column="g", kind="numeric"),
    ]
    counted = collections.Counter((labels.index(c), g) for c, g in values)
    expected = sorted((0, c, g, w) for (c, g), w in counted.items())
    for distinct in (False, True):
        rows = TableName(f"rows{n}_{int(distinct)}", schema)
        engine.run(
            "prepare/create_rows",
            rows=rows,
            source=source,
            dims=dims,
            sensitive=[],
            leaves={0: leaves},
            weight="w",
            distinct_leaves=distinct,
        )
        got = sorted(tuple(int(v) for v in r) for r in engine.query("select_all", relation=rows))
        assert got == expected
