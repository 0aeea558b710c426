"""Frequency l-diversity: no sensitive value makes up more than ``1/l`` of a class.

Machanavajjhala, Kifer, Gehrke, Venkitasubramaniam name this instantiation in the discussion of
l-Diversity (ACM TKDD 1(1), 2007): an adversary's best guess of a class's sensitive value is
right with probability at most ``1/l``. Ghinita, Karras, Kalnis, Mamoulis ("Fast Data
Anonymization with Low Information Loss", VLDB 2007; digest 001 §8) anonymize for it, and the
1D algorithms (:mod:`anonsql.algorithms.one_d`) enforce it through its bound.

NULL counts as one sensitive value of its own, in SQL and in the predicate alike. The test is on
integers (``l * top count <= class size``), so SQL and the predicate agree without slack.
"""

from __future__ import annotations

from pydantic import Field

from anonsql.arrays import BoolArray
from anonsql.privacy import histograms as hist
from anonsql.privacy.base import Bound, PartStats
from anonsql.privacy.l_diversity import REFERENCE, LDiversity, LDiversityParams


class FrequencyLDiversityParams(LDiversityParams):
    l: int = Field(description="no sensitive value above 1/l of a class's rows")


class FrequencyLDiversity(LDiversity[FrequencyLDiversityParams]):
    """Frequency l-diversity: in every class the most frequent sensitive value (NULL is one)
    holds at most ``1/l`` of the rows.

    Machanavajjhala et al., l-Diversity: Privacy Beyond k-Anonymity, ACM TKDD 1(1), 2007
    (discussion of the instantiations); Ghinita et al., Fast Data Anonymization with Low
    Information Loss, VLDB 2007 (the definition their 1D heuristic enforces). A union of classes
    that satisfy it does too (shares are weighted means); a failing class merged with another may
    make the union fail, so suppression does not keep it monotone.
    """

    name = "frequency_l_diversity"
    reference = REFERENCE + "; G. Ghinita, P. Karras, P. Kalnis, N. Mamoulis, VLDB 2007"
    examples = ({"l": 1}, {"l": 2}, {"l": 3})

    def min_rows(self) -> int:
        # a class of n rows has a value with a share of at least 1/n
        return int(self.ell)

    def bounds(self) -> tuple[Bound, ...]:
        return (Bound("value_share", self.ell, self.column),)

    def holds(self, parts: PartStats) -> BoolArray:
        histogram = self.histogram(parts)
        size = hist.row_sums(histogram)
        held: BoolArray = (size > 0) & (int(self.ell) * hist.row_max(histogram) <= size)
        return held
