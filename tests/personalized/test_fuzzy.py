"""Fuzzy terms: the NumPy reference against the paper's Table 9 (digest T5, T6) and the
standard reading (T5b), and the engine's CASE expressions against the reference."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from adversary import frame
from personalized_fixtures import LOAN_PAPER, SALARY_PAPER, SALARY_TRIANGULAR

from anonsql.algorithms.personalized.config import FuzzyTerms, NumericSA, PersonalizedConfig
from anonsql.algorithms.personalized.fuzzy import fuzzify, round_weights
from anonsql.algorithms.personalized.names import WorkTables
from anonsql.algorithms.personalized.prepare import prepare_rows
from anonsql.engines import Engine
from anonsql.sql import TableName

SALARIES = np.array([50000, 58000, 60000, 70000, 90000, 120000, 125000, 200000, 250000, 300000.0])


def test_t5_paper_intervals_reproduce_table_9() -> None:
    term, weight = fuzzify(SALARIES, SALARY_PAPER)
    assert term.tolist() == [0, 0, 0, 0, 0, 0, 0, 1, 1, 2]
    assert weight == pytest.approx([1.0, 0.92, 0.9, 0.8, 0.6, 0.3, 0.25, 0.5, 0.0, 1.0])


def test_t5b_triangular_argmax() -> None:
    term, weight = fuzzify(SALARIES, SALARY_TRIANGULAR)
    assert term.tolist() == [0, 0, 0, 0, 0, 1, 1, 1, 2, 2]
    assert weight == pytest.approx([1.0, 0.92, 0.9, 0.8, 0.6, 0.7, 0.75, 2 / 3, 2 / 3, 1.0])


def test_t6_loan_of_p07() -> None:
    term, weight = fuzzify(np.array([175000.0, 150000.0]), LOAN_PAPER)
    assert term.tolist() == [0, 0]
    assert weight == pytest.approx([5000 / 120000, 0.25])


def test_ends_and_rounding() -> None:
    term, weight = fuzzify(np.array([-1.0, 1e9]), SALARY_PAPER)
    assert term.tolist() == [0, 2] and weight.tolist() == [1.0, 1.0]
    term, weight = fuzzify(np.array([-1.0, 1e9, 100000.0]), SALARY_TRIANGULAR)
    assert term.tolist() == [0, 2, 0] and weight.tolist() == [1.0, 1.0, 0.5]
    assert round_weights(np.array([0.12, 0.13, 0.875, 1.0]), 0.25).tolist() == [0.0, 0.25, 1.0, 1.0]


@pytest.mark.parametrize(
    "terms",
    [
        SALARY_PAPER,
        SALARY_TRIANGULAR,
        FuzzyTerms(("a", "b", "c", "d", "e"), (-5, 0, 2.5, 10, 40, 41), "paper_intervals"),
        FuzzyTerms(("a", "b", "c", "d"), (-5, 0, 2.5, 40)),
    ],
)
def test_engine_matches_reference(engine: Engine, terms: FuzzyTerms) -> None:
    rng = np.random.default_rng(5)
    points = np.asarray(terms.points, np.float64)
    values = np.concatenate(
        [rng.uniform(points[0] - 10, points[-1] + 10, 300), points, (points[:-1] + points[1:]) / 2]
    )
    source = TableName("numbers", "main")
    engine.load_arrow(
        source, pa.table({"ok": [True] * len(values), "q": [1] * len(values), "x": values})
    )
    config = PersonalizedConfig(
        quasi_identifiers=("q",),
        consent_column="ok",
        numeric=(NumericSA("x", terms),),
        k=1,
    )
    engine.create_schema("w")
    prepare_rows(engine, source, config, WorkTables("w"))
    rows = frame(engine, WorkTables("w").rows).sort_values("x0")
    term, weight = fuzzify(rows["x0"].to_numpy(), terms)
    assert rows["s0"].tolist() == term.tolist()
    assert np.allclose(rows["w0"].to_numpy(), weight)
