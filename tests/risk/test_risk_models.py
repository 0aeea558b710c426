"""Risk-based privacy models (anonsql.privacy: k_map, average_risk, uniqueness, table_level):
hand-computed fixtures, parameter validation, the table-level predicate and SQL agreeing on
random tables (both engines), k-map per class, suppression of the smallest classes."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping
from typing import Any, TypeVar

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anonsql.engines import Engine
from anonsql.errors import AnonsqlError, SpecError
from anonsql.privacy.average_risk import AverageReidentificationRisk
from anonsql.privacy.base import PartStats, PrivacyModel
from anonsql.privacy.k_map import KMap
from anonsql.privacy.table_level import (
    TableLevelModel,
    size_threshold,
    smallest_classes_to_suppress,
)
from anonsql.privacy.uniqueness import PopulationUniqueness, SampleUniqueness
from anonsql.risk import ClassSizes, PopulationModel
from anonsql.risk.population import estimate
from anonsql.sql import TableName

_tables = itertools.count()
QIDS = ['zip "code"', "select"]


def load(engine: Engine, columns: Mapping[str, Any]) -> TableName:
    relation = TableName(f"m{next(_tables)}", "main")
    engine.load_arrow(relation, pa.table(columns))
    return relation


def rows_of(engine: Engine, model: PrivacyModel, relation: TableName, qids: list[str]) -> list[Any]:
    ready = model.prepared(engine, relation, qids)
    return engine.fetchall(ready.violations_sql(engine.sql, relation, qids))


Model = TypeVar("Model", bound=PrivacyModel)


def model(cls: type[Model], **params: Any) -> Model:
    built = cls.from_spec(params, key=f"privacy[0].{cls.name}")
    assert isinstance(built, cls)
    return built


# classes of 1, 2, 2 and 5 rows: average risk 4/10, 1 sample unique, 5 rows in classes below 5
FIXTURE = {QIDS[0]: ["a", "b", "b", "c", "c"] + ["d"] * 5, QIDS[1]: [1] * 10}


def test_size_threshold_as_arx() -> None:
    # 1/r rounded down, up when 1/floor - 1/(1/r) >= 1 % of r
    assert [size_threshold(r) for r in (1.0, 0.5, 0.34, 0.333, 0.3, 0.2, 0.05)] == [
        1,
        2,
        3,
        3,
        4,
        5,
        20,
    ]
    assert size_threshold(0.0) == 2**31 - 1


def test_average_risk_fixture(engine: Engine) -> None:
    relation = load(engine, FIXTURE)
    sizes = ClassSizes.from_class_sizes([1, 2, 2, 5])
    holds = model(AverageReidentificationRisk, threshold=0.4)
    assert holds.holds_table(sizes) and rows_of(engine, holds, relation, QIDS) == []
    fails = model(AverageReidentificationRisk, threshold=0.3)
    assert not fails.holds_table(sizes)
    [(average, bound, at_risk)] = rows_of(engine, fails, relation, QIDS)
    assert (average, bound, at_risk) == (pytest.approx(0.4), pytest.approx(0.3), None)
    at_risk_model = model(
        AverageReidentificationRisk, threshold=0.5, highest_risk=0.2, records_at_risk=0.4
    )
    assert not at_risk_model.holds_table(sizes)
    [(average, bound, at_risk)] = rows_of(engine, at_risk_model, relation, QIDS)
    assert (average, bound, at_risk) == (pytest.approx(0.4), pytest.approx(0.5), 0.5)
    relaxed = model(
        AverageReidentificationRisk, threshold=0.5, highest_risk=0.5, records_at_risk=0.1
    )
    assert relaxed.holds_table(sizes) and rows_of(engine, relaxed, relation, QIDS) == []


def test_sample_uniqueness_fixture(engine: Engine) -> None:
    relation = load(engine, FIXTURE)
    assert rows_of(engine, model(SampleUniqueness, threshold=0.1), relation, QIDS) == []
    [(value, bound)] = rows_of(engine, model(SampleUniqueness, threshold=0.05), relation, QIDS)
    assert (value, bound) == (pytest.approx(0.1), 0.05)


def test_population_uniqueness_bound_query(engine: Engine) -> None:
    columns = {QIDS[0]: [f"v{i % 40}" for i in range(100)], QIDS[1]: list(range(100))}
    relation = load(engine, columns)
    m = model(PopulationUniqueness, threshold=0.01, estimator="zayatz", population_size=2000)
    assert isinstance(m, PopulationUniqueness)
    with pytest.raises(AnonsqlError, match="prepared"):
        m.violations_sql(engine.sql, relation, QIDS)
    # 100 unique records in 2000 persons: Zayatz gives every sample unique as a population
    # unique, 100 / (100 / 2000) = 2000 uniques, the whole population: violated
    [(estimator, value, bound, changed)] = rows_of(engine, m, relation, QIDS)
    assert (estimator, value, bound, changed) == ("zayatz", pytest.approx(1.0), 0.01, 0)
    loose = model(PopulationUniqueness, threshold=1.0, estimator="zayatz", population_size=2000)
    assert rows_of(engine, loose, relation, QIDS) == []
    # the prepared query notices when the relation no longer has the class sizes it was given
    bound = loose.prepared(engine, relation, QIDS)
    changed_relation = load(engine, {QIDS[0]: ["x", "x"], QIDS[1]: [1, 1]})
    [(_, _, _, changed)] = engine.fetchall(bound.violations_sql(engine.sql, changed_relation, QIDS))
    assert changed == 2


def test_population_uniqueness_follows_arx_rules() -> None:
    population = PopulationModel(10_000)
    no_uniques = ClassSizes(np.array([2, 3]), np.array([10, 10]))
    strict = model(PopulationUniqueness, threshold=0.0, population_size=10_000)
    assert strict.holds_table(no_uniques)
    # every record unique: Pitman has no finite fit and Dankar's rule has no Zayatz fallback in
    # the criterion (ARX), so no estimate: violated at any threshold
    all_unique = ClassSizes(np.array([1]), np.array([50]))
    assert estimate(all_unique, population, "dankar", zayatz_fallback=False) is None
    assert not model(PopulationUniqueness, threshold=1.0, population_size=10_000).holds_table(
        all_unique
    )
    mixed = ClassSizes(np.array([1, 2, 3, 5, 8]), np.array([300, 120, 60, 20, 5]))
    population = PopulationModel(100_000)
    value = estimate(mixed, population, "pitman")
    assert value is not None
    share = value / population.size
    below = model(
        PopulationUniqueness, threshold=share * 1.01, estimator="pitman", population_size=100_000
    )
    above = model(
        PopulationUniqueness, threshold=share * 0.99, estimator="pitman", population_size=100_000
    )
    assert below.holds_table(mixed) and not above.holds_table(mixed)


def test_k_map_per_class(engine: Engine) -> None:
    sample = load(engine, {"q": ["a", "b", "b", "c"]})
    population = load(engine, {"q": ["a", "b", "c", "z"], "n": [5, 2, 9, 100]})
    m = model(KMap, k=3, population=f"main.{population.name}", count="n")
    rows = engine.fetchall(m.violations_sql(engine.sql, sample, ["q"]))
    assert rows == [("b", 2, 2.0)]
    absent = load(engine, {"q": ["a", "y"]})
    assert engine.fetchall(m.violations_sql(engine.sql, absent, ["q"])) == [("y", 1, 0.0)]
    stats = PartStats(counts=np.array([1, 2, 1]), population=np.array([5.0, 2.0, 9.0]))
    assert m.holds(stats).tolist() == [True, False, True]
    assert m.holds(stats.take(np.array([1]))).tolist() == [False]
    with pytest.raises(AnonsqlError, match="population sizes"):
        m.holds(PartStats(counts=np.array([1])))


def test_table_level_models_judge_the_table_not_a_class() -> None:
    parts = PartStats(counts=np.array([1, 2, 2, 5]))
    average, unique = (
        model(AverageReidentificationRisk, threshold=0.4),
        model(SampleUniqueness, threshold=0.05),
    )
    assert average.holds(parts).tolist() == unique.holds(parts).tolist() == [True] * 4
    assert average.table_level_violations(parts) == 0
    assert unique.table_level_violations(parts) == 1


def test_parameters_are_validated() -> None:
    with pytest.raises(SpecError, match="threshold"):
        model(SampleUniqueness, threshold=1.5)
    with pytest.raises(SpecError, match="go together"):
        model(AverageReidentificationRisk, threshold=0.1, highest_risk=0.2)
    with pytest.raises(SpecError, match="give one of them"):
        model(PopulationUniqueness, threshold=0.1, population_size=10, region="USA")
    with pytest.raises(SpecError, match="region"):
        model(PopulationUniqueness, threshold=0.1, region="Atlantis")
    with pytest.raises(SpecError, match="estimator"):
        model(PopulationUniqueness, threshold=0.1, estimator="guess")
    with pytest.raises(SpecError, match="k = 0"):
        model(KMap, k=0, population="main.p")
    m = model(PopulationUniqueness, threshold=0.1, population_size=10)
    from anonsql.privacy.base import DataProfile

    with pytest.raises(SpecError, match="smaller than the 11 rows"):
        m.check_against(DataProfile(rows=11, distinct_sensitive={}), "privacy[0]")


def test_smallest_classes_to_suppress_matches_brute_force() -> None:
    sizes = ClassSizes(np.array([1, 2, 3, 6]), np.array([4, 3, 2, 5]))
    for threshold in (0.0, 0.05, 0.1, 0.2, 0.5):
        m = model(SampleUniqueness, threshold=threshold)
        assert isinstance(m, TableLevelModel)
        for max_rows in (0, 2, 4, 10, 50):
            plan = smallest_classes_to_suppress(sizes, m, max_rows)
            feasible = [
                c
                for c in range(sizes.num_classes + 1)
                if sizes.rows_in_smallest(c) <= max_rows
                and m.holds_table(sizes.without_smallest(c))
            ]
            if not feasible:
                assert plan is None
            else:
                assert plan is not None and plan.classes == min(feasible)
                assert plan.rows == sizes.rows_in_smallest(plan.classes)


# -- SQL and predicate agree on random tables ----------------------------------------------------


@st.composite
def tables(draw: st.DrawFn) -> dict[str, list[Any]]:
    rows = draw(st.integers(0, 40))
    domain = draw(st.integers(1, 12))
    return {
        QIDS[0]: draw(
            st.lists(st.one_of(st.none(), st.integers(0, domain)), min_size=rows, max_size=rows)
        ),
        QIDS[1]: draw(st.lists(st.integers(0, 2), min_size=rows, max_size=rows)),
    }


@st.composite
def table_models(draw: st.DrawFn) -> PrivacyModel:
    kind = draw(st.sampled_from(["average", "average_at_risk", "sample", "population"]))
    threshold = draw(st.sampled_from([0.0, 0.05, 0.1, 0.25, 0.5, 1.0]))
    if kind == "average":
        return model(AverageReidentificationRisk, threshold=threshold)
    if kind == "average_at_risk":
        return model(
            AverageReidentificationRisk,
            threshold=threshold,
            highest_risk=draw(st.sampled_from([0.2, 0.3, 0.5, 1.0])),
            records_at_risk=draw(st.sampled_from([0.0, 0.1, 0.5])),
        )
    if kind == "sample":
        return model(SampleUniqueness, threshold=threshold)
    return model(
        PopulationUniqueness,
        threshold=threshold,
        estimator=draw(st.sampled_from(["pitman", "zayatz", "snb", "dankar"])),
        population_size=draw(st.sampled_from([50, 400, 100_000])),
    )


def pandas_sizes(columns: dict[str, list[Any]]) -> ClassSizes:
    frame = pd.DataFrame(columns)
    if frame.empty:
        return ClassSizes.from_class_sizes([])
    return ClassSizes.from_class_sizes(frame.groupby(QIDS, dropna=False).size().to_numpy())


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(columns=tables(), m=table_models())
def test_table_level_sql_and_predicate_agree(
    engine: Engine, columns: dict[str, list[Any]], m: PrivacyModel
) -> None:
    assert isinstance(m, TableLevelModel)
    relation = load(engine, {c: pa.array(v, pa.int64()) for c, v in columns.items()})
    sizes = pandas_sizes(columns)
    if isinstance(m, PopulationUniqueness) and sizes.records > m.population.size:
        return
    assert (rows_of(engine, m, relation, QIDS) == []) == m.holds_table(sizes)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    sample=st.lists(st.integers(0, 6), max_size=20),
    extra=st.lists(st.integers(0, 8), max_size=30),
    k=st.integers(1, 5),
)
def test_k_map_sql_and_predicate_agree(
    engine: Engine, sample: list[int], extra: list[int], k: int
) -> None:
    population_values = sample + extra  # the population contains the sample
    s = load(engine, {"q": pa.array(sample, pa.int64())})
    p = load(engine, {"q": pa.array(population_values, pa.int64())})
    m = model(KMap, k=k, population=f"main.{p.name}")
    in_sample, in_population = Counter(sample), Counter(population_values)
    expected = sorted(
        (v, n, float(in_population[v])) for v, n in in_sample.items() if in_population[v] < k
    )
    assert sorted(engine.fetchall(m.violations_sql(engine.sql, s, ["q"]))) == expected
    values = sorted(in_sample)
    stats = PartStats(
        counts=np.array([in_sample[v] for v in values], np.int64),
        population=np.array([in_population[v] for v in values], np.float64),
    )
    assert [v for v, ok in zip(values, m.holds(stats).tolist(), strict=True) if not ok] == [
        v for v, _, _ in expected
    ]
