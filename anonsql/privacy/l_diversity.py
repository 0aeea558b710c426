"""l-diversity (Machanavajjhala, Kifer, Gehrke, Venkitasubramaniam, ICDE 2006 / TKDD 2007).

Every equivalence class must hold at least ``l`` "well-represented" values of a sensitive
column. Three instantiations of "well-represented" are implemented:

* distinct: at least ``l`` distinct values;
* entropy: the entropy of the class's value distribution is at least ``log(l)``;
* recursive (c, l): the most frequent value is rarer than ``c`` times the ``l``-th and all less
  frequent values together.

NULL counts as one sensitive value of its own, in SQL and in the predicates alike.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import Field
from typing_extensions import TypeVar

from anonsql.arrays import BoolArray
from anonsql.errors import SpecError
from anonsql.privacy import histograms as hist
from anonsql.privacy.base import EPSILON, Bound, DataProfile, PartStats
from anonsql.privacy.sensitive import SensitiveModel, SensitiveParams

REFERENCE = (
    "A. Machanavajjhala, D. Kifer, J. Gehrke, M. Venkitasubramaniam, l-Diversity: Privacy "
    "Beyond k-Anonymity, ICDE 2006; ACM TKDD 1(1), 2007"
)


class LDiversityParams(SensitiveParams):
    l: float = Field(allow_inf_nan=False, description="number of well-represented values")


class DistinctLDiversityParams(LDiversityParams):
    l: int = Field(description="minimum number of distinct sensitive values per class")


class RecursiveCLDiversityParams(LDiversityParams):
    c: float = Field(allow_inf_nan=False, description="bound on the most frequent value's count")
    l: int = Field(description="rank from which the less frequent values are summed")


LP = TypeVar("LP", bound=LDiversityParams, default=LDiversityParams, covariant=True)


class LDiversity(SensitiveModel[LP]):
    """Shared parameter checks of the l-diversity family: ``l >= 1`` and at most the number of
    distinct sensitive values of the data (a class cannot hold more values than the table)."""

    reference = REFERENCE

    @property
    def ell(self) -> float:
        return self.params.l

    def check_params(self, key: str) -> None:
        if not self.ell >= 1:
            raise SpecError(f"{key}.l", f"l = {self.ell} is below 1", "use l >= 1")

    def check_against(self, profile: DataProfile, key: str) -> None:
        distinct = profile.distinct_sensitive[self.column]
        if self.ell > distinct:
            raise SpecError(
                f"{key}.l",
                f"l = {self.ell} exceeds the {distinct} distinct values of sensitive column "
                f"{self.column!r} (NULL counts as a value)",
                f"use l <= {distinct}",
            )

    def template_params(self) -> dict[str, Any]:
        return {"l": self.ell}


class DistinctLDiversity(LDiversity[DistinctLDiversityParams]):
    """Distinct l-diversity: every class holds at least ``l`` distinct sensitive values.

    Machanavajjhala et al., l-Diversity: Privacy Beyond k-Anonymity, ICDE 2006 (Section 4.1,
    the "distinct" instantiation).
    """

    name = "distinct_l_diversity"
    monotonic_with_suppression = True
    examples = ({"l": 1}, {"l": 2}, {"l": 3})

    def min_rows(self) -> int:
        return int(self.ell)

    def bounds(self) -> tuple[Bound, ...]:
        return (Bound("distinct_values", self.ell, self.column),)

    def holds(self, parts: PartStats) -> BoolArray:
        return hist.distinct_per_row(self.histogram(parts)) >= self.ell


class EntropyLDiversity(LDiversity[LDiversityParams]):
    """Entropy l-diversity: every class has ``-sum p log p >= log(l)`` over its sensitive values.

    Machanavajjhala et al., l-Diversity: Privacy Beyond k-Anonymity, ICDE 2006, Definition 4.1
    (natural logarithm; the comparison allows :data:`EPSILON` of rounding slack).
    """

    name = "entropy_l_diversity"
    examples = ({"l": 1.0}, {"l": 1.8}, {"l": 2.0}, {"l": 3.0})

    def bounds(self) -> tuple[Bound, ...]:
        return (Bound("entropy", self.ell, self.column),)

    @property
    def min_entropy(self) -> float:
        return math.log(self.ell) - EPSILON

    def min_rows(self) -> int:
        # The entropy of m values is at most log(m): the smallest m that can reach log(l).
        m = max(1, math.floor(self.ell))
        return m if math.log(m) >= self.min_entropy else m + 1

    def holds(self, parts: PartStats) -> BoolArray:
        histogram = self.histogram(parts)
        entropy = hist.entropy(histogram)
        return (hist.row_sums(histogram) > 0) & (entropy >= self.min_entropy)


class RecursiveCLDiversity(LDiversity[RecursiveCLDiversityParams]):
    """Recursive (c, l)-diversity: with a class's value counts sorted r1 >= r2 >= ... >= rm,
    ``m >= l`` and ``r1 < c * (r_l + r_(l+1) + ... + r_m)``.

    Machanavajjhala et al., l-Diversity: Privacy Beyond k-Anonymity, ICDE 2006, Definition 4.2.
    """

    name = "recursive_cl_diversity"
    examples = ({"c": 2.0, "l": 2}, {"c": 0.5, "l": 1}, {"c": 3.0, "l": 3})

    @property
    def c(self) -> float:
        return self.params.c

    def check_params(self, key: str) -> None:
        super().check_params(key)
        if not self.c > 0:
            raise SpecError(f"{key}.c", f"c = {self.c} is not positive", "use c > 0")

    def template_params(self) -> dict[str, Any]:
        return {"l": int(self.ell), "c": self.c}

    def min_rows(self) -> int:
        return int(self.ell)

    def holds(self, parts: PartStats) -> BoolArray:
        histogram = self.histogram(parts)
        ell = int(self.ell)
        top, tail = hist.recursive_terms(histogram, ell)
        # The slack makes an exact tie r1 = c * tail a violation despite rounding in c * tail.
        below = top < (self.c - EPSILON) * tail
        return (hist.distinct_per_row(histogram) >= ell) & below
