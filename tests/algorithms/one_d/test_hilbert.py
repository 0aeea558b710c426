"""The Hilbert key, in SQL on every engine, against the NumPy reference and the seed's fixtures
(Ghinita et al., VLDB 2007, digest 001 §4.2)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pytest

from anonsql.algorithms.one_d.hilbert_curve import hilbert_index, hilbert_key_sql
from anonsql.engines import Engine
from anonsql.sql import TableName

# the 12-record example: (Age, Weight) scaled to a 3-bit grid, Weight axis reversed
SLIDE_POINTS = [
    (0, 7),
    (1, 6),
    (2, 5),
    (2, 4),
    (4, 4),
    (5, 5),
    (5, 6),
    (6, 7),
    (4, 2),
    (5, 2),
    (6, 0),
    (7, 1),
]
SLIDE_KEYS = [22, 24, 30, 31, 33, 35, 40, 42, 55, 56, 61, 63]  # 1 + Hilbert index


def keys_in_engine(engine: Engine, points: npt.NDArray[np.int64], bits: int) -> list[int]:
    table = TableName("pts", "main")
    columns = {"id": list(range(len(points)))}
    names = [f'axis {i}; "q"' for i in range(points.shape[1])]  # hostile column names
    for i, name in enumerate(names):
        columns[name] = [int(v) for v in points[:, i]]
    engine.drop(table)
    engine.load_arrow(table, pa.table(columns))
    sql = hilbert_key_sql(engine.sql, table, "id", names, bits)
    rows = sorted(engine.fetchall(sql))
    return [int(key) for _, key in rows]


def test_reference_matches_the_seed_fixtures() -> None:
    assert hilbert_index(np.array([[4, 6]]), 3).tolist() == [36]
    assert (hilbert_index(np.array(SLIDE_POINTS), 3) + 1).tolist() == SLIDE_KEYS


def test_sql_matches_the_seed_fixtures(engine: Engine) -> None:
    assert [k + 1 for k in keys_in_engine(engine, np.array(SLIDE_POINTS), 3)] == SLIDE_KEYS


@pytest.mark.parametrize(("dimensions", "bits"), [(1, 4), (2, 5), (3, 4), (8, 7)])
def test_sql_matches_reference(engine: Engine, dimensions: int, bits: int) -> None:
    rng = np.random.default_rng(dimensions * 100 + bits)
    points = rng.integers(0, 2**bits, size=(200, dimensions))
    assert keys_in_engine(engine, points, bits) == hilbert_index(points, bits).tolist()


def test_curve_is_a_bijection_on_a_small_grid() -> None:
    grid = np.array([(x, y, z) for x in range(4) for y in range(4) for z in range(4)])
    keys = hilbert_index(grid, 2)
    assert sorted(keys.tolist()) == list(range(64))
    # consecutive keys are neighbouring cells
    by_key = grid[np.argsort(keys)]
    assert (np.abs(np.diff(by_key, axis=0)).sum(axis=1) == 1).all()


def test_key_width_is_checked() -> None:
    with pytest.raises(ValueError, match="exceed"):
        hilbert_index(np.zeros((1, 9), dtype=np.int64), 7)
