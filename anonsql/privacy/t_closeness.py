"""t-closeness (Li, Li, Venkatasubramanian, ICDE 2007).

The distribution of a sensitive column within every equivalence class is within Earth Mover's
Distance ``t`` of its distribution over the whole relation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field

from anonsql.arrays import BoolArray
from anonsql.engines.types import ColumnInfo
from anonsql.errors import SpecError
from anonsql.privacy import histograms as hist
from anonsql.privacy.base import EPSILON, PartStats
from anonsql.privacy.sensitive import SensitiveModel, SensitiveParams


class TClosenessParams(SensitiveParams):
    t: float = Field(allow_inf_nan=False, description="maximum distance, in [0, 1]")
    distance: Literal["equal", "ordered"] = Field(
        default="equal",
        description="ground distance: equal (categorical) or ordered (by ascending value)",
    )


class TCloseness(SensitiveModel[TClosenessParams]):
    """t-closeness: every class's sensitive-value distribution P is within EMD ``t`` of the
    relation's distribution Q over its m distinct sensitive values.

    N. Li, T. Li, S. Venkatasubramanian, t-Closeness: Privacy Beyond k-Anonymity and
    l-Diversity, ICDE 2007, Section 4.2: with the *equal* ground distance
    ``EMD = 1/2 * sum |p_i - q_i|``; with the *ordered* one (values in ascending order, NULL last)
    ``EMD = 1/(m-1) * sum_i |sum_(j<=i) (p_j - q_j)|``. A class violates the model when
    ``EMD > t`` (with :data:`EPSILON` of rounding slack).

    The SQL check of the ordered distance builds one row per class and domain value; the
    predicate densifies a bounded batch of classes at a time for it (time: classes x domain).

    Q is the distribution of the relation being checked. Suppressing rows would change Q after
    the search decided with the source's, so the model refuses a non-zero suppression limit;
    and the ordered distance needs a numeric column, since text order differs between engines.
    """

    supports_suppression = False
    # Q is the distribution of the whole relation: withholding a class moves it
    guard = "table"

    name = "t_closeness"
    examples = (
        {"t": 0.45, "distance": "equal"},
        {"t": 0.0, "distance": "equal"},
        {"t": 0.3, "distance": "ordered"},
    )
    reference = (
        "N. Li, T. Li, S. Venkatasubramanian, t-Closeness: Privacy Beyond k-Anonymity and "
        "l-Diversity, ICDE 2007"
    )

    @property
    def t(self) -> float:
        return self.params.t

    @property
    def distance(self) -> str:
        return self.params.distance

    def check_params(self, key: str) -> None:
        if not 0 <= self.t <= 1:
            raise SpecError(f"{key}.t", f"t = {self.t} is outside [0, 1]", "use 0 <= t <= 1")

    def check_columns(self, columns: Mapping[str, ColumnInfo], key: str) -> None:
        column = columns.get(self.column)
        if self.distance == "ordered" and column is not None and not column.is_numeric:
            raise SpecError(
                f"{key}.distance",
                f"the ordered distance needs a numeric column; "
                f"{self.column!r} is {column.data_type}",
                "use distance: equal, or a numeric sensitive column",
            )

    def template_params(self) -> dict[str, Any]:
        return {"t": self.t, "distance": self.distance}

    def holds(self, parts: PartStats) -> BoolArray:
        histogram = self.histogram(parts)
        totals = parts.global_counts[self.column]
        if self.distance == "equal":
            emd = hist.emd_equal(histogram, totals)
        else:
            emd = hist.emd_ordered(histogram, totals)
        return (hist.row_sums(histogram) > 0) & (emd <= self.t + EPSILON)
