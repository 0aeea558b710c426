"""Objective values: against pandas on the rows, and against the values ARX's own tests pin at
lattice nodes of Adult (``TestUtilityMetrics``: k = 5, quasi-identifiers all columns but
occupation, in the file's order)."""

from __future__ import annotations

import inspect
import typing

import numpy as np
import pytest
from fd_helpers import SOURCE, WORK, adult_arx, load, random_qids, random_table, reference

from anonsql.algorithms.full_domain import (
    Lattice,
    NodeEvaluator,
    build_frequency,
    make_objective,
    objectives,
)
from anonsql.algorithms.full_domain.algorithm import FullDomainOptions
from anonsql.algorithms.full_domain.objectives import Marginals
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.privacy.registry import models_from_entries


def test_objectives_match_the_rows(engine: Engine) -> None:
    rng = np.random.default_rng(11)
    qids = random_qids(rng, 3, max_leaves=9)
    table = random_table(rng, 500, qids)
    load(engine, table)
    freq = build_frequency(engine, SOURCE, qids, schema=WORK)
    evaluator = NodeEvaluator(freq, models_from_entries([{"k_anonymity": {"k": 6}}]), budget=40)
    marginals = Marginals(freq.qids, freq.leaf_counts, freq.rows)
    objectives = {
        "loss": make_objective("loss"),
        "ncp": make_objective("ncp"),
        "entropy": make_objective("entropy", monotonic=True),
        "entropy_nm": make_objective("entropy", monotonic=False),
        "dm": make_objective("discernibility"),
        "dm_star": make_objective("discernibility", monotonic=True),
    }
    for objective in objectives.values():
        objective.prepare(marginals)
    lattice = Lattice(tuple(q.height for q in qids))
    for index in rng.choice(lattice.size, size=min(12, lattice.size), replace=False):
        levels = lattice.node(int(index))
        stats = evaluator.with_profile(evaluator.evaluate(levels))
        ref = reference(table, qids, levels, k=6)
        for name, objective in objectives.items():
            value = objective.value(stats)
            assert value.total == pytest.approx(ref[name], rel=1e-9, abs=1e-9), (name, levels)
            assert objective.lower_bound(levels) <= value.total + 1e-9, (name, levels)
        per_qid = objectives["loss"].value(stats).per_qid
        assert per_qid == pytest.approx(ref["loss_per_qid"], abs=1e-9)


def test_bounds_are_monotone_in_the_lattice() -> None:
    rng = np.random.default_rng(12)
    qids = random_qids(rng, 3)
    counts = tuple(rng.integers(0, 50, size=q.leaf_count) for q in qids)
    lattice = Lattice(tuple(q.height for q in qids))
    for name in ("loss", "ncp", "entropy"):
        objective = make_objective(name)
        objective.prepare(Marginals(tuple(qids), counts, int(counts[0].sum())))
        bounds = objective.lower_bounds(lattice.levels.astype(np.int64))
        for index in range(lattice.size):
            for up in lattice.successors(index):
                assert bounds[up] >= bounds[index] - 1e-12, name


def test_unknown_objectives_and_parameters() -> None:
    with pytest.raises(SpecError, match="unknown objective 'precision'"):
        make_objective("precision")
    with pytest.raises(SpecError, match="did you mean 'entropy'"):
        make_objective("entrop")
    with pytest.raises(SpecError, match="does not take"):
        make_objective("ncp", monotonic=True)
    with pytest.raises(SpecError, match="gs_factor = 2"):
        make_objective("loss", gs_factor=2)


def test_the_options_name_every_objective_and_its_parameters() -> None:
    field = FullDomainOptions.model_fields["objective"]
    assert sorted(typing.get_args(field.annotation)) == objectives.OBJECTIVES.names()
    for name, cls in objectives.OBJECTIVES.items():
        assert cls.parameter_names == tuple(inspect.signature(cls).parameters), name


