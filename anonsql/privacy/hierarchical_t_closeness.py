"""t-closeness with the hierarchical ground distance (Li, Li, Venkatasubramanian, "t-Closeness:
Privacy Beyond k-Anonymity and l-Diversity", ICDE 2007, Section 4.2; ARX's
``HierarchicalDistanceTCloseness``).

The distance between two sensitive values is the level of their lowest common ancestor in a
hierarchy of the sensitive column, over its height ``H``. The Earth Mover's Distance between a
class's distribution ``P`` and the table's ``Q`` under it is, in the paper's form, the sum over
the inner nodes ``N`` of ``level(N) / H * min(pos(N), neg(N))``, where ``pos``/``neg`` add up
the positive/negative extras ``sum (p_i - q_i)`` of ``N``'s children. Since ``min(pos, neg) =
(sum_children |extra| - |extra(N)|) / 2`` and the root's extra is 0, it telescopes to

    EMD = 1 / (2 H) * sum over levels l = 0 .. H-1 of sum over level-l groups g of |P_g - Q_g|

(``P_g``, ``Q_g``: the shares of the values under ``g``), which is what the predicate and the SQL
compute. Levels are ARX's positional ones (label ``l`` of a line; ragged lines are padded by
repeating the leaf). A value the hierarchy lacks (and NULL) is a leaf of its own under the root.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from pydantic import Field

from anonsql.arrays import BoolArray, IntArray
from anonsql.errors import AnonsqlError, HierarchyError, SpecError
from anonsql.hierarchies import read_hierarchy
from anonsql.hierarchies.io import new_hierarchy
from anonsql.privacy import histograms as hist
from anonsql.privacy.base import EPSILON, PartStats
from anonsql.privacy.sensitive import SensitiveModel, SensitiveParams
from anonsql.resources import resource_dir

if TYPE_CHECKING:
    from scipy import sparse


class HierarchicalTClosenessParams(SensitiveParams):
    t: float = Field(allow_inf_nan=False, description="largest distance, in [0, 1]")
    hierarchy: str | list[list[str]] = Field(
        description="the sensitive column's hierarchy: a file (ARX's format) or its lines"
    )


def _find(text: str) -> Path:
    path = Path(text)
    candidates = [path] if path.is_absolute() else [path, resource_dir("hierarchies") / path]
    for candidate in candidates:
        try:
            if candidate.is_file():
                return candidate.resolve()
        except OSError:  # e.g. a name longer than the file system allows
            continue
    raise FileNotFoundError(text)


#: A hierarchy over the conformance suite's values (integers and short texts).
_EXAMPLE_LINES = [
    ["10", "low", "*"],
    ["20", "low", "*"],
    ["30", "high", "*"],
    ["40", "high", "*"],
    ["a", "lower", "*"],
    ["z z", "lower", "*"],
    ["B", "other", "*"],
    ["é", "other", "*"],
]


class HierarchicalTCloseness(SensitiveModel[HierarchicalTClosenessParams]):
    """Every class's sensitive-value distribution is within hierarchical EMD ``t`` of the
    relation's (a class above ``t + EPSILON`` violates it).

    ``hierarchy`` is a file in ARX's format (absolute, relative to the working directory, or one
    of anonsql's shipped hierarchies) or its lines given inline; the parameters recorded in a
    certificate hold the lines, so a release can be re-checked without the file. Values are
    matched to leaves as text, so the predicate needs the text of the sensitive codes
    (``requires``); the SQL inlines the hierarchy, which suits hierarchies of up to some
    thousands of values.

    EMD is convex in ``P``, so the model is monotonic; the table's distribution is the published
    relation's, which suppression would change: no suppression.
    """

    # no dbt test: its hierarchy is a file or a nested list, which a dbt test argument cannot
    # carry; `anonsql check` checks it
    dbt_test = False

    name = "hierarchical_t_closeness"
    requires = frozenset({"sensitive_values"})
    supports_suppression = False
    # Q is the whole relation's distribution: withholding a class moves it
    guard = "table"
    reference = (
        "N. Li, T. Li, S. Venkatasubramanian, t-Closeness: Privacy Beyond k-Anonymity and "
        "l-Diversity, ICDE 2007"
    )
    examples = (
        {"t": 1.0, "hierarchy": _EXAMPLE_LINES},
        {"t": 0.3, "hierarchy": _EXAMPLE_LINES},
        {"t": 0.15, "hierarchy": _EXAMPLE_LINES},
    )

    @property
    def t(self) -> float:
        return self.params.t

    def check_params(self, key: str) -> None:
        if not 0 <= self.t <= 1:
            raise SpecError(f"{key}.t", f"t = {self.t} is outside [0, 1]", "use 0 <= t <= 1")
        given = self.params.hierarchy
        try:
            if isinstance(given, str):
                hierarchy = read_hierarchy(_find(given), name=self.column)
            else:
                hierarchy = new_hierarchy(given, name=self.column, origin=f"{key}.hierarchy")
        except FileNotFoundError:
            raise SpecError(
                f"{key}.hierarchy",
                "the hierarchy file was not found (tried the working directory and anonsql's "
                "shipped hierarchies)",
                "give an absolute path, or the lines inline",
            ) from None
        except HierarchyError as err:
            raise SpecError(f"{key}.hierarchy", err.problem, err.fix) from None
        height = max(len(row) for row in hierarchy.rows) - 1
        if height < 1:
            raise SpecError(
                f"{key}.hierarchy", "the hierarchy has no level above its values", "add a root"
            )
        #: the lines padded to one height, leaf first
        self.lines = [[row[0]] * (height + 1 - len(row)) + list(row) for row in hierarchy.rows]
        self.height = height
        self.leaf = {line[0]: i for i, line in enumerate(self.lines)}

    def parameters(self) -> dict[str, Any]:
        return {"column": self.column, "t": self.t, "hierarchy": self.lines}

    def template_params(self) -> dict[str, Any]:
        groups = [
            (line[0], level, line[level]) for line in self.lines for level in range(self.height)
        ]
        return {"t": self.t, "height": self.height, "groups": groups}

    def _incidence(self, values: Sequence[str | None], level: int) -> sparse.csr_array:
        """Sensitive codes x groups of ``level`` (values the hierarchy lacks: own groups)."""
        from scipy import sparse  # see anonsql.privacy.histograms: imported when used

        labels: dict[str, int] = {}
        groups: list[int] = []
        for code, value in enumerate(values):
            leaf = self.leaf.get(value) if value is not None else None
            if leaf is None:
                groups.append(-1 - code)
            else:
                groups.append(labels.setdefault(self.lines[leaf][level], len(labels)))
        ids = np.array(groups, dtype=np.int64)
        ids = np.where(ids < 0, len(labels) - 1 - ids, ids)
        return sparse.csr_array(
            (np.ones(len(values), dtype=np.int64), (np.arange(len(values)), ids)),
            shape=(len(values), len(labels) + len(values)),
        )

    def holds(self, parts: PartStats) -> BoolArray:
        values = parts.values.get(self.column)
        histogram = self.histogram(parts)
        if values is None or len(values) != histogram.shape[1]:
            raise AnonsqlError(
                f"{self.describe()}: the search gave no text of the sensitive values. "
                "Fix: fill PartStats.values (a bug in the caller, not in the data)"
            )
        totals: IntArray = parts.global_counts[self.column]
        sizes = hist.row_sums(histogram).astype(np.float64)
        spread = np.zeros(histogram.shape[0], dtype=np.float64)
        for level in range(self.height):
            incidence = self._incidence(values, level)
            grouped = hist.as_histogram(histogram @ incidence)
            overall = (totals @ incidence) / totals.sum()
            data = grouped.data[: grouped.indptr[-1]]
            rows = np.repeat(np.arange(grouped.shape[0]), np.diff(grouped.indptr))
            q = overall[grouped.indices[: grouped.indptr[-1]]]
            spread += hist.sum_per_row(grouped, np.abs(data / sizes[rows] - q) - q) + 1.0
        emd = spread / (2.0 * self.height)
        return emd <= self.t + EPSILON
