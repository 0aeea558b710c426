"""The special functions the Pitman fit needs, without importing scipy.

Every run estimates the source's population uniques (Pitman's model, solved as ARX solves it, in its
digamma form; :mod:`anonsql.risk.population`), and importing ``scipy.special`` (it loads
``scipy.sparse``) is a large part of a small run (BENCHMARKS.md "Startup weight"). Digamma and
trigamma of positive arguments are computed here by the textbook method (Abramowitz & Stegun 6.3.5
and 6.4.6 to shift the argument past :data:`SHIFT_TO`, then the asymptotic series 6.3.18 and 6.4.12,
Bernoulli terms up to ``x**-16``: a truncation error below 1e-17 relative there); gamma and
log-gamma are the standard library's. ``tests/risk/test_special.py`` holds them to ``scipy.special``
over the range the fit meets (1e-6 to 1e12) within 4e-15 relative.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from anonsql.arrays import FloatArray

#: Arguments below this are shifted up by the recurrence before the asymptotic series is used.
SHIFT_TO = 16.0

# B_2k / (2k) for digamma's series (A&S 6.3.18) and B_2k for trigamma's (A&S 6.4.12), k = 1..8
_DIGAMMA_TERMS = (
    1 / 12,
    -1 / 120,
    1 / 252,
    -1 / 240,
    1 / 132,
    -691 / 32760,
    1 / 12,
    -3617 / 8160,
)
_TRIGAMMA_TERMS = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)


def _shift(x: Any, power: int) -> tuple[FloatArray, FloatArray, tuple[int, ...]]:
    """The argument raised past :data:`SHIFT_TO` by whole steps, and the sum of
    ``1/(x + j)**power`` over the steps taken (the recurrences' terms), in one broadcast."""
    value = np.asarray(x, dtype=np.float64)
    z = value.reshape(-1)
    finite = np.where(np.isfinite(z), z, SHIFT_TO)
    steps = np.clip(np.ceil(SHIFT_TO - finite), 0, None)
    j = np.arange(int(steps.max(initial=0)), dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        terms = np.where(j < steps[:, None], (z[:, None] + j) ** -power, 0.0)
    return z + steps, terms.sum(axis=1), value.shape


def digamma(x: Any) -> Any:
    """psi(x) for ``x >= 0`` (-inf at 0), elementwise; a float for a scalar argument."""
    z, steps, shape = _shift(x, 1)  # psi(x) = psi(x + m) - sum_{j<m} 1/(x + j)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        inverse_square = 1.0 / (z * z)
        series = np.zeros_like(z)
        for term in reversed(_DIGAMMA_TERMS):
            series = (series + term) * inverse_square
        result = np.log(z) - 0.5 / z - series - steps
    return float(result[0]) if not shape else result.reshape(shape)


def trigamma(x: Any) -> Any:
    """psi'(x) for ``x >= 0`` (+inf at 0), elementwise; a float for a scalar argument."""
    z, steps, shape = _shift(x, 2)  # psi'(x) = psi'(x + m) + sum_{j<m} 1/(x + j)^2
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        inverse = 1.0 / z
        inverse_square = inverse * inverse
        series = np.zeros_like(z)
        for term in reversed(_TRIGAMMA_TERMS):
            series = (series + term) * inverse_square
        result = inverse + 0.5 * inverse_square + series * inverse + steps
    return float(result[0]) if not shape else result.reshape(shape)


def gamma(x: float) -> float:
    """Gamma(x) as ``scipy.special.gamma`` reports it: inf past overflow and at 0, NaN at the
    negative integers (where :func:`math.gamma` raises)."""
    try:
        return math.gamma(x)
    except OverflowError:
        return math.inf
    except ValueError:
        return math.inf if x == 0 else math.nan


def gammaln(x: float) -> float:
    """log|Gamma(x)| (:func:`math.lgamma`; inf at the poles, as scipy's ``gammaln``)."""
    try:
        return math.lgamma(x)
    except (OverflowError, ValueError):
        return math.inf


__all__ = ["digamma", "gamma", "gammaln", "trigamma"]
