"""The SQL side: class-size distributions, population matching and weight sums, on both engines,
against hand-counted fixtures and a pandas recount."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.risk import (
    ClassPairs,
    ClassSizes,
    PopulationTable,
    class_sizes,
    population_class_sizes,
    weighted_class_sizes,
)
from anonsql.sql import TableName

_tables = itertools.count()
HOSTILE = ['zip "code"', "select", "ünï; --"]


def load(engine: Engine, columns: Mapping[str, Any]) -> TableName:
    relation = TableName(f"r{next(_tables)}", "main")
    engine.load_arrow(relation, pa.table(columns))
    return relation


# A sample of 9 rows in classes of sizes 1, 1, 2, 2, 3 (one class holds NULL), and a population
# with the same QIDs that holds the sample, hand-counted below.
SAMPLE = {
    HOSTILE[0]: ["A", "A", "A", "B", "B", "C", None, None, "D"],
    HOSTILE[1]: [1, 1, 1, 2, 2, 3, 4, 4, 5],
    "other": list(range(9)),
}
POPULATION = {
    HOSTILE[0]: ["A"] * 5 + ["B"] * 2 + ["C"] * 4 + [None] * 3 + ["D"] + ["E"] * 7,
    HOSTILE[1]: [1] * 5 + [2] * 2 + [3] * 4 + [4] * 3 + [5] + [6] * 7,
}
# sample class -> (sample size, population size): A1 3/5, B2 2/2, C3 1/4, NULL4 2/3, D5 1/1


def triples(pairs: ClassPairs) -> list[tuple[int, float, int]]:
    return sorted(
        zip(
            pairs.sample_sizes.tolist(),
            pairs.population_sizes.tolist(),
            pairs.classes.tolist(),
            strict=True,
        )
    )


def test_class_sizes_hand_counted(engine: Engine) -> None:
    relation = load(engine, SAMPLE)
    sizes = class_sizes(engine, relation, HOSTILE[:2])
    assert sizes.sizes.tolist() == [1, 2, 3]
    assert sizes.classes.tolist() == [2, 2, 1]
    assert (sizes.records, sizes.num_classes) == (9, 5)
    assert sizes.count_of_size(1) == 2 and sizes.count_of_size(4) == 0


def test_population_pairs_hand_counted(engine: Engine) -> None:
    sample, population = load(engine, SAMPLE), load(engine, POPULATION)
    pairs = population_class_sizes(engine, sample, HOSTILE[:2], PopulationTable(population))
    found = triples(pairs)
    assert found == [(1, 1.0, 1), (1, 4.0, 1), (2, 2.0, 1), (2, 3.0, 1), (3, 5.0, 1)]
    assert pairs.sample() == class_sizes(engine, sample, HOSTILE[:2])


def test_population_with_count_column_and_missing_class(engine: Engine) -> None:
    sample = load(engine, {"q": ["x", "x", "y", "z"]})
    counted = load(engine, {"q": ["x", "y", "y", "w"], "persons": [10, 3, 4, 100]})
    pairs = population_class_sizes(engine, sample, ["q"], PopulationTable(counted, "persons"))
    found = triples(pairs)
    # x: 2 in the sample, 10 persons; y: 1 and 3 + 4; z: absent from the population
    assert found == [(1, 0.0, 1), (1, 7.0, 1), (2, 10.0, 1)]


def test_weighted_pairs(engine: Engine) -> None:
    relation = load(engine, {"q": ["a", "a", "b"], "w": [2.5, 3.0, 7.0]})
    pairs = weighted_class_sizes(engine, relation, ["q"], "w")
    assert pairs == ClassPairs(np.array([1, 2]), np.array([7.0, 5.5]), np.array([1, 1]))


def test_empty_relation(engine: Engine) -> None:
    relation = load(engine, {"q": pa.array([], pa.string())})
    assert class_sizes(engine, relation, ["q"]).is_empty
    population = load(engine, {"q": ["a"]})
    assert population_class_sizes(engine, relation, ["q"], PopulationTable(population)).is_empty


def test_matches_pandas_on_random_tables(engine: Engine) -> None:
    rng = random.Random(7)
    for _ in range(3):
        rows = rng.randint(50, 400)
        columns = {
            "a": [rng.choice(["p", "q", "r", None]) for _ in range(rows)],
            "b": [rng.randint(0, 6) for _ in range(rows)],
            "c": [rng.choice([1.5, 2.5]) for _ in range(rows)],
        }
        relation = load(engine, columns)
        frame = pa.table(columns).to_pandas()
        expected = Counter(frame.groupby(["a", "b", "c"], dropna=False).size().tolist())
        sizes = class_sizes(engine, relation, ["a", "b", "c"])
        assert dict(zip(sizes.sizes.tolist(), sizes.classes.tolist(), strict=True)) == expected


def test_grouped_relation_with_one_row_per_class(engine: Engine) -> None:
    # Mondrian's weighted working rows without sensitive codes: one row per class, its size
    # counted; read row by row they give what grouping them gives
    counts = [3, 1, 1, 2, 2, 7]
    relation = load(
        engine,
        {HOSTILE[0]: ["A", "B", None, "C", "D", "E"], HOSTILE[1]: [1, 1, 1, 2, 2, 3], "n": counts},
    )
    grouped = class_sizes(engine, relation, HOSTILE[:2], counted="n")
    rows = class_sizes(engine, relation, HOSTILE[:2], counted="n", classes_are_rows=True)
    assert rows.sizes.tolist() == grouped.sizes.tolist() == [1, 2, 3, 7]
    assert rows.classes.tolist() == grouped.classes.tolist() == [2, 2, 1, 1]
    with pytest.raises(ValueError, match="counted"):
        class_sizes(engine, relation, HOSTILE[:2], classes_are_rows=True)


def test_errors_name_the_problem(engine: Engine) -> None:
    relation = load(engine, {"q": ["a"]})
    with pytest.raises(SpecError, match="no quasi-identifier"):
        class_sizes(engine, relation, [])
    with pytest.raises(SpecError, match="named twice"):
        class_sizes(engine, relation, ["q", "q"])
    population = load(engine, {"other": ["a"]})
    with pytest.raises(SpecError, match="lacks the column"):
        population_class_sizes(engine, relation, ["q"], PopulationTable(population))
    with pytest.raises(SpecError, match="does not exist"):
        population_class_sizes(
            engine, relation, ["q"], PopulationTable(TableName("absent", "main"))
        )


def test_class_sizes_structure() -> None:
    sizes = ClassSizes.from_class_sizes([3, 1, 1, 2, 0, 3, 3])
    assert sizes.sizes.tolist() == [1, 2, 3] and sizes.classes.tolist() == [2, 1, 3]
    # removing the 3 smallest classes: both of size 1, then the one of size 2
    assert sizes.without_smallest(3) == ClassSizes(np.array([3]), np.array([3]))
    assert sizes.without_smallest(1) == ClassSizes(np.array([1, 2, 3]), np.array([1, 1, 3]))
    assert sizes.without_smallest(6).is_empty and sizes.rows_in_smallest(4) == 7
    with pytest.raises(ValueError):
        ClassSizes(np.array([2, 1]), np.array([1, 1]))
