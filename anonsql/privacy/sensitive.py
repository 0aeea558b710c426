"""The shared base of models over one sensitive column's distribution within each class."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from pydantic import Field

from anonsql.privacy.base import EPSILON, FloatArray, IntArray, Params, PartStats, PrivacyModel
from anonsql.sql import SqlRenderer, TableName


class SensitiveParams(Params):
    column: str = Field(min_length=1, description="the sensitive column")


class SensitiveModel(PrivacyModel):
    """A model over the distribution of one sensitive column within each class.

    Its violation query is the template ``privacy/<name>``, rendered with the relation, the
    quasi-identifiers, the sensitive ``column``, ``epsilon`` and :meth:`template_params`.
    """

    needs_sensitive = True

    @property
    def column(self) -> str:
        assert isinstance(self.params, SensitiveParams)
        return self.params.column

    def histogram(self, parts: PartStats) -> IntArray:
        """Per-part counts of each sensitive value code, shape (parts, values)."""
        return parts.histograms[self.column]

    def template_params(self) -> dict[str, Any]:
        return {}

    def violations_sql(
        self, renderer: SqlRenderer, relation: TableName, qids: Sequence[str]
    ) -> str:
        return renderer.render(
            f"privacy/{self.name}",
            relation=relation,
            qids=list(qids),
            column=self.column,
            epsilon=EPSILON,
            **self.template_params(),
        )


def distributions(histogram: IntArray) -> tuple[FloatArray, IntArray]:
    """Row-normalized histograms (all zeros for empty parts) and the parts' sizes."""
    sizes: IntArray = histogram.sum(axis=1)
    shares: FloatArray = np.divide(
        histogram,
        sizes[:, None],
        out=np.zeros(histogram.shape, dtype=np.float64),
        where=sizes[:, None] > 0,
    )
    return shares, sizes


def distinct_values(histogram: IntArray) -> IntArray:
    """How many distinct sensitive values each part holds."""
    counts: IntArray = np.count_nonzero(histogram, axis=1)
    return counts
