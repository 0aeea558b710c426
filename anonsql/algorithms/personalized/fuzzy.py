"""Fuzzification of numeric sensitive attributes: a value becomes a linguistic term and a weight.

Reddy, Raju, Valli Kumari (IJET 2018) §3, membership functions f_1..f_k; digest 002 §2.6 (the
crisp-interval reading that reproduces Table 9) and T5b (the standard triangular reading).
The engine computes terms with the CASE expressions of ``personalized/_fuzzy.sql`` from
:func:`fuzzy_sql`; :func:`fuzzify` is the same rule in NumPy, the reference the tests hold the
SQL to.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from anonsql.algorithms.personalized.config import FuzzyTerms
from anonsql.arrays import FloatArray, IntArray


@dataclass(frozen=True)
class FuzzySql:
    """What the SQL macros need to compute a term and its weight (all plain floats).

    ``thresholds``: term ``i`` is the first whose threshold the value does not pass (compared
    with ``<`` for the first threshold when ``first_strict``, ``<=`` otherwise); the last term
    takes the rest. ``segments`` (triangular rule) are the (lo, hi) center pairs; ``weights``
    (interval rule) are per term (start, end, rising).
    """

    rule: str
    thresholds: tuple[float, ...]
    first_strict: bool
    segments: tuple[tuple[float, float], ...]
    weights: tuple[tuple[float, float, bool], ...]
    count: int


def fuzzy_sql(terms: FuzzyTerms) -> FuzzySql:
    """The parameters of the SQL term and weight expressions for ``terms``."""
    p = [float(x) for x in terms.points]
    k = len(terms.labels)
    if terms.rule == "triangular":
        mids = tuple((a + b) / 2 for a, b in pairwise(p))
        segments = tuple(pairwise(p))
        return FuzzySql("triangular", mids, False, segments, (), k)
    # paper_intervals: points = min, a_2, ..., a_k, max
    thresholds = tuple(p[1:k])
    weights = tuple((p[i], p[i + 1], i == k - 1) for i in range(k))
    return FuzzySql("paper_intervals", thresholds, True, (), weights, k)


def fuzzify(values: FloatArray, terms: FuzzyTerms) -> tuple[IntArray, FloatArray]:
    """Term numbers (0-based, in label order) and weights of ``values`` (NumPy reference)."""
    x = np.asarray(values, dtype=np.float64)
    spec = fuzzy_sql(terms)
    t = np.asarray(spec.thresholds)
    if spec.first_strict:
        # first term below the first threshold, then "<= threshold" for the others
        term = np.where(x < t[0], 0, np.searchsorted(t[1:], x, side="left") + 1)
    else:
        term = np.searchsorted(t, x, side="left")
    term = np.minimum(term, spec.count - 1).astype(np.int64)
    if spec.rule == "triangular":
        c = np.asarray(terms.points, dtype=np.float64)
        seg = np.clip(np.searchsorted(c, x, side="left") - 1, 0, len(c) - 2)
        lo, hi = c[seg], c[seg + 1]
        down = (hi - x) / (hi - lo)
        weight = np.maximum(down, 1.0 - down)
        weight = np.where((x <= c[0]) | (x >= c[-1]), 1.0, weight)
    else:
        w = np.asarray([(s, e, 1.0 if r else 0.0) for s, e, r in spec.weights])
        start, end, rising = w[term, 0], w[term, 1], w[term, 2] > 0
        weight = np.where(rising, (x - start) / (end - start), (end - x) / (end - start))
    return term, np.clip(weight, 0.0, 1.0)


def round_weights(weights: FloatArray, step: float | None) -> FloatArray:
    """Weights as published: multiples of ``step`` (half up), or unchanged for None."""
    w = np.asarray(weights, dtype=np.float64)
    if step is None:
        return w
    return np.asarray(np.floor(w / step + 0.5) * step, dtype=np.float64)
