"""beta-likeness (Cao & Karras, "Publishing Microdata with a Robust Privacy Guarantee",
VLDB 2012), basic and enhanced.

A class must not make any sensitive value much more likely than it is in the whole table: for
every value ``s`` in a class, the relative gain ``(p(s | class) - p(s)) / p(s)`` is at most
``beta`` (basic), or at most ``min(beta, -ln p(s))`` (enhanced, which also protects rare values:
their share may then grow at most to ``p(s) (1 - ln p(s))``). As in ARX (``BasicBLikeness``,
``EnhancedBLikeness``), ``p(s)`` is the value's share of the checked relation.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from pydantic import Field

from anonsql.arrays import BoolArray
from anonsql.errors import SpecError
from anonsql.privacy import histograms as hist
from anonsql.privacy.base import EPSILON, PartStats
from anonsql.privacy.sensitive import SensitiveModel, SensitiveParams

REFERENCE = (
    "J. Cao, P. Karras, Publishing Microdata with a Robust Privacy Guarantee, VLDB 2012 "
    "(PVLDB 5(11))"
)


class BetaLikenessParams(SensitiveParams):
    beta: float = Field(allow_inf_nan=False, description="largest relative gain of a value")


class BetaLikeness(SensitiveModel[BetaLikenessParams]):
    """Shared predicate: the largest relative gain of a class's values against the bound.

    A union of classes that satisfy it does too (a value's share in the union is a weighted mean
    of its shares, 0 where absent), so the model is monotonic; the table's distribution is the
    published relation's, which suppression would change: no suppression.
    """

    supports_suppression = False
    # p(s) is the whole relation's distribution: withholding a class moves it
    guard = "table"
    reference = REFERENCE
    #: Whether the bound is ``min(beta, -ln p(s))`` (enhanced) rather than ``beta``.
    enhanced: ClassVar[bool] = False
    examples = ({"beta": 100.0}, {"beta": 2.0}, {"beta": 1.0})

    @property
    def beta(self) -> float:
        return self.params.beta

    def check_params(self, key: str) -> None:
        if not self.beta > 0:
            raise SpecError(f"{key}.beta", f"beta = {self.beta} is not positive", "use beta > 0")

    def template_params(self) -> dict[str, Any]:
        return {"beta": self.beta, "enhanced": self.enhanced}

    def holds(self, parts: PartStats) -> BoolArray:
        histogram = self.histogram(parts)
        shares, overall = hist.entry_shares(histogram, parts.global_counts[self.column])
        gain = (shares - overall) / overall
        bound = np.minimum(self.beta, -np.log(overall)) if self.enhanced else self.beta
        excess = hist.max_per_row(histogram, gain - bound, -np.inf)
        return excess <= EPSILON


class BasicBetaLikeness(BetaLikeness):
    """Basic beta-likeness: ``(p(s | class) - p(s)) / p(s) <= beta`` for every value ``s`` of
    every class (Cao & Karras, VLDB 2012, Definition 2)."""

    name = "basic_beta_likeness"


class EnhancedBetaLikeness(BetaLikeness):
    """Enhanced beta-likeness: ``(p(s | class) - p(s)) / p(s) <= min(beta, -ln p(s))`` for every
    value ``s`` of every class (Cao & Karras, VLDB 2012, Definition 4)."""

    name = "enhanced_beta_likeness"
    enhanced = True
