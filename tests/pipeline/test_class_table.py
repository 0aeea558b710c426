"""The class table (``publish/classes``): per class of the quasi-identifiers, its size and the
number of distinct non-NULL values of each sensitive column, from the released rows or from
their grouping (``refined``: ``__anonsql_rows`` rows per group, the distinct values counted in
two steps). Both must give pandas' figures over the same rows, NULLs in the quasi-identifiers
(a class of their own) and in the sensitive columns (not a value) included, on every engine."""

from __future__ import annotations

import random

import pandas as pd
import pyarrow as pa
import pytest

from anonsql.engines import Engine
from anonsql.sql import TableName

QIDS = ["age", "city"]
SENSITIVE = ["disease", "income"]


def rows() -> pa.Table:
    rng = random.Random(7)
    n = 300
    return pa.table(
        {
            "age": [rng.choice(["[20, 30]", "[31, 40]", None]) for _ in range(n)],
            "city": [rng.choice(["Europe", "Asia"]) for _ in range(n)],
            "disease": [rng.choice(["flu", "cold", "ulcer", None]) for _ in range(n)],
            "income": [rng.choice([10, 20, None]) for _ in range(n)],
            "note": [rng.choice(["a", "b", "c"]) for _ in range(n)],
        }
    )


def figures(frame: pd.DataFrame) -> list[tuple[str, ...]]:
    return sorted(tuple(str(v) for v in row) for row in frame.itertuples(index=False))


@pytest.mark.parametrize("refined", [False, True])
def test_class_sizes_and_distinct_values_are_pandas(engine: Engine, refined: bool) -> None:
    data = rows()
    source = TableName("released", "main")
    engine.load_arrow(source, data)
    relation = source
    if refined:  # the rows grouped more finely than the classes, as publish/refined groups them
        relation = TableName("grouped", "main")
        grouped = (
            data.to_pandas()
            .groupby([*QIDS, *SENSITIVE, "note"], dropna=False)
            .size()
            .reset_index(name="__anonsql_rows")
        )
        engine.load_arrow(relation, pa.Table.from_pandas(grouped, preserve_index=False))
    target = TableName("classes", "main")
    engine.run(
        "publish/classes",
        target=target,
        relation=relation,
        qids=QIDS,
        sensitive=SENSITIVE,
        refined=refined,
    )
    found = engine.query_arrow("select_all", relation=target).to_pandas()
    frame = data.to_pandas()
    expected = frame.groupby(QIDS, dropna=False).agg(
        class_size=("note", "size"), **{f"distinct {s}": (s, "nunique") for s in SENSITIVE}
    )
    expected = expected.reset_index()
    columns = [*QIDS, "class_size", *(f"distinct {s}" for s in SENSITIVE)]
    assert list(found.columns) == columns
    found["age"] = found["age"].where(found["age"].notna(), None)
    expected["age"] = expected["age"].where(expected["age"].notna(), None)
    assert figures(found[columns].astype(object)) == figures(expected[columns].astype(object))
    # NULLs are a class of their own, and not a sensitive value
    assert found["age"].isna().any()
    assert (found["distinct disease"] < 4).all()