# ARX, src/test/org/deidentifier/arx/test/TestUtilityMetrics.java: (suppression limit, metric,
# node, value). Loss is listed as ARX's RANK aggregate: the per-attribute values, sorted down.
ARX_NODE_VALUES = [
    (0.05, "entropy_nm", [0, 0, 0, 0, 0, 0, 0, 0], 268778.22471939825),
    (0.05, "entropy_nm", [0, 1, 0, 1, 0, 1, 0, 1], 206422.97000364092),
    (0.05, "entropy_nm", [0, 3, 1, 0, 0, 0, 0, 1], 225818.85565423348),
    (0.05, "entropy_nm", [1, 1, 1, 0, 1, 1, 0, 1], 219650.6130825568),
    (0.05, "entropy_nm", [1, 0, 0, 1, 2, 2, 0, 1], 198394.0850062312),
    (0.05, "entropy_nm", [0, 1, 0, 0, 1, 2, 2, 1], 213938.9707150555),
    (0.05, "entropy_nm", [0, 4, 0, 0, 3, 1, 0, 0], 281042.4101515442),
    (0.05, "entropy_nm", [1, 4, 1, 0, 1, 1, 0, 1], 299613.90272535814),
    (0.05, "entropy_nm", [1, 3, 1, 2, 1, 2, 0, 1], 315247.228170622),
    (0.05, "entropy_nm", [1, 4, 1, 2, 3, 2, 2, 1], 455884.9365769584),
    (0.05, "dm", [0, 0, 0, 0, 0, 0, 0, 0], 4.63536157e8),
    (0.05, "dm", [0, 0, 1, 0, 3, 0, 0, 0], 1.7590937e8),
    (0.05, "dm", [1, 2, 0, 0, 1, 1, 0, 1], 8.1138574e7),
    (0.05, "dm", [1, 1, 0, 1, 3, 0, 1, 0], 7.7668128e7),
    (0.05, "dm", [1, 2, 0, 2, 0, 1, 1, 0], 6.068664e7),
    (0.05, "dm", [0, 3, 1, 1, 1, 2, 0, 0], 3.4129719e7),
    (0.05, "dm", [1, 0, 0, 2, 2, 2, 1, 0], 4.7522592e7),
    (0.05, "dm", [1, 4, 1, 1, 0, 1, 1, 0], 5.8151821e7),
    (0.05, "dm", [1, 2, 1, 1, 3, 1, 1, 1], 7.5054871e7),
    (0.05, "dm", [1, 4, 1, 2, 3, 2, 2, 1], 9.09746244e8),
    (0.0, "dm_star", [0, 0, 0, 0, 0, 0, 0, 0], 485542.0),
    (0.0, "dm_star", [1, 1, 0, 1, 0, 2, 0, 0], 4426432.0),
    (0.0, "dm_star", [1, 0, 1, 1, 3, 2, 2, 0], 8461812.0),
    (0.0, "dm_star", [1, 4, 1, 1, 2, 2, 0, 0], 9.6950278e7),
    (0.0, "dm_star", [0, 4, 1, 1, 1, 2, 2, 1], 1.01990664e8),
    (0.0, "dm_star", [1, 4, 1, 2, 2, 2, 1, 0], 2.1530661e8),
    (0.0, "dm_star", [1, 4, 1, 1, 3, 2, 0, 1], 2.60892746e8),
    (0.0, "dm_star", [1, 4, 1, 2, 3, 2, 2, 0], 5.6957378e8),
    (0.0, "dm_star", [1, 3, 1, 2, 3, 2, 2, 1], 3.6770985e8),
    (0.0, "loss", [0, 0, 0, 2, 0, 0, 0, 0], [1.0] + [0.3843909555] * 7),
    (0.0, "loss", [0, 3, 1, 1, 1, 1, 0, 0], [1.0, 0.4535066198, 0.299545786, 0.220264444, 0.2196339765, 0.0350772495, 0.0350772495, 0.0350772495]),  # noqa: E501
    (0.0, "loss", [1, 4, 1, 0, 1, 2, 2, 1], [1.0] * 6 + [0.1899012001, 6.63086e-5]),
    (0.0, "loss", [0, 4, 1, 2, 3, 2, 1, 0], [1.0] * 5 + [0.2856479771, 0.0, 0.0]),
    (0.0, "loss", [0, 4, 1, 1, 3, 1, 2, 1], [1.0] * 5 + [0.4331609309, 0.2728756382, 0.0]),
    (0.0, "loss", [0, 3, 0, 2, 3, 2, 2, 1], [1.0] * 5 + [0.1924014362, 5.967774e-4, 5.967774e-4]),
    (0.05, "loss", [0, 0, 0, 0, 0, 0, 0, 0], [0.5090179696] * 8),
    (0.05, "loss", [1, 1, 1, 0, 1, 0, 1, 1], [1.0, 1.0, 1.0, 0.3444921234, 0.258026656, 0.1193682062, 0.0822889728, 0.0822889728]),  # noqa: E501
    (0.05, "loss", [1, 3, 1, 0, 1, 0, 1, 0], [1.0, 1.0, 0.3280807449, 0.2398489235, 0.2391132329, 0.0593130429, 0.0593130429, 0.0593130429]),  # noqa: E501
    (0.05, "loss", [1, 0, 1, 0, 1, 2, 2, 0], [1.0] * 4 + [0.2449218663, 0.0648166567, 0.0648166567, 0.0648166567]),  # noqa: E501
    (0.05, "loss", [0, 2, 1, 1, 1, 1, 1, 1], [1.0, 1.0, 0.4441902614, 0.2991180956, 0.287697268, 0.2057865305, 0.1079684853, 0.0187653338]),  # noqa: E501
    (0.05, "loss", [0, 0, 0, 2, 2, 2, 1, 1], [1.0, 1.0, 1.0, 0.4042592224, 0.3257599439, 0.0560639214, 0.0560639214, 0.0560639214]),  # noqa: E501
    (0.05, "loss", [1, 2, 1, 0, 3, 0, 1, 1], [1.0] * 4 + [0.3107694639, 0.1227974995, 0.0350772495, 0.0350772495]),  # noqa: E501
]  # fmt: skip

OBJECTIVES = {
    "entropy_nm": ("entropy", {"monotonic": False}),
    "dm": ("discernibility", {}),
    "dm_star": ("discernibility", {"monotonic": True}),
    "loss": ("loss", {}),
}


def test_arx_values_at_adult_nodes(engine: Engine) -> None:
    """ARX values every listed node after suppressing the classes below k (anonymous or not)."""
    data, qids = adult_arx(without=["occupation"])
    load(engine, data)
    freq = build_frequency(engine, SOURCE, qids, schema=WORK)
    evaluator = NodeEvaluator(freq, models_from_entries([{"k_anonymity": {"k": 5}}]), budget=0)
    marginals = Marginals(freq.qids, freq.leaf_counts, freq.rows)
    for _, name, levels, expected in ARX_NODE_VALUES:
        kind, params = OBJECTIVES[name]
        objective = make_objective(kind, **params)
        objective.prepare(marginals)
        stats = evaluator.with_profile(evaluator.evaluate(levels))
        value = objective.value(stats)
        if isinstance(expected, list):
            assert sorted(value.per_qid, reverse=True) == pytest.approx(expected, abs=1e-9)
        else:
            assert value.total == pytest.approx(expected, rel=1e-12), (name, levels)
