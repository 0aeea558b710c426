"""What the certified models promise about the attacks: the bounds the gate enforces.

* Singling out and linkability: a class-size model (k-anonymity and the models declaring a
  ``class_size`` bound) leaves at least ``k`` rows in every class, so no individual is isolated
  (singling out success 0) and a linking guess picks its target with probability at most
  ``1/k`` (prosecutor risk).
* Attribute inference: the adversary's confidence in a guess is the share of the most frequent
  sensitive value in the target's class, ``p``; with ``q`` the share of the value most frequent
  over the release and ``m`` the values it holds:

  - distinct l-diversity bounds nothing (``l - 1`` rare values beside a dominant one);
  - entropy l-diversity: ``H >= ln l`` bounds ``p`` only through ``m``: ``p`` is at most the
    largest ``p`` with ``h(p) + (1 - p) ln(m - 1) >= ln l`` (the remaining mass spread evenly);
  - recursive (c, l)-diversity: ``r1 < c (r_l + ... + r_m)`` gives ``p < c / (c + 1)``;
  - t-closeness: equal distance (variational) ``p <= q + t``; ordered distance moves mass at
    least one step of ``1/(m - 1)``: ``p <= q + t (m - 1)``;
  - basic beta-likeness ``p <= (1 + beta) q``; enhanced ``p <= q (1 + min(beta, -ln q))``;
  - delta-disclosure privacy (``|log2(p/q)| < delta``): ``p < q 2^delta``;

  the strictest bound of the certified models on the attacked column holds (capped at 1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from anonsql.privacy import PrivacyModel, largest_k
from anonsql.privacy.base import EPSILON

#: Why a release's models bound no inference on a column.
NOT_BOUNDED = "no certified model bounds the confidence in a value of this column"


def class_size(models: Sequence[PrivacyModel]) -> int | None:
    """The class size the certified models promise (None: none, or 1)."""
    k = largest_k(models)
    return k if k is not None and k >= 2 else None


def entropy_bound(l_value: float, m: int) -> float:
    """The largest share ``p`` of one value in a distribution over ``m`` values whose entropy
    is at least ``ln l``."""

    def entropy(p: float) -> float:
        rest = 1.0 - p
        h = -p * math.log(p) if p > 0 else 0.0
        if rest > 0 and m > 1:
            h += -rest * math.log(rest / (m - 1))
        return h

    target = math.log(l_value) - EPSILON  # the check's slack
    lo, hi = 1.0 / max(m, 1), 1.0
    if entropy(hi) >= target:
        return 1.0
    if entropy(lo) < target:
        return lo  # no distribution over m values reaches it: the check forbids every class
    for _ in range(100):  # entropy decreases in p on [1/m, 1]
        mid = (lo + hi) / 2
        if entropy(mid) >= target:
            lo = mid
        else:
            hi = mid
    return lo


def confidence_bound(model: PrivacyModel, q: float, m: int) -> float | None:
    """The largest confidence ``model`` allows in a value of its column (None: unbounded)."""
    p = model.parameters()
    name = model.name
    if name == "entropy_l_diversity":
        return entropy_bound(float(p["l"]), m)
    if name == "recursive_cl_diversity":
        c = float(p["c"])
        return c / (c + 1.0)
    if name == "t_closeness":
        step = 1.0 if p.get("distance", "equal") == "equal" else max(m - 1, 1)
        return q + float(p["t"]) * step
    if name == "basic_beta_likeness":
        return (1.0 + float(p["beta"])) * q
    if name == "enhanced_beta_likeness":
        return q * (1.0 + min(float(p["beta"]), -math.log(q))) if q > 0 else 0.0
    if name == "delta_disclosure_privacy":
        return q * math.pow(2.0, float(p["delta"]))
    return None


def inference_bound(
    models: Sequence[PrivacyModel], column: str, q: float, m: int
) -> tuple[float | None, str]:
    """The strictest confidence bound of ``models`` on ``column`` and the models giving it."""
    found = []
    for model in models:
        if model.sensitive_column != column:
            continue
        bound = confidence_bound(model, q, m)
        if bound is not None:
            found.append((min(bound, 1.0), model.name))
    if not found:
        return None, NOT_BOUNDED
    best = min(found)
    return best[0], best[1]
