"""Flash finds the optimum that exhaustive search finds, on random tables, for every objective,
with and without suppression, on both engines."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from fd_helpers import SOURCE, WORK, load, random_qids, random_table

from anonsql.algorithms.full_domain import (
    Lattice,
    NodeEvaluator,
    build_frequency,
    full_domain_search,
    levels_from_rows,
    make_objective,
    suppression_budget,
)
from anonsql.engines import Engine
from anonsql.errors import InfeasibleError
from anonsql.privacy.registry import models_from_entries

OBJECTIVES: list[tuple[str, dict[str, Any]]] = [
    ("loss", {}),
    ("ncp", {}),
    ("entropy", {"monotonic": True}),
    ("entropy", {"monotonic": False}),
    ("discernibility", {"monotonic": False}),
    ("discernibility", {"monotonic": True}),
]

MODELS: dict[str, list[dict[str, Any]]] = {
    "k": [{"k_anonymity": {"k": 6}}],
    "k+distinct_l": [{"k_anonymity": {"k": 3}}, {"distinct_l_diversity": {"column": "sa", "l": 2}}],
    "entropy_l": [{"entropy_l_diversity": {"column": "sa", "l": 1.8}}],
}


def compare(evaluator: NodeEvaluator, limit: float) -> None:
    for name, params in OBJECTIVES:
        exhaustive = full_domain_search(
            evaluator,
            make_objective(name, **params),
            suppression_limit=limit,
            algorithm="exhaustive",
        )
        flash = full_domain_search(
            evaluator, make_objective(name, **params), suppression_limit=limit
        )
        label = (name, params, limit)
        assert exhaustive.stats.checked == exhaustive.stats.lattice_nodes, label
        assert flash.value == exhaustive.value, label
        # ties go to the lowest sum of levels, then to Flash's order: the same node
        assert flash.levels == exhaustive.levels, label
        assert (
            flash.stats.checked + flash.stats.tagged_anonymous + flash.stats.tagged_not_anonymous
            <= flash.stats.lattice_nodes
        )
        assert flash.suppressed_rows <= suppression_budget(evaluator.freq.rows, limit)


@pytest.mark.parametrize("seed", [21, 22, 23])
@pytest.mark.parametrize("limit", [0.0, 0.06])
def test_flash_equals_exhaustive_k_anonymity(engine: Engine, seed: int, limit: float) -> None:
    rng = np.random.default_rng(seed)
    qids = random_qids(rng, 3, max_leaves=8)
    load(engine, random_table(rng, int(rng.integers(150, 500)), qids))
    freq = build_frequency(engine, SOURCE, qids, schema=WORK)
    budget = suppression_budget(freq.rows, limit)
    evaluator = NodeEvaluator(freq, models_from_entries(MODELS["k"]), budget=budget)
    compare(evaluator, limit)


@pytest.mark.parametrize("models", ["k+distinct_l", "entropy_l"])
@pytest.mark.parametrize("limit", [0.0, 0.08])
def test_flash_equals_exhaustive_sensitive_models(
    engine: Engine, models: str, limit: float
) -> None:
    rng = np.random.default_rng(31)
    qids = random_qids(rng, 3, max_leaves=6)
    load(engine, random_table(rng, 300, qids, sensitive=4))
    freq = build_frequency(engine, SOURCE, qids, schema=WORK, sensitive=["sa"])
    budget = suppression_budget(freq.rows, limit)
    evaluator = NodeEvaluator(freq, models_from_entries(MODELS[models]), budget=budget)
    compare(evaluator, limit)


def test_suppression_can_break_monotonicity(engine: Engine) -> None:
    """Entropy l-diversity with suppression: the bottom is anonymous (its one skewed class is
    suppressed), the middle level is not (the skewed class swamps its sibling), the top is. A
    search that tagged the bottom from the middle would miss the optimum."""
    sa = {"x1": "b" * 5 + "c" * 3 + "d" * 2, "x2": "b" * 20, "x3": "eeeeffffgg", "x4": "eeeefffggg"}
    rows = [(x, s) for x, values in sa.items() for s in values]
    table = pa.table({"x": [x for x, _ in rows], "sa": [s for _, s in rows]})
    qids = [
        levels_from_rows(
            [["x1", "X12", "*"], ["x2", "X12", "*"], ["x3", "X34", "*"], ["x4", "X34", "*"]],
            column="x",
        )
    ]
    load(engine, table)
    freq = build_frequency(engine, SOURCE, qids, schema=WORK, sensitive=["sa"])
    models = models_from_entries([{"entropy_l_diversity": {"column": "sa", "l": 2.5}}])
    evaluator = NodeEvaluator(freq, models, budget=suppression_budget(50, 0.4))
    assert [evaluator.evaluate([lv]).anonymous for lv in range(3)] == [True, False, True]
    for name, params in OBJECTIVES:
        result = full_domain_search(
            evaluator, make_objective(name, **params), suppression_limit=0.4
        )
        assert result.stats.privacy_monotonicity == "partial"
        assert result.levels == (0,), (name, params)
        assert result.suppressed_rows == 20


def test_flash_tags_most_of_a_larger_lattice(engine: Engine) -> None:
    rng = np.random.default_rng(41)
    qids = random_qids(rng, 5, max_leaves=8, max_height=3)
    load(engine, random_table(rng, 800, qids))
    freq = build_frequency(engine, SOURCE, qids, schema=WORK)
    evaluator = NodeEvaluator(freq, models_from_entries([{"k_anonymity": {"k": 5}}]), budget=0)
    result = full_domain_search(evaluator, make_objective("entropy"), suppression_limit=0.0)
    lattice = Lattice(result.heights)
    stats = result.stats
    assert stats.privacy_monotonicity == "full" and stats.objective_monotone
    assert stats.checked < lattice.size // 2
    assert (
        stats.checked + stats.tagged_anonymous + stats.tagged_not_anonymous + stats.pruned
        >= lattice.size
    )
    certificate = result.certificate()
    assert certificate["node"] == dict(zip(result.qids, result.levels, strict=True))
    assert certificate["statistics"]["checked"] == stats.checked


def test_no_anonymous_node_is_infeasible(engine: Engine) -> None:
    rng = np.random.default_rng(51)
    qids = random_qids(rng, 2)
    load(engine, random_table(rng, 30, qids))
    freq = build_frequency(engine, SOURCE, qids, schema=WORK)
    evaluator = NodeEvaluator(freq, models_from_entries([{"k_anonymity": {"k": 31}}]), budget=0)
    with pytest.raises(InfeasibleError, match="not even every column at its root"):
        full_domain_search(evaluator, make_objective("loss"), suppression_limit=0.0)
