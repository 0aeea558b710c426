"""The in-memory person-level Mondrian with the identity-reserved models as split condition."""

from __future__ import annotations

import numpy as np
import pytest
from ir_fixtures import table_2_individuals
from ir_helpers import model
from test_ir_danonyir import FOUR_MODELS, random_individuals

from anonsql.algorithms.identity_reserved.decisions import decision_for
from anonsql.algorithms.identity_reserved.mondrian import person_mondrian


@pytest.mark.parametrize(("name", "params"), FOUR_MODELS)
def test_every_leaf_satisfies_the_model(name: str, params: dict[str, float]) -> None:
    individuals = random_individuals(150, 4)
    m = model(name, column="disease", **params)
    result = person_mondrian(individuals, m)
    assert result.classes > 1
    assert (result.cluster >= 0).all()
    decision = decision_for(m, individuals, incremental=False)
    for c in range(result.classes):
        assert decision.check(np.flatnonzero(result.cluster == c))
    assert result.steps == result.classes - 1
    assert 0.0 < result.nloss < 1.0


def test_running_example() -> None:
    # IR (3,3) allows one cut of Table 2; EIR 3-diversity allows none (no median cut leaves
    # two halves whose minimum hitting sets reach 3)
    individuals = table_2_individuals()
    el = person_mondrian(individuals, model("eir_l_diversity", column="disease", l=3))
    assert el.classes == 1
    kl = person_mondrian(individuals, model("ir_kl_anonymity", column="disease", k=3, l=3))
    classes = {frozenset(np.flatnonzero(kl.cluster == c) + 1) for c in range(kl.classes)}
    assert classes == {frozenset({1, 3, 4}), frozenset({2, 5, 6, 7})}
