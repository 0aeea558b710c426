"""k-anonymity (Samarati & Sweeney, 1998; Sweeney, IJUFKS 2002).

Every equivalence class holds at least ``k`` rows.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from anonsql.arrays import BoolArray
from anonsql.errors import SpecError
from anonsql.privacy.base import Bound, DataProfile, Params, PartStats, PrivacyModel


class KAnonymityParams(Params):
    k: int = Field(description="minimum class size")


class KAnonymity(PrivacyModel[KAnonymityParams]):
    """Every class of rows sharing the same quasi-identifier values has at least ``k`` rows."""

    name = "k_anonymity"
    monotonic_with_suppression = True
    weighted = True
    reference = "L. Sweeney, k-anonymity: a model for protecting privacy, IJUFKS 10(5), 2002"
    examples = ({"k": 1}, {"k": 2}, {"k": 4})

    @property
    def k(self) -> int:
        return self.params.k

    def check_params(self, key: str) -> None:
        if self.k < 1:
            raise SpecError(f"{key}.k", f"k = {self.k} is below 1", "use k >= 1")

    def check_against(self, profile: DataProfile, key: str) -> None:
        if self.k > profile.rows:
            raise SpecError(
                f"{key}.k",
                f"k = {self.k} exceeds the {profile.rows} rows of the source",
                f"use k <= {profile.rows}",
            )

    def min_rows(self) -> int:
        return self.k

    def bounds(self) -> tuple[Bound, ...]:
        return (Bound("class_size", self.k),)

    def holds(self, parts: PartStats) -> BoolArray:
        return parts.counts >= self.k

    def template_params(self) -> dict[str, Any]:
        return {"k": self.k}
