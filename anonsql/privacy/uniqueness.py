"""Sample and population uniqueness as privacy models (table-level thresholds).

* :class:`SampleUniqueness`: the share of records that are unique in the table is at most a
  threshold (ARX's ``SampleUniqueness``);
* :class:`PopulationUniqueness`: the estimated share of the population that is unique on the
  quasi-identifiers (Pitman, Zayatz, SNB or Dankar's rule, :mod:`anonsql.risk.population`) is at
  most a threshold (Dankar, El Emam, Neisa, Roffey, "Estimating the re-identification risk of
  clinical data sets", BMC Med. Inform. Decis. Mak. 12:66, 2012; ARX's ``PopulationUniqueness``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from anonsql.errors import AnonsqlError, SpecError
from anonsql.privacy.base import EPSILON, DataProfile, Params, PrivacyModel
from anonsql.privacy.table_level import TableLevelModel, check_risk
from anonsql.risk.classes import ClassSizes, class_sizes
from anonsql.risk.population import DEFAULT_REGION, PopulationModel, SnbForm, estimate
from anonsql.sql import Relation

if TYPE_CHECKING:
    from anonsql.engines import Engine


class SampleUniquenessParams(Params):
    threshold: float = Field(allow_inf_nan=False, description="largest share of sample uniques")


class SampleUniqueness(TableLevelModel[SampleUniquenessParams]):
    """The share of records that are unique in the table is at most ``threshold``.

    Merging classes never creates a unique, so the model is monotonic; suppressing the smallest
    classes first only removes uniques.
    """

    name = "sample_uniqueness"
    reference = "F. Prasser et al., Flexible data anonymization using ARX, SPE 50(7), 2020"
    examples = ({"threshold": 1.0}, {"threshold": 0.2}, {"threshold": 0.0})

    @property
    def threshold(self) -> float:
        return self.params.threshold

    def check_params(self, key: str) -> None:
        check_risk(f"{key}.threshold", self.threshold)

    def statistics(self, sizes: ClassSizes) -> dict[str, float | None]:
        n = sizes.records
        return {"sample_uniqueness": sizes.count_of_size(1) / float(n) if n else 0.0}

    def holds_table(self, sizes: ClassSizes) -> bool:
        value = self.statistics(sizes)["sample_uniqueness"]
        assert value is not None
        return value <= self.threshold + EPSILON

    def template_params(self) -> dict[str, Any]:
        return {"threshold": self.threshold}


class PopulationUniquenessParams(Params):
    threshold: float = Field(allow_inf_nan=False, description="largest share of population uniques")
    estimator: Literal["pitman", "zayatz", "snb", "dankar"] = "dankar"
    population_size: int | None = Field(default=None, description="persons in the population")
    region: str | None = Field(default=None, description="an ARX region (default USA)")
    snb_form: Literal["arx", "published"] = "arx"


class PopulationUniqueness(TableLevelModel[PopulationUniquenessParams]):
    """The estimated share of population uniques (``uniques / N``) is at most ``threshold``.

    As ARX's criterion: an estimate that is not available fails the model unless the table has
    no sample uniques; Dankar's rule does not fall back to Zayatz here. The estimate is computed
    in Python from the class sizes, so the violation query is rendered by :meth:`prepared`,
    which measures the relation's class sizes first; the query recomputes them and also reports
    a violation when they changed since (the estimate no longer describes the relation).

    Estimates are not monotone in the class sizes, so neither generalization nor suppression
    can be relied on to keep it (``monotonic`` and ``supports_suppression`` are False).
    """

    # no dbt test: the population estimate is computed in Python from the class sizes;
    # `anonsql check` checks it
    dbt_test = False

    name = "population_uniqueness"
    monotonic = False
    supports_suppression = False
    reference = (
        "F. Dankar et al., Estimating the re-identification risk of clinical data sets, "
        "BMC Med. Inform. Decis. Mak. 12:66, 2012; ARX PopulationUniqueness"
    )
    examples = (
        {"threshold": 1.0, "estimator": "zayatz", "population_size": 1000},
        {"threshold": 0.01, "estimator": "dankar", "population_size": 100_000},
        {"threshold": 0.0, "estimator": "pitman", "population_size": 10_000},
    )

    def __init__(self, params: PopulationUniquenessParams, bound: ClassSizes | None = None) -> None:
        super().__init__(params)
        self.bound = bound

    @property
    def population(self) -> PopulationModel:
        if self.params.population_size is not None:
            return PopulationModel(self.params.population_size)
        return PopulationModel.for_region(self.params.region or DEFAULT_REGION)

    def check_params(self, key: str) -> None:
        check_risk(f"{key}.threshold", self.params.threshold)
        if self.params.population_size is not None and self.params.region is not None:
            raise SpecError(
                key, "population_size and region both name the population", "give one of them"
            )
        try:
            self.population  # noqa: B018 -- validates the size or region
        except SpecError as err:
            raise SpecError(f"{key}.{err.key}", err.problem, err.fix) from None

    def check_against(self, profile: DataProfile, key: str) -> None:
        if profile.rows > self.population.size:
            raise SpecError(
                f"{key}.population_size",
                f"the population ({self.population.size}) is smaller than the "
                f"{profile.rows} rows of the source",
                f"give a population of at least {profile.rows}",
            )

    def estimated_fraction(self, sizes: ClassSizes) -> float | None:
        """The estimated share of population uniques, or None when not available."""
        snb_form: SnbForm = self.params.snb_form
        value = estimate(
            sizes, self.population, self.params.estimator, snb_form=snb_form, zayatz_fallback=False
        )
        return None if value is None else value / self.population.size

    def statistics(self, sizes: ClassSizes) -> dict[str, float | None]:
        if sizes.is_empty:
            return {"population_uniqueness": 0.0}
        return {"population_uniqueness": self.estimated_fraction(sizes)}

    def holds_table(self, sizes: ClassSizes) -> bool:
        if sizes.is_empty:
            return True
        if sizes.records > self.population.size:
            return False
        fraction = self.estimated_fraction(sizes)
        if fraction is not None and 0.0 < fraction <= self.params.threshold + EPSILON:
            return True
        return (fraction == 0.0 or fraction is None) and sizes.count_of_size(1) == 0

    def prepared(self, engine: Engine, relation: Relation, qids: Sequence[str]) -> PrivacyModel:
        return PopulationUniqueness(self.params, class_sizes(engine, relation, qids))

    def template_params(self) -> dict[str, Any]:
        if self.bound is None:
            raise AnonsqlError(
                f"{self.describe()}: the estimate is computed in Python from the class sizes of "
                "the relation. Fix: render the query of model.prepared(engine, relation, qids)"
            )
        sizes = self.bound
        fraction = None
        if sizes.is_empty:
            fraction = 0.0
        elif sizes.records <= self.population.size:
            fraction = self.estimated_fraction(sizes)
        return {
            "histogram": list(zip(sizes.sizes.tolist(), sizes.classes.tolist(), strict=True)),
            "estimator": self.params.estimator,
            "value": fraction,
            "threshold": self.params.threshold,
            "violated": not self.holds_table(sizes),
        }
