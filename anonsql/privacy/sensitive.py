"""The shared base of models over one sensitive column's distribution within each class."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import Field

from anonsql.privacy.base import EPSILON, Params, PartStats, PrivacyModel
from anonsql.privacy.histograms import Histogram
from anonsql.sql import Relation, SqlRenderer


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

    def histogram(self, parts: PartStats) -> Histogram:
        """Per-part counts of each sensitive value code, shape (parts, values), sparse (read it
        with :mod:`anonsql.privacy.histograms`; NULL is one of the codes)."""
        return parts.histograms[self.column]

    def template_params(self) -> dict[str, Any]:
        return {}

    def violations_sql(
        self,
        renderer: SqlRenderer,
        relation: Relation,
        qids: Sequence[str],
        *,
        person: str | None = None,
    ) -> str:
        return renderer.render(
            f"privacy/{self.name}",
            relation=relation,
            qids=list(qids),
            column=self.column,
            epsilon=EPSILON,
            **self.template_params(),
        )
