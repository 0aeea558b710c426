"""(alpha, k)-anonymity (Wong, Li, Fu, Wang, "(alpha, k)-Anonymity: An Enhanced k-Anonymity
Model for Privacy-Preserving Data Publishing", KDD 2006).

Every class holds at least ``k`` rows, and no sensitive value makes up more than a share
``alpha`` of any class. (The paper bounds one chosen sensitive value; this is its general form,
every value bounded, so no value can be inferred with confidence above ``alpha``.)
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import Field

from anonsql.arrays import BoolArray
from anonsql.errors import SpecError
from anonsql.privacy import histograms as hist
from anonsql.privacy.base import EPSILON, DataProfile, PartStats
from anonsql.privacy.sensitive import SensitiveModel, SensitiveParams


class AlphaKParams(SensitiveParams):
    k: int = Field(description="minimum class size")
    alpha: float = Field(allow_inf_nan=False, description="largest share of a value in a class")


class AlphaKAnonymity(SensitiveModel[AlphaKParams]):
    """(alpha, k)-anonymity: classes of at least ``k`` rows in which every sensitive value
    (NULL is one) holds at most a share ``alpha`` of the rows.

    A union of classes that satisfy it does too (its shares are weighted means), so the model
    is monotonic; a failing class merged with another may make the union fail, so suppression
    does not keep it monotone.
    """

    name = "alpha_k_anonymity"
    reference = (
        "R. C.-W. Wong, J. Li, A. W.-C. Fu, K. Wang, (alpha, k)-Anonymity: An Enhanced "
        "k-Anonymity Model for Privacy-Preserving Data Publishing, KDD 2006"
    )
    examples = ({"k": 1, "alpha": 1.0}, {"k": 2, "alpha": 0.5}, {"k": 3, "alpha": 0.4})

    @property
    def k(self) -> int:
        return self.params.k

    @property
    def alpha(self) -> float:
        return self.params.alpha

    def check_params(self, key: str) -> None:
        if self.k < 1:
            raise SpecError(f"{key}.k", f"k = {self.k} is below 1", "use k >= 1")
        if not 0.0 < self.alpha <= 1.0:
            raise SpecError(
                f"{key}.alpha", f"alpha = {self.alpha} is outside (0, 1]", "use 0 < alpha <= 1"
            )

    def check_against(self, profile: DataProfile, key: str) -> None:
        if self.k > profile.rows:
            raise SpecError(
                f"{key}.k",
                f"k = {self.k} exceeds the {profile.rows} rows of the source",
                f"use k <= {profile.rows}",
            )

    def min_rows(self) -> int:
        # a class of n rows has a value with a share of at least 1/n
        return max(self.k, math.ceil(1.0 / self.alpha - EPSILON))

    def template_params(self) -> dict[str, Any]:
        return {"k": self.k, "alpha": self.alpha}

    def holds(self, parts: PartStats) -> BoolArray:
        histogram = self.histogram(parts)
        size = hist.row_sums(histogram)
        top = hist.row_max(histogram)
        share = top / size.clip(min=1)
        held: BoolArray = (size >= self.k) & (share <= self.alpha + EPSILON)
        return held
