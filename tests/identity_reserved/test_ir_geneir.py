"""GeneIR, the taxonomy baseline: Table 3 from the running example (digest §1.6, T1, T5)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from ir_fixtures import hierarchies, table_2_individuals
from ir_helpers import model

from anonsql.algorithms.identity_reserved.decisions import decision_for
from anonsql.algorithms.identity_reserved.geneir import GeneIROptions, geneir, hierarchy_domains
from anonsql.algorithms.identity_reserved.generalization import class_texts
from anonsql.errors import SpecError
from anonsql.hierarchies import Hierarchy

ORDER = ("age", "postcode", "age", "gender")


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("ir_kl_anonymity", {"k": 3, "l": 3}),
        ("ir_alpha_beta_anonymity", {"alpha": 0.4, "beta": 0.6}),
    ],
)
def test_table_3(name: str, params: dict[str, float]) -> None:
    # Age -> [30,34]/[35,39], Postcode -> 1007*/1008*, Age -> [30,39] moves {2,5,6,7} (still F);
    # Gender -> * moves {1,3,4}. Loss 115/6, NLoss 23/36 under Eqs. 11-15
    individuals = table_2_individuals()
    result = geneir(
        individuals,
        model(name, column="disease", **params),
        hierarchies(),
        GeneIROptions(order=ORDER),
    )
    classes = {frozenset(np.flatnonzero(result.cluster == c) + 1) for c in range(result.classes)}
    assert classes == {frozenset({2, 5, 6, 7}), frozenset({1, 3, 4})}
    assert Fraction(result.nloss).limit_denominator(1000) == Fraction(23, 36)
    assert Fraction(result.loss).limit_denominator(1000) == Fraction(115, 6)
    texts = class_texts(individuals, result)
    q1, q2 = int(result.cluster[1]), int(result.cluster[0])
    assert (texts["gender"][q1], texts["age"][q1], texts["postcode"][q1]) == (
        "{F}",
        "[30, 39]",
        "{10070, 10073, 10076, 10077}",
    )
    assert (texts["gender"][q2], texts["age"][q2], texts["postcode"][q2]) == (
        "{F, M}",
        "[30, 39]",
        "{10085, 10086, 10087}",
    )
    assert result.steps == 4
    # Q2 is vulnerable: EIR 3-diversity fails on it
    el = decision_for(model("eir_l_diversity", column="disease", l=3), individuals)
    assert not el.check(np.flatnonzero(result.cluster == q2))
    assert el.check(np.flatnonzero(result.cluster == q1))


def test_residuals_join_the_closest_class() -> None:
    # EIR 3-diversity: after Q1 leaves, {1,3,4} (τ = 1) cannot satisfy it, so GeneIR stops and
    # the residuals join Q1, whose nodes climb to the roots
    individuals = table_2_individuals()
    result = geneir(
        individuals,
        model("eir_l_diversity", column="disease", l=3),
        hierarchies(),
        GeneIROptions(order=ORDER),
    )
    assert result.classes == 1 and (result.cluster == 0).all()
    assert result.nloss == pytest.approx(1.0)
    assert result.steps == 3


@pytest.mark.parametrize("seed", range(4))
def test_random_orders_satisfy_the_model(seed: int) -> None:
    individuals = table_2_individuals()
    m = model("ir_kl_anonymity", column="disease", k=2, l=2)
    result = geneir(individuals, m, hierarchies(), GeneIROptions(seed=seed))
    decision = decision_for(m, individuals)
    for c in range(result.classes):
        assert decision.check(np.flatnonzero(result.cluster == c))
    assert (result.cluster >= 0).all()


def test_taxonomies_must_cover_the_data() -> None:
    individuals = table_2_individuals()
    m = model("ir_kl_anonymity", column="disease", k=3, l=3)
    partial = dict(hierarchies())
    partial["postcode"] = Hierarchy([["10070", "*"], ["10073", "*"]], name="postcode")
    with pytest.raises(SpecError, match="taxonomy's leaves"):
        geneir(individuals, m, partial)
    missing = {k: v for k, v in hierarchies().items() if k != "gender"}
    with pytest.raises(SpecError, match="has none"):
        geneir(individuals, m, missing)


def test_hierarchy_domains() -> None:
    domains, categories = hierarchy_domains(hierarchies(), ["age"], ["gender"])
    assert domains == {"age": (30.0, 39.0)}
    assert categories == {"gender": ("F", "M")}
