"""Independent computations of the risk figures, written from the papers' formulas and kept
apart from anonsql's code: per-record loops, direct sums, a generic optimizer instead of
Newton-Raphson, log-factorials instead of scipy's distributions."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from scipy import optimize, stats


def histogram(class_sizes: Sequence[int]) -> dict[int, int]:
    return dict(Counter(int(s) for s in class_sizes))


def log_choose(a: int, b: int) -> float:
    return math.lgamma(a + 1) - math.lgamma(b + 1) - math.lgamma(a - b + 1)


def zayatz(hist: dict[int, int], big_n: int) -> float:
    """Zayatz 1991 with exact hypergeometric probabilities from log-factorials."""
    n = sum(s * c for s, c in hist.items())
    u = sum(hist.values())

    def one_in_sample(j: int) -> float:
        # j * C(N - j, n - 1) / C(N, n)
        if n - 1 > big_n - j:
            return 0.0
        return math.exp(math.log(j) + log_choose(big_n - j, n - 1) - log_choose(big_n, n))

    conditional = (hist.get(1, 0) / u * one_in_sample(1)) / sum(
        c / u * one_in_sample(s) for s, c in hist.items()
    )
    return hist.get(1, 0) * conditional / (n / big_n)


def pitman_log_likelihood(theta: float, alpha: float, hist: dict[int, int]) -> float:
    """Pitman's sampling formula, written as direct sums."""
    n = sum(s * c for s, c in hist.items())
    u = sum(hist.values())
    i = np.arange(1, u, dtype=float)
    m = np.arange(1, n, dtype=float)
    value = np.sum(np.log(theta + i * alpha)) - np.sum(np.log(theta + m))
    for size, count in hist.items():
        k = np.arange(1, size, dtype=float)
        value += count * np.sum(np.log(k - alpha))
    return float(value)


def pitman(hist: dict[int, int], big_n: int, start: tuple[float, float]) -> float:
    """Population uniques by Hoshino's Pitman model, fitted with a generic optimizer."""

    u = sum(hist.values())

    def negative(x: npt.NDArray[np.float64]) -> float:
        # Pitman's formula needs alpha < 1 and theta + i alpha > 0 for i < u (alpha may be < 0)
        theta, alpha = float(x[0]), float(x[1])
        if not (alpha < 1 and theta >= 0 and theta + (u - 1) * alpha > 0):
            return 1e300
        return -pitman_log_likelihood(theta, alpha, hist)

    fit = optimize.minimize(
        negative, np.array(start), method="Nelder-Mead", options={"xatol": 1e-10, "fatol": 1e-12}
    )
    theta, alpha = float(fit.x[0]), float(fit.x[1])
    return math.exp(math.lgamma(theta + 1) - math.lgamma(theta + alpha) + alpha * math.log(big_n))


def shlosser_published(hist: dict[int, int], q: float) -> float:
    """Haas et al.'s D_Sh3, term by term."""
    u = sum(hist.values())
    f1 = hist.get(1, 0)
    a = sum(i * q * q * (1 - q * q) ** (i - 1) * c for i, c in hist.items())
    b = sum((1 - q) ** i * ((1 + q) ** i - 1) * c for i, c in hist.items())
    d = sum((1 - q) ** i * c for i, c in hist.items())
    e = sum(i * q * (1 - q) ** (i - 1) * c for i, c in hist.items())
    return u + f1 * (a / b) * (d / e) ** 2


def snb_expected_counts(alpha: float, beta: float, k: float, f: float) -> tuple[float, float]:
    """Expected sample classes of size 1 and 2 when population class sizes are 1 + NegBin(alpha,
    beta) and each person is sampled with probability f, by summing over population sizes."""
    sizes = np.arange(1, 20000)
    weights = stats.nbinom.pmf(sizes - 1, alpha, beta)
    return (
        k * float(np.sum(weights * stats.binom.pmf(1, sizes, f))),
        k * float(np.sum(weights * stats.binom.pmf(2, sizes, f))),
    )


def sdcmicro_individual_risk(sample: Sequence[int], population: Sequence[float]) -> list[float]:
    """sdcMicro's approximate individual risk of each record from its class's f_k and F_k."""
    out = []
    for f, big_f in zip(sample, population, strict=True):
        if f == big_f:
            out.append(1.0 / f)
            continue
        p = f / big_f
        if f == 1:
            out.append(p / (1 - p) * math.log(1 / p))
        elif f == 2:
            out.append(p / (1 - p) - (p / (1 - p)) ** 2 * math.log(1 / p))
        else:
            out.append(p / (f - (1 - p)))
    return out
