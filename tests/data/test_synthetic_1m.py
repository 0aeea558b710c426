"""The synthetic 1:M generator of the benchmarks (bench/synthetic_1m.py): shapes, hierarchy
coverage, determinism, and the same rows on every engine."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from paths import BENCH

from anonsql.engines import DuckDBEngine, Engine
from anonsql.hierarchies import materialize, read_hierarchy, uncovered
from anonsql.sql import TableName

sys.path.insert(0, str(BENCH))
from synthetic_1m import Synthetic1M, item_hierarchy, make_synthetic_1m

PERSONS = 1000
ITEMS_PER_PERSON = (
    "SELECT MIN(n), MAX(n), COUNT(*), SUM(n) FROM "
    "(SELECT person_id, COUNT(*) AS n FROM main.items GROUP BY person_id) AS per_person"
)
LENGTHS = (
    "SELECT n, COUNT(*) FROM (SELECT person_id, COUNT(*) AS n FROM main.items "
    "GROUP BY person_id) AS per_person GROUP BY n ORDER BY n"
)
POPULARITY = "SELECT item, COUNT(*) AS c FROM main.items GROUP BY item ORDER BY c DESC, item"


def rows(engine: Engine, table: TableName) -> pa.Table:
    data = engine.query_arrow("select_all", relation=table).combine_chunks()
    return data.sort_by([(name, "ascending") for name in data.column_names])


@pytest.fixture
def made(tmp_path: Path) -> Iterator[tuple[DuckDBEngine, Synthetic1M]]:
    with DuckDBEngine(":memory:") as engine:
        yield engine, make_synthetic_1m(engine, PERSONS, hierarchy_dir=tmp_path / "h", seed=7)


def test_shapes(made: tuple[DuckDBEngine, Synthetic1M]) -> None:
    engine, result = made
    assert result.persons == TableName("persons", "main")
    assert result.items == TableName("items", "main")
    assert result.person_rows == PERSONS
    types = {c.name: c.data_type for c in engine.columns(result.persons) or []}
    assert types == {
        "person_id": "BIGINT",
        "age": "INTEGER",
        "zip": "INTEGER",
        "sex": "VARCHAR",
        "marital": "VARCHAR",
    }
    types = {c.name: c.data_type for c in engine.columns(result.items) or []}
    assert types == {"person_id": "BIGINT", "item": "VARCHAR"}
    ids, lo, hi, age_lo, age_hi, zip_lo, zip_hi = engine.fetchall(
        "SELECT COUNT(DISTINCT person_id), MIN(person_id), MAX(person_id), MIN(age), MAX(age), "
        "MIN(zip), MAX(zip) FROM main.persons"
    )[0]
    assert (ids, lo, hi) == (PERSONS, 0, PERSONS - 1)
    assert 17 <= age_lo <= age_hi <= 89 and 10000 <= zip_lo <= zip_hi <= 19999
    # every person has 1..8 items, each at most once
    fewest, most, persons, total = engine.fetchall(ITEMS_PER_PERSON)[0]
    assert (fewest, most, persons, total) == (1, 8, PERSONS, result.item_rows)
    assert engine.fetchall("SELECT COUNT(*) FROM (SELECT DISTINCT * FROM main.items) AS d") == [
        (result.item_rows,)
    ]
    assert engine.fetchall(
        "SELECT COUNT(*) FROM main.items WHERE person_id NOT IN "
        "(SELECT person_id FROM main.persons)"
    ) == [(0,)]
    # skewed: short lists are the most common, one item is far more popular than most
    lengths = dict(engine.fetchall(LENGTHS))
    assert lengths[1] > lengths[2] > lengths[4] > lengths[8]
    counts = [c for _, c in engine.fetchall(POPULARITY)]
    assert counts[0] > 20 * counts[len(counts) // 2]


def test_items_and_categorical_qids_are_leaves_of_the_written_hierarchies(
    made: tuple[DuckDBEngine, Synthetic1M],
) -> None:
    engine, result = made
    assert set(result.hierarchies) == {"item", "sex", "marital"}
    item = read_hierarchy(result.hierarchies["item"], name="item")
    assert item.leaves == result.leaves
    assert (item.leaf_count, item.height) == (3125, 5) == (len(result.leaves), result.item_height)
    assert result.leaves[0] == "i00000" and result.leaves[-1] == "i03124"
    assert item.path("i00042") == [
        "i00042", "i00040-i00044", "i00025-i00049", "i00000-i00124", "i00000-i00624", "*"
    ]  # fmt: skip
    for column, table in (
        ("item", result.items),
        ("sex", result.persons),
        ("marital", result.persons),
    ):
        hierarchy = read_hierarchy(result.hierarchies[column], name=column)
        leaves = TableName(f"leaves_{column}")
        materialize(engine, hierarchy, leaves, TableName(f"nodes_{column}"))
        assert uncovered(engine, table, column, leaves) == (0, 0), column


def test_same_seed_same_rows(made: tuple[DuckDBEngine, Synthetic1M], tmp_path: Path) -> None:
    engine, result = made
    with DuckDBEngine(":memory:") as again:
        second = make_synthetic_1m(again, PERSONS, hierarchy_dir=tmp_path / "h2", seed=7)
        assert rows(again, second.persons).equals(rows(engine, result.persons))
        assert rows(again, second.items).equals(rows(engine, result.items))
        assert (tmp_path / "h2" / "item.txt").read_bytes() == result.hierarchies[
            "item"
        ].read_bytes()
        other = make_synthetic_1m(again, PERSONS, hierarchy_dir=tmp_path / "h3", seed=8)
        assert not rows(again, other.items).equals(rows(engine, result.items))
        assert not rows(again, other.persons).equals(rows(engine, result.persons))


def test_every_engine_gets_the_same_rows(engine: Engine, tmp_path: Path) -> None:
    target = make_synthetic_1m(
        engine,
        200,
        hierarchy_dir=tmp_path / "h",
        max_items=3,
        leaves=30,
        seed=1,
        persons_table=TableName("people", "one_m"),
        items_table=TableName("things", "one_m"),
    )
    with DuckDBEngine(":memory:") as duck:
        reference = make_synthetic_1m(
            duck, 200, hierarchy_dir=tmp_path / "ref", max_items=3, leaves=30, seed=1
        )
        assert target.item_rows == reference.item_rows
        for mine, theirs in ((target.persons, reference.persons), (target.items, reference.items)):
            assert rows(engine, mine).to_pylist() == rows(duck, theirs).to_pylist()


def test_item_hierarchy_of_any_size() -> None:
    seven = item_hierarchy(7, fanout=5)
    assert [seven.path(leaf) for leaf in ("i00004", "i00006")] == [
        ["i00004", "i00000-i00004", "*"],
        ["i00006", "i00005-i00006", "*"],
    ]
    big = item_hierarchy(5**6 + 1)
    assert big.leaves[-1] == "i15625" and big.height == 7
    assert item_hierarchy(25, fanout=5).height == 2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"persons": 0}, "persons must be at least 1"),
        ({"max_items": 0}, "max_items must be at least 1"),
        ({"leaves": 1}, "leaves must be at least 2"),
        ({"fanout": 1}, "fanout must be at least 2"),
        ({"skew": -1.0}, "skews must lie in"),
    ],
)
def test_bad_parameters(tmp_path: Path, kwargs: dict[str, Any], message: str) -> None:
    arguments: dict[str, Any] = {"persons": 10, **kwargs}
    with DuckDBEngine(":memory:") as engine, pytest.raises(ValueError, match=message):
        make_synthetic_1m(engine, hierarchy_dir=tmp_path, **arguments)
