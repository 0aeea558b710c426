"""Prosecutor / journalist / marketer risk, sdcMicro's individual risk and the RiskReport, on both
engines: a hand-computed fixture, sdcMicro's published test values, a per-record pandas
recomputation on random tables with a population table, and ARX's Adult figures through SQL."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
import risk_reference as ref

from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.risk import (
    ClassSizes,
    PopulationModel,
    PopulationTable,
    class_sizes,
    measure_risk,
    risk_report,
    weighted_class_sizes,
)
from anonsql.risk.attackers import individual_risks, prosecutor_risk
from anonsql.sql import TableName

ROOT = Path(__file__).resolve().parents[2]
_tables = itertools.count()


def load(engine: Engine, columns: dict[str, list[Any]] | pa.Table) -> TableName:
    relation = TableName(f"t{next(_tables)}", "main")
    engine.load_arrow(relation, columns if isinstance(columns, pa.Table) else pa.table(columns))
    return relation


# Classes a, b, c, d of 1, 2, 2, 5 rows; the population holds 3, 4, 10, 5 persons of them.
SAMPLE = {"q": ["a"] + ["b"] * 2 + ["c"] * 2 + ["d"] * 5}
POPULATION = {"q": ["a", "b", "c", "d"], "persons": [3, 4, 10, 5]}


def test_hand_computed_fixture(engine: Engine) -> None:
    sample, population = load(engine, SAMPLE), load(engine, POPULATION)
    report = measure_risk(
        engine, sample, ["q"], population_table=PopulationTable(population, "persons")
    )
    assert report.population_size == 22 and report.records == 10 and report.classes == 4
    p = report.prosecutor
    # risks 1, 1/2, 1/2, 1/5; above 0.2: the 1 + 2 + 2 rows of a, b, c
    assert (p.records_at_risk, p.highest_risk, p.lowest_risk) == (0.5, 1.0, 0.2)
    assert p.success_rate == pytest.approx(4 / 10)
    j = report.journalist
    assert report.journalist_source == "population"
    # risks 1/3, 1/4, 1/10, 1/5; above 0.2: the 1 + 2 rows of a and b
    assert j.records_at_risk == pytest.approx(3 / 10)
    assert (j.highest_risk, j.lowest_risk) == pytest.approx((1 / 3, 1 / 10))
    by_records = (1 / 3 + 2 / 4 + 2 / 10 + 5 / 5) / 10
    assert j.success_rate == pytest.approx(max(4 / 22, by_records))
    assert report.marketer == pytest.approx(by_records)
    assert report.records_affected_by_highest_risk == pytest.approx(1 / 10)
    assert report.records_affected_by_lowest_risk == pytest.approx(5 / 10)
    assert (report.sample_uniques, report.sample_uniqueness) == (1, 0.1)
    # equal weights N / n = 2.2: sdcMicro's risk of each record, recomputed per record
    per_record = ref.sdcmicro_individual_risk(
        [1, 2, 2, 2, 2, 5, 5, 5, 5, 5], [2.2] * 1 + [4.4] * 4 + [11.0] * 5
    )
    assert report.estimated_journalist.expected_reidentifications == pytest.approx(sum(per_record))
    assert report.estimated_journalist.global_risk == pytest.approx(sum(per_record) / 10)
    assert report.estimated_journalist.highest_risk == pytest.approx(max(per_record))
    figures = report.figures()
    for name in (
        "prosecutor.records_at_risk",
        "prosecutor.highest_risk",
        "prosecutor.success_rate",
        "journalist.records_at_risk",
        "marketer.success_rate",
        "sample_uniqueness",
        "population_uniqueness.dankar",
        "individual_risk.global_risk",
    ):
        assert name in figures


# sdcMicro tests/testthat/test_indivRisk.R, "data frame with weight, method = approx": three key
# variables, 8 rows, sampling weights; expected individual risk of each row.
SDC_COLUMNS = {
    "A": [2, 3, 2, 2, 3, 3, 1, 2],
    "B": [3, 3, 3, 3, 3, 3, 4, 3],
    "C": [1, 3, 1, 2, 1, 1, 1, 1],
    "weight": [18.0, 45.5, 39.0, 17.0, 92.0, 8.0, 123.5, 51.0],
}
SDC_EXPECTED = [
    0.01369863,
    0.08579129,
    0.01369863,
    0.17707583,
    0.01877883,
    0.01877883,
    0.03931625,
    0.01369863,
]


def test_sdcmicro_reference_individual_risk(engine: Engine) -> None:
    relation = load(engine, SDC_COLUMNS)
    pairs = weighted_class_sizes(engine, relation, ["A", "B", "C"], "weight")
    risk = individual_risks(pairs)
    per_record = sorted(np.repeat(risk, pairs.sample_sizes * pairs.classes).tolist())
    assert per_record == pytest.approx(sorted(SDC_EXPECTED), abs=5e-9)
    report = measure_risk(engine, relation, ["A", "B", "C"], weight="weight")
    assert report.population_size == 394  # the weights sum to 394
    assert report.estimated_journalist.expected_reidentifications == pytest.approx(
        sum(SDC_EXPECTED), abs=1e-7
    )
    assert report.estimated_journalist.global_risk == pytest.approx(sum(SDC_EXPECTED) / 8, abs=1e-8)


def _pandas_figures(
    sample: pd.DataFrame, population: pd.DataFrame, qids: list[str], t: float
) -> dict[str, float]:
    """Per-record prosecutor/journalist/marketer risk, written directly from the definitions."""
    f = sample.groupby(qids, dropna=False).size().rename("f").reset_index()
    big_f = population.groupby(qids, dropna=False).size().rename("F").reset_index()
    classes = f.merge(big_f, on=qids, how="left")
    rows = sample.merge(classes, on=qids, how="left")
    n = len(rows)
    return {
        "prosecutor.records_at_risk": float((1 / rows["f"] > t).sum()) / n,
        "prosecutor.highest_risk": float((1 / rows["f"]).max()),
        "prosecutor.lowest_risk": float((1 / rows["f"]).min()),
        "prosecutor.success_rate": len(classes) / n,
        "journalist.records_at_risk": float((1 / rows["F"] > t).sum()) / n,
        "journalist.highest_risk": float((1 / rows["F"]).max()),
        "journalist.lowest_risk": float((1 / rows["F"]).min()),
        # a record's journalist risk is 1/F; the marketer's success rate is its mean
        "journalist.success_rate": max(
            len(classes) / float(classes["F"].sum()), float((1 / rows["F"]).mean())
        ),
        "marketer.success_rate": float((1 / rows["F"]).mean()),
        "sample_uniqueness": float((rows["f"] == 1).sum()) / n,
    }


def test_matches_per_record_pandas_on_random_tables(engine: Engine) -> None:
    rng = random.Random(3)
    for _ in range(3):
        size = rng.randint(300, 900)
        population = pd.DataFrame(
            {
                "zip": [rng.choice(["10", "11", "12", None]) for _ in range(size)],
                "age": [rng.randint(20, 30) for _ in range(size)],
            }
        )
        sample = population.sample(frac=rng.uniform(0.05, 0.5), random_state=rng.randint(0, 99))
        threshold = rng.choice([0.1, 0.2, 0.5])
        s = load(engine, pa.Table.from_pandas(sample, preserve_index=False))
        p = load(engine, pa.Table.from_pandas(population, preserve_index=False))
        report = measure_risk(
            engine, s, ["zip", "age"], population_table=PopulationTable(p), threshold=threshold
        )
        figures = report.figures()
        expected = _pandas_figures(sample, population, ["zip", "age"], threshold)
        for name, value in expected.items():
            assert figures[name] == pytest.approx(value, rel=1e-12), name
        assert report.population_size == size


def test_adult_through_sql_reproduces_arx(engine: Engine) -> None:
    frame = pd.read_csv(ROOT / "datasets" / "adult-arx" / "adult.csv.gz", sep=";")
    relation = load(engine, pa.Table.from_pandas(frame, preserve_index=False))
    qids = list(frame.columns)
    sizes = class_sizes(engine, relation, qids)
    expected = frame.groupby(qids).size().to_numpy()
    assert sizes == ClassSizes.from_class_sizes(expected)
    report = measure_risk(
        engine, relation, qids, population=PopulationModel.from_sampling_fraction(30162, 0.1)
    )
    assert report.prosecutor.success_rate == 0.6465751607983555  # ARX testAverageRisk2
    assert report.prosecutor.highest_risk == 1.0  # ARX testHighestIndividualRisk2
    assert report.figures()["population_uniqueness.dankar"] == pytest.approx(
        0.27684993883653597, rel=1e-9
    )  # ARX testDecisionRule2


def test_without_population_table_journalist_is_prosecutor() -> None:
    sizes = ClassSizes(np.array([1, 3]), np.array([2, 4]))
    report = risk_report(sizes, population=PopulationModel(1000))
    assert report.journalist == report.prosecutor and report.journalist_source == "sample"
    assert report.marketer == report.prosecutor.success_rate
    # equal weights: every class's population size is its sample size / (14 / 1000)
    per_record = ref.sdcmicro_individual_risk([1, 1] + [3] * 12, [1000 / 14] * 2 + [3000 / 14] * 12)
    assert report.estimated_journalist.global_risk == pytest.approx(sum(per_record) / 14)


def test_sampling_fraction_one_makes_the_individual_risk_the_prosecutor_risk() -> None:
    sizes = ClassSizes(np.array([1, 2, 7]), np.array([3, 2, 1]))
    report = risk_report(sizes, population=PopulationModel(sizes.records))
    individual = report.estimated_journalist
    assert individual.global_risk == pytest.approx(report.prosecutor.success_rate)
    assert individual.highest_risk == report.prosecutor.highest_risk == 1.0
    assert individual.records_at_risk == report.prosecutor.records_at_risk
    assert report.population_uniqueness.fraction("dankar") == pytest.approx(3 / 14)


def test_empty_relation_reports_zero_risk(engine: Engine) -> None:
    relation = load(engine, {"q": pa.array([], pa.string())})
    report = measure_risk(engine, relation, ["q"])
    assert report.records == 0 and report.prosecutor.highest_risk == 0.0
    assert report.marketer == 0.0 and report.population_uniqueness.dankar == 0.0


def test_population_must_contain_the_sample(engine: Engine) -> None:
    sample = load(engine, {"q": ["a", "a", "b"]})
    population = load(engine, {"q": ["a", "b", "b"]})  # only one person of class a
    with pytest.raises(SpecError, match="fewer persons in the population"):
        measure_risk(engine, sample, ["q"], population_table=PopulationTable(population))


def test_threshold_is_validated() -> None:
    with pytest.raises(SpecError, match=r"not a risk in \[0, 1\]"):
        prosecutor_risk(ClassSizes(np.array([1]), np.array([1])), 1.5)
