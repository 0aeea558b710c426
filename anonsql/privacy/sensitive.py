"""The shared base of models over one sensitive column's distribution within each class."""

from __future__ import annotations

from pydantic import Field
from typing_extensions import TypeVar

from anonsql.privacy.base import Params, PartStats, PrivacyModel
from anonsql.privacy.histograms import Histogram


class SensitiveParams(Params):
    column: str = Field(min_length=1, description="the sensitive column")


#: The parameters of a model over one sensitive column.
SP = TypeVar("SP", bound=SensitiveParams, default=SensitiveParams, covariant=True)


class SensitiveModel(PrivacyModel[SP]):
    """A model over the distribution of one sensitive column within each class.

    Its violation query is the template ``privacy/<name>`` (:meth:`PrivacyModel.violations_sql`),
    which reads the sensitive ``column``, ``epsilon`` and :meth:`template_params`.
    """

    needs_sensitive = True
    # every template of these models counts rows through ``sa_frequencies``
    weighted = True

    @property
    def column(self) -> str:
        return self.params.column

    def histogram(self, parts: PartStats) -> Histogram:
        """Per-part counts of each sensitive value code, shape (parts, values), sparse (read it
        with :mod:`anonsql.privacy.histograms`; NULL is one of the codes)."""
        return parts.histograms[self.column]
