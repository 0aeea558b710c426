"""The confidence bounds of anonsql.attacks.bounds against the models' definitions, recomputed
here: no class distribution a model accepts gives the adversary more confidence than the bound
says, and the bound is reached (or approached) by one the model accepts, so it is not loose by
more than the search finds."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anonsql.attacks.bounds import confidence_bound, entropy_bound, inference_bound
from anonsql.privacy import PRIVACY_MODELS, PrivacyModel

RANDOM = settings(max_examples=300, deadline=None)
counts_lists = st.lists(st.integers(0, 40), min_size=2, max_size=6)


def model(name: str, **params: object) -> PrivacyModel:
    return PRIVACY_MODELS.get(name).from_spec({"column": "s", **params}, key="privacy[0]")


def entropy(counts: list[int]) -> float:
    n = sum(counts)
    return -sum(c / n * math.log(c / n) for c in counts if c)


@RANDOM
@given(counts=counts_lists, l_value=st.floats(1.0, 4.0))
def test_entropy_l_diversity(counts: list[int], l_value: float) -> None:
    if sum(counts) == 0 or entropy(counts) < math.log(l_value):
        return
    bound = confidence_bound(model("entropy_l_diversity", l=l_value), 0.0, len(counts))
    assert bound is not None
    assert max(counts) / sum(counts) <= bound + 1e-9


def test_entropy_bound_is_reached() -> None:
    # l = 2 over 2 values: only the even split has entropy ln 2
    assert entropy_bound(2.0, 2) == pytest.approx(0.5, abs=1e-3)  # within the check's slack
    # l = 2 over 3 values: p with h(p) + (1 - p) ln 2 = ln 2
    p = entropy_bound(2.0, 3)
    rest = (1 - p) / 2
    assert -p * math.log(p) - 2 * rest * math.log(rest) == pytest.approx(math.log(2), abs=1e-6)
    assert entropy_bound(1.0, 5) == 1.0


@RANDOM
@given(counts=counts_lists, c=st.floats(0.5, 5.0), l_value=st.integers(2, 4))
def test_recursive_cl_diversity(counts: list[int], c: float, l_value: int) -> None:
    ranked = sorted(counts, reverse=True)
    if sum(ranked) == 0 or len([x for x in ranked if x]) < l_value:
        return
    if not ranked[0] < c * sum(ranked[l_value - 1 :]):
        return
    bound = confidence_bound(model("recursive_cl_diversity", c=c, l=l_value), 0.0, len(counts))
    assert bound is not None and ranked[0] / sum(ranked) < bound


@RANDOM
@given(cls=counts_lists, rest=counts_lists, t=st.floats(0.0, 1.0))
def test_t_closeness_equal_distance(cls: list[int], rest: list[int], t: float) -> None:
    m = min(len(cls), len(rest))
    cls, whole = cls[:m], [a + b for a, b in zip(cls[:m], rest[:m], strict=True)]
    if sum(cls) == 0:
        return
    p = [x / sum(cls) for x in cls]
    q = [x / sum(whole) for x in whole]
    if 0.5 * sum(abs(a - b) for a, b in zip(p, q, strict=True)) > t:
        return
    bound = confidence_bound(model("t_closeness", t=t), max(q), m)
    assert bound is not None and max(p) <= bound + 1e-9


@RANDOM
@given(cls=counts_lists, rest=counts_lists, beta=st.floats(0.01, 4.0))
def test_beta_likeness_and_delta_disclosure(cls: list[int], rest: list[int], beta: float) -> None:
    m = min(len(cls), len(rest))
    cls, whole = cls[:m], [a + b for a, b in zip(cls[:m], rest[:m], strict=True)]
    if sum(cls) == 0:
        return
    p = [x / sum(cls) for x in cls]
    q = [x / sum(whole) for x in whole]
    gains = [(a - b) / b for a, b in zip(p, q, strict=True) if a > b]
    if all(g <= beta for g in gains):
        bound = confidence_bound(model("basic_beta_likeness", beta=beta), max(q), m)
        assert bound is not None and max(p) <= bound + 1e-9
    if all(
        g <= min(beta, -math.log(b))
        for a, b in zip(p, q, strict=True)
        if a > b
        for g in [(a - b) / b]
    ):
        bound = confidence_bound(model("enhanced_beta_likeness", beta=beta), max(q), m)
        assert bound is not None and max(p) <= bound + 1e-9
    if all(abs(math.log2(a / b)) < beta for a, b in zip(p, q, strict=True) if a > 0):
        bound = confidence_bound(model("delta_disclosure_privacy", delta=beta), max(q), m)
        assert bound is not None and max(p) <= bound + 1e-9


def test_distinct_l_diversity_and_k_anonymity_bound_nothing() -> None:
    found, why = inference_bound([model("distinct_l_diversity", l=3)], "s", 0.5, 5)
    assert found is None and "no certified model" in why
    k = PRIVACY_MODELS.get("k_anonymity").from_spec({"k": 5}, key="privacy[0]")
    assert inference_bound([k], "s", 0.5, 5)[0] is None
    # the strictest of several holds, and only on the model's own column
    models = [model("recursive_cl_diversity", c=3, l=2), model("t_closeness", t=0.1)]
    bound, why = inference_bound(models, "s", 0.4, 5)
    assert bound == pytest.approx(0.5) and why == "t_closeness"
    assert inference_bound(models, "other", 0.4, 5)[0] is None
