"""The shared base of table-level models: bounds on statistics of the whole table (ARX's
risk-based criteria) rather than on each class.

A table-level model says nothing about one class: :meth:`~TableLevelModel.holds` accepts every
part, and :meth:`~TableLevelModel.holds_table` judges the class-size distribution of everything a
candidate would publish (:class:`~anonsql.risk.classes.ClassSizes`). Its violation query returns
one row, the measured statistics, when the table violates the model, and none when it holds.

A search enforces such a model on a *whole candidate* only (the classes it would publish, after
the rows it would suppress); :func:`smallest_classes_to_suppress` does ARX's suppression of the
smallest classes first. Algorithms that decide one split at a time cannot, and refuse them
(``Algorithm.enforces_table_level``).
"""

from __future__ import annotations

import math
from abc import abstractmethod
from dataclasses import dataclass

import numpy as np

from anonsql.arrays import BoolArray
from anonsql.errors import SpecError
from anonsql.privacy.base import P, PartStats, PrivacyModel
from anonsql.risk.classes import ClassSizes


class TableLevelModel(PrivacyModel[P]):
    """Base of models bounding statistics of the whole table (ARX's risk thresholds)."""

    table_level = True
    # the verdict is the whole table's
    guard = "table"

    @abstractmethod
    def holds_table(self, sizes: ClassSizes) -> bool:
        """Whether the model holds on a table with this class-size distribution."""

    @abstractmethod
    def statistics(self, sizes: ClassSizes) -> dict[str, float | None]:
        """The statistics the model bounds, measured on ``sizes`` (None: not available)."""

    def holds(self, parts: PartStats) -> BoolArray:
        """Every part: the model bounds the table, not one class."""
        return np.ones(len(parts), dtype=np.bool_)

    def table_level_violations(self, parts: PartStats) -> int:
        return 0 if self.holds_table(ClassSizes.from_class_sizes(parts.counts)) else 1


def size_threshold(risk: float) -> int:
    """The smallest class size whose risk is at most ``risk`` (ARX's
    ``ParameterTranslation.getSizeThreshold``: ``1/risk`` rounded down, up when that is off by at
    least 1 % of ``risk``)."""
    if risk == 0.0:
        return 2**31 - 1
    size = 1.0 / risk
    floor = math.floor(size)
    if (1.0 / floor) - (1.0 / size) >= 0.01 * risk:
        floor += 1
    return int(floor)


def check_risk(key: str, value: float) -> None:
    if not 0.0 <= value <= 1.0:
        raise SpecError(key, f"{value!r} is outside [0, 1]", "give a risk in [0, 1]")


@dataclass(frozen=True)
class SuppressionPlan:
    """Suppress the ``classes`` smallest classes (``rows`` rows) for the models to hold."""

    classes: int
    rows: int


def smallest_classes_to_suppress(
    sizes: ClassSizes, models: TableLevelModel | list[TableLevelModel], max_rows: int
) -> SuppressionPlan | None:
    """The fewest smallest classes to suppress for every model to hold, suppressing at most
    ``max_rows`` rows; None when no such number exists.

    ARX's approach (``HashGroupifyDistribution.suppressWhileNotFulfilledBinary``): classes are
    suppressed smallest first and the number is found by binary search, which is exact for the
    models that only get easier as small classes go (sample uniqueness, and records at risk) and
    a heuristic otherwise (average risk can rise when a class smaller than average is removed
    late; population uniqueness is not monotonic). The search is sequential: ``O(log u)``
    evaluations of the models, each vectorized over the distinct class sizes.
    """
    checks = models if isinstance(models, list) else [models]

    def holds(candidate: ClassSizes) -> bool:
        return all(m.holds_table(candidate) for m in checks)

    if holds(sizes):
        return SuppressionPlan(0, 0)
    if sizes.is_empty:
        return None
    rows_per_size = np.cumsum(sizes.sizes * sizes.classes)
    classes_per_size = np.cumsum(sizes.classes)
    whole = int(np.searchsorted(rows_per_size, max_rows, side="right"))  # sizes suppressed whole
    affordable = int(classes_per_size[whole - 1]) if whole else 0
    if whole < sizes.sizes.size:
        spare = max_rows - (int(rows_per_size[whole - 1]) if whole else 0)
        affordable += min(spare // int(sizes.sizes[whole]), int(sizes.classes[whole]))
    if affordable == 0 or not holds(sizes.without_smallest(affordable)):
        return None
    low, high = 1, affordable
    while low < high:
        middle = (low + high) // 2
        if holds(sizes.without_smallest(middle)):
            high = middle
        else:
            low = middle + 1
    return SuppressionPlan(low, sizes.rows_in_smallest(low))
