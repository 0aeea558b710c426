"""DAnonyIR on the paper's running example (digest T4, T5, T10, T12) and its invariants."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest
from ir_fixtures import table_2_individuals
from ir_helpers import model

from anonsql.algorithms.identity_reserved.danonyir import DAnonyIROptions, danonyir, run_seeds
from anonsql.algorithms.identity_reserved.decisions import Admission, SharesDecision, decision_for
from anonsql.algorithms.identity_reserved.distances import (
    Box,
    ClassStore,
    Geometry,
    individual_distances,
)
from anonsql.algorithms.identity_reserved.encoding import Individuals, build_individuals
from anonsql.algorithms.identity_reserved.generalization import class_texts
from anonsql.algorithms.identity_reserved.limits import LimitError

# Id_num -> position among the individuals (ids sorted)
P = {i: i - 1 for i in range(1, 8)}

FOUR_MODELS = [
    ("eir_l_diversity", {"l": 3}),
    ("eir_alpha_beta_anonymity", {"alpha": 0.4, "beta": 0.6}),
    ("ir_kl_anonymity", {"k": 3, "l": 3}),
    ("ir_alpha_beta_anonymity", {"alpha": 0.4, "beta": 0.6}),
]


def exact(values: npt.NDArray[np.float64]) -> list[Fraction]:
    return [Fraction(float(v)).limit_denominator(1000) for v in values]


def box_of(geometry: Geometry, ids: list[int]) -> Box:
    box = Box(geometry, P[ids[0]])
    for i in ids[1:]:
        box.add_individual(P[i])
    return box


def distances(geometry: Geometry, ids: list[int], to: list[int]) -> list[Fraction]:
    targets = np.array([P[i] for i in to])
    return exact(individual_distances(geometry, targets, box_of(geometry, ids)))


def test_distances_of_the_running_example() -> None:
    # T4, Eq. 17 (the paper prints 7.501 and 5.834 for 15/2 and 35/6)
    g = Geometry.of(table_2_individuals())
    F = Fraction
    assert distances(g, [6], [1, 2, 3, 4, 5, 7]) == [
        F(50, 9),
        F(3, 2),
        F(25, 6),
        F(10, 9),
        F(11, 6),
        F(5, 6),
    ]
    assert distances(g, [6, 7], [1, 2, 3, 4, 5]) == [
        F(15, 2),
        F(41, 18),
        F(35, 6),
        F(25, 18),
        F(49, 18),
    ]
    assert distances(g, [3], [1, 2, 5]) == [F(1, 2), F(23, 9), F(25, 9)]
    assert distances(g, [3, 1], [2, 5]) == [F(95, 18), F(103, 18)]
    assert distances(g, [3, 1, 2], [5]) == [F(17, 6)]
    # Eq. 16 (individual to individual) is Eq. 17 with a one-individual class
    assert distances(g, [4], [6]) == [F(10, 9)]
    # Eq. 18: the finished class {4,6,7} to the class being built
    store = ClassStore(g)
    store.add(box_of(g, [6, 7, 4]), np.array([P[6], P[7], P[4]]))
    assert exact(store.distances_to_box(box_of(g, [3]))) == [F(79, 9)]
    assert exact(store.distances_to_box(box_of(g, [3, 1]))) == [F(239, 18)]
    assert exact(store.distances_to_box(box_of(g, [3, 1, 2]))) == [F(25, 2)]
    # Handle's distances for individual 5 (T5, DAnonyIR_kl path)
    store.add(box_of(g, [3, 1, 2]), np.array([P[3], P[1], P[2]]))
    assert exact(store.distances_from_individual(P[5])) == [F(37, 9), F(17, 6)]


@pytest.mark.parametrize(("name", "params"), FOUR_MODELS)
def test_seeds_6_and_3_give_table_4(name: str, params: dict[str, float]) -> None:
    # T5: every model yields Table 4; Loss = 65/6, NLoss = 13/36
    individuals = table_2_individuals()
    result = run_seeds(individuals, model(name, column="disease", **params), [P[6], P[3]])
    classes = {frozenset(np.flatnonzero(result.cluster == c) + 1) for c in range(result.classes)}
    assert classes == {frozenset({4, 6, 7}), frozenset({1, 2, 3, 5})}
    assert Fraction(result.loss).limit_denominator(1000) == Fraction(65, 6)
    assert Fraction(result.nloss).limit_denominator(1000) == Fraction(13, 36)
    texts = class_texts(individuals, result)
    first = int(result.cluster[P[4]])
    second = int(result.cluster[P[1]])
    assert (texts["gender"][first], texts["age"][first], texts["postcode"][first]) == (
        "{F}",
        "[33, 34]",
        "{10070, 10073, 10087}",
    )
    assert (texts["gender"][second], texts["age"][second], texts["postcode"][second]) == (
        "{F, M}",
        "[36, 38]",
        "{10076, 10077, 10085, 10086}",
    )
    assert result.suppressed_records == 0
    # the kl path: {3,1,2} already satisfies IR (3,3), so 5 arrives through Handle
    assert result.steps == (4 if name == "ir_kl_anonymity" else 5)


def test_handle_suppresses_what_costs_more_to_merge() -> None:
    # T10: seeds 2 then 1, EIR 3-diversity: {1,3,6,4} fails (τ = 2); Handle suppresses 1 and
    # 3 (137/18 > 6, 50/9 > 3) and merges 6 and 4 into {2,5,7}
    individuals = table_2_individuals()
    result = run_seeds(individuals, model("eir_l_diversity", column="disease", l=3), [P[2], P[1]])
    assert (result.cluster[[P[1], P[3]]] == -1).all()
    assert result.classes == 1
    assert set(np.flatnonzero(result.cluster == 0) + 1) == {2, 4, 5, 6, 7}
    assert result.suppressed_records == 3 and result.suppressed_individuals == 2
    assert Fraction(result.loss).limit_denominator(1000) == Fraction(158, 9)
    assert result.nloss == pytest.approx(158 / 9 / 30)
    assert class_texts(individuals, result)["postcode"] == ["{10070, 10073, 10076, 10077, 10087}"]


def test_alpha_beta_is_not_monotone_and_handle_checks_it() -> None:
    # T12: {4,6,7} satisfies EIR (0.4, 0.4) (1/3); with 1 added Heart and Hyp reach 2/4
    individuals = table_2_individuals()
    m = model("eir_alpha_beta_anonymity", column="disease", alpha=0.6, beta=0.4)
    decision = decision_for(m, individuals)
    assert isinstance(decision, SharesDecision) and not decision.monotone
    q1 = np.array([P[4], P[6], P[7]])
    assert decision.check(q1)
    assert not decision.check(np.append(q1, P[1]))
    decision.start()
    decision.add(q1)
    assert decision.satisfied()
    decision.add(np.array([P[1]]))
    assert not decision.satisfied()
    labels = np.full(7, -2)
    labels[q1] = 0
    admission = Admission(decision, labels, 1)
    assert admission.admits(P[1]).tolist() == [False]
    assert admission.admits(P[5]).tolist() == [True]
    admission.join(P[5], 0)
    assert admission.persons.tolist() == [4] and admission.max_value_persons.tolist() == [1]


def random_individuals(n: int, seed: int) -> Individuals:
    rng = np.random.default_rng(seed)
    records = rng.integers(1, 5, size=n)
    person = np.repeat(np.arange(n), records)
    diseases = np.array([f"d{i}" for i in range(9)], dtype=object)
    sensitive = np.concatenate([rng.choice(diseases, size=r, replace=False) for r in records])
    age = np.repeat(rng.integers(20, 70, size=n), records)
    city = np.repeat(rng.choice(["a", "b", "c", "d", "e"], size=n), records)
    sex = np.repeat(rng.choice(["F", "M"], size=n), records)
    return build_individuals(
        person, sensitive, numeric={"age": age}, categorical={"city": city, "sex": sex}
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_incremental_and_exact_el_decisions_cluster_alike(seed: int) -> None:
    individuals = random_individuals(80, seed)
    m = model("eir_l_diversity", column="disease", l=4)
    incremental = danonyir(individuals, m, DAnonyIROptions(seed=seed))
    exact_search = danonyir(individuals, m, DAnonyIROptions(seed=seed, incremental=False))
    assert (incremental.cluster == exact_search.cluster).all()
    assert incremental.loss == exact_search.loss


@pytest.mark.parametrize(("name", "params"), FOUR_MODELS)
def test_every_class_satisfies_the_model(name: str, params: dict[str, float]) -> None:
    individuals = random_individuals(120, 7)
    m = model(name, column="disease", **params)
    result = danonyir(individuals, m, DAnonyIROptions(seed=3))
    decision = decision_for(m, individuals, incremental=False)
    for c in range(result.classes):
        assert decision.check(np.flatnonzero(result.cluster == c))
    assert 0.0 <= result.nloss <= 1.0
    assert result.records.sum() + result.suppressed_records == individuals.total_records
    assert result.persons.sum() + result.suppressed_individuals == len(individuals)


def test_size_limit_and_seed_errors() -> None:
    individuals = table_2_individuals()
    m = model("eir_l_diversity", column="disease", l=3)
    with pytest.raises(LimitError, match="limit of 5") as err:
        danonyir(individuals, m, DAnonyIROptions(max_individuals=5))
    assert err.value.key == "algorithm.danonyir"
    with pytest.raises(ValueError, match="position of an individual"):
        danonyir(individuals, m, DAnonyIROptions(seeds=(7,)))
    with pytest.raises(ValueError, match="already placed"):
        danonyir(individuals, m, DAnonyIROptions(seeds=(P[6], P[7])))


def test_infeasible_data_is_suppressed_entirely() -> None:
    # §4.4.1: when D as a whole fails π, every individual is residual and suppressed
    individuals = table_2_individuals()
    result = danonyir(individuals, model("eir_l_diversity", column="disease", l=8))
    assert result.classes == 0
    assert (result.cluster == -1).all()
    assert result.nloss == 1.0
