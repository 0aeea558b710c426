"""``anonsql.risk.special`` against ``scipy.special`` (the oracle the Pitman fit used before)."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special as scipy_special

from anonsql.risk import special

# the arguments the Pitman fit meets: theta / alpha, class counts, records (up to 1e12)
ARGUMENTS = np.concatenate([np.geomspace(1e-6, 1e12, 20_000), np.linspace(0.01, 40, 4_001)])


def _close(got: npt.NDArray[np.float64], expected: npt.NDArray[np.float64]) -> None:
    # relative to the value, or absolute near digamma's root at 1.4616 where the value is ~0
    error = np.abs(got - expected)
    assert np.all(error <= 4e-15 * np.maximum(np.abs(expected), 1.0)), error.max()


def test_digamma_matches_scipy() -> None:
    _close(special.digamma(ARGUMENTS), scipy_special.digamma(ARGUMENTS))


def test_trigamma_matches_scipy() -> None:
    _close(special.trigamma(ARGUMENTS), scipy_special.polygamma(1, ARGUMENTS))


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=0, max_value=1e15, allow_subnormal=False))
def test_scalars_match_scipy(x: float) -> None:
    for ours, theirs in (
        (special.digamma, scipy_special.digamma),
        (special.trigamma, lambda v: scipy_special.polygamma(1, v)),
    ):
        got, expected = ours(x), float(theirs(x))
        assert isinstance(got, float)
        if math.isinf(expected):
            assert got == expected
        else:
            assert abs(got - expected) <= 4e-15 * max(abs(expected), 1.0)


def test_shapes_and_edges() -> None:
    grid = np.array([[0.5, 2.0], [30.0, np.inf]])
    assert special.digamma(grid).shape == (2, 2)
    assert special.digamma(0.0) == -math.inf and special.trigamma(0.0) == math.inf
    assert math.isnan(special.digamma(math.nan))
    assert special.digamma(math.inf) == math.inf and special.trigamma(math.inf) == 0.0


@pytest.mark.parametrize("x", [0.0, -1.0, -2.0, -0.5, 0.3, 1.0, 5.5, 171.5, 171.7, 300.0, 1e-320])
def test_gamma_and_gammaln_report_as_scipy_does(x: float) -> None:
    pairs = [(special.gamma, scipy_special.gamma), (special.gammaln, scipy_special.gammaln)]
    if x == 1e-320:
        pairs = pairs[:1]  # scipy's gammaln says inf at subnormals; log Gamma(1e-320) is 736.8
    for ours, theirs in pairs:
        expected = float(theirs(x))
        got = ours(x)
        if math.isnan(expected) or math.isinf(expected):
            assert (math.isnan(got) and math.isnan(expected)) or got == expected
        else:
            assert got == pytest.approx(expected, rel=1e-14)
