"""Average re-identification risk as a privacy model (a table-level threshold).

El Emam, Dankar, Issa, Jonker, Amyot, Cogo, Corriveau, Walker, Chowdhury, Vaillancourt, Roffey,
Bottomley, "A globally optimal k-anonymity method for the de-identification of health data",
JAMIA 16(5), 2009, and ARX's ``AverageReidentificationRisk``: the average prosecutor risk of the
records, ``classes / records``, is at most a threshold; optionally, at most a share of the
records lies in classes whose risk exceeds a highest risk.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pydantic import Field

from anonsql.errors import SpecError
from anonsql.privacy.base import EPSILON, Params
from anonsql.privacy.table_level import TableLevelModel, check_risk, size_threshold
from anonsql.risk.classes import ClassSizes


class AverageRiskParams(Params):
    threshold: float = Field(allow_inf_nan=False, description="largest average risk")
    highest_risk: float | None = Field(
        default=None, allow_inf_nan=False, description="risk above which a record is at risk"
    )
    records_at_risk: float | None = Field(
        default=None, allow_inf_nan=False, description="largest share of records at risk"
    )


class AverageReidentificationRisk(TableLevelModel[AverageRiskParams]):
    """The average prosecutor risk, ``classes / records``, is at most ``threshold``; with
    ``highest_risk`` and ``records_at_risk``, at most that share of the records lies in classes
    smaller than ``size_threshold(highest_risk)`` (ARX's translation of a risk to a class size).
    An empty table satisfies it (as in ARX).

    Merging classes lowers both statistics, so the model is monotonic; suppressing the smallest
    classes first (ARX's way, :func:`~anonsql.privacy.table_level.smallest_classes_to_suppress`)
    is not monotone in the lattice.
    """

    # no dbt test: its class-size threshold is ARX's translation of highest_risk, computed in
    # Python (table_level.size_threshold); `anonsql check` checks it
    dbt_test = False

    name = "average_reidentification_risk"
    reference = (
        "K. El Emam et al., A globally optimal k-anonymity method for the de-identification of "
        "health data, JAMIA 16(5), 2009; ARX AverageReidentificationRisk"
    )
    examples = (
        {"threshold": 1.0},
        {"threshold": 0.5, "highest_risk": 0.5, "records_at_risk": 0.3},
        {"threshold": 0.4},
    )

    def check_params(self, key: str) -> None:
        check_risk(f"{key}.threshold", self.params.threshold)
        if (self.params.highest_risk is None) != (self.params.records_at_risk is None):
            raise SpecError(key, "highest_risk and records_at_risk go together", "give both")
        if self.params.highest_risk is not None:
            if not 0.0 < self.params.highest_risk <= 1.0:
                raise SpecError(
                    f"{key}.highest_risk",
                    f"{self.params.highest_risk!r} is outside (0, 1]",
                    "give a risk in (0, 1]",
                )
            assert self.params.records_at_risk is not None
            check_risk(f"{key}.records_at_risk", self.params.records_at_risk)

    @property
    def smallest_safe_size(self) -> int | None:
        """Classes below this size hold records at risk (None without ``highest_risk``)."""
        return (
            None if self.params.highest_risk is None else size_threshold(self.params.highest_risk)
        )

    def statistics(self, sizes: ClassSizes) -> dict[str, float | None]:
        if sizes.is_empty:
            return {"average_risk": 0.0, "records_at_risk": 0.0}
        n = float(sizes.records)
        out: dict[str, float | None] = {"average_risk": float(sizes.num_classes) / n}
        smallest = self.smallest_safe_size
        if smallest is not None:
            small = sizes.sizes < smallest
            out["records_at_risk"] = float(np.dot(sizes.sizes[small], sizes.classes[small])) / n
        return out

    def holds_table(self, sizes: ClassSizes) -> bool:
        if sizes.is_empty:
            return True
        figures = self.statistics(sizes)
        average = figures["average_risk"]
        assert average is not None
        if average > self.params.threshold + EPSILON:
            return False
        at_risk = figures.get("records_at_risk")
        if self.params.records_at_risk is None or at_risk is None:
            return True
        return at_risk <= self.params.records_at_risk + EPSILON

    def template_params(self) -> dict[str, Any]:
        return {
            "threshold": self.params.threshold,
            "smallest": self.smallest_safe_size,
            "records_at_risk": self.params.records_at_risk,
        }
