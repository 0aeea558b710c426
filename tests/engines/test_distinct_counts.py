"""The distinct counts of the identifier check (``persons/repeats``) and of a new history's
placed keys (``versions/key_sums`` with ``distinct``), which PostgreSQL counts in two halves
split by a hash of the value (each half in its own parallel worker): on every engine equal to
pandas' counts, NULLs, repeats and negative keys included."""

from __future__ import annotations

import itertools

import pandas as pd
import pyarrow as pa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonsql.engines import Engine
from anonsql.sql import TableName
from anonsql.versions.names import KEY_HASH

_tables = itertools.count()


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rows=st.lists(
        st.tuples(
            st.one_of(st.none(), st.integers(-3, 6)),
            st.one_of(st.none(), st.sampled_from(["a", "b", "c c", "D"])),
            st.integers(-(2**63), 2**63 - 1) | st.integers(-4, 4),
        ),
        min_size=1,
        max_size=40,
    )
)
def test_distinct_counts_equal_pandas(engine: Engine, rows: list[tuple[object, ...]]) -> None:
    schema = "distinct_counts"
    engine.ensure_schema(schema)
    table = TableName(f"t{next(_tables)}", schema)
    frame = pd.DataFrame(rows, columns=["n", "t", "h"], dtype=object)
    engine.load_arrow(
        table,
        pa.table(
            {
                "n": pa.array([r[0] for r in rows], pa.int64()),
                "t": pa.array([r[1] for r in rows], pa.string()),
                KEY_HASH: pa.array([r[2] for r in rows], pa.int64()),
            }
        ),
    )
    got = engine.query("persons/repeats", source=table, columns=["n", "t"])[0]
    expected = [
        frame["n"].count(),
        frame["n"].nunique(),
        frame["t"].count(),
        frame["t"].nunique(),
    ]
    assert [int(v or 0) for v in got] == expected
    n, first, second, distinct = engine.query(
        "versions/key_sums", relation=table, columns=[], key_hash=KEY_HASH, distinct=True
    )[0]
    keys = [int(str(r[2])) for r in rows]
    assert (int(n), int(distinct)) == (len(keys), len(set(keys)))

    # the sums as the engine takes a remainder (the sign of the dividend), summed
    def remainder(h: int, p: int) -> int:
        return abs(h) % p * (1 if h >= 0 else -1)

    assert int(first) == sum(remainder(h, 1000000007) for h in keys)
    assert int(second) == sum(remainder(h, 998244353) for h in keys)
