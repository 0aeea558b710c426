"""Risk-based privacy models: k-map, and ARX's table-level risk thresholds.

* :class:`KMap` -- every class of the sample holds at least ``k`` persons *of the population*
  (Sweeney, "Computational disclosure control", PhD thesis, MIT 2001; El Emam & Dankar, JAMIA
  2008; ARX's ``KMap`` with a population subset). A class-level model like k-anonymity; its
  predicate needs each part's population size (:class:`PopulationPartStats`).
* :class:`AverageReidentificationRisk` -- the average prosecutor risk ``classes / records`` is at
  most a threshold, optionally with at most a share of records in classes whose risk exceeds a
  highest risk (ARX's ``AverageReidentificationRisk``; El Emam et al., "A globally optimal
  k-anonymity method for the de-identification of health data", JAMIA 16(5), 2009).
* :class:`SampleUniqueness` -- the share of sample-unique records is at most a threshold (ARX's
  ``SampleUniqueness``).
* :class:`PopulationUniqueness` -- the estimated share of population-unique records (Pitman,
  Zayatz, SNB or Dankar's rule, :mod:`anonsql.risk.population`) is at most a threshold (ARX's
  ``PopulationUniqueness``; Dankar et al., BMC 2012).

The last three are **table-level**: they bound a statistic of the whole release, not of each
class (:class:`TableLevelModel`). Their violation query returns one row per violated statistic
(e.g. ``average_risk 0.12 > 0.05``) and none when the model holds; their predicate is
:meth:`TableLevelModel.holds_table` over the class-size distribution. A search uses them on a
*whole candidate*: the classes it would publish, after the rows it would suppress
(:func:`smallest_classes_to_suppress` does ARX's suppression of the smallest classes first).
"""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import numpy as np
import numpy.typing as npt
from pydantic import Field

from anonsql.engines import Engine
from anonsql.errors import AnonsqlError, SpecError
from anonsql.privacy.base import (
    EPSILON,
    BoolArray,
    DataProfile,
    Params,
    ParamsBase,
    PartStats,
    PrivacyModel,
)
from anonsql.risk.classes import ClassSizes, class_sizes
from anonsql.risk.population import (
    DEFAULT_REGION,
    PopulationModel,
    SnbForm,
    estimate,
)
from anonsql.sql import Relation, SqlRenderer, TableName

FloatArray = npt.NDArray[np.float64]


# -- k-map -------------------------------------------------------------------------------------


@dataclass
class PopulationPartStats(PartStats):
    """:class:`PartStats` with each part's number of persons in the population table."""

    population: FloatArray = field(default_factory=lambda: np.zeros(0, np.float64))

    def take(self, index: npt.NDArray[Any]) -> PopulationPartStats:
        base = super().take(index)
        return PopulationPartStats(
            counts=base.counts,
            histograms=base.histograms,
            global_counts=base.global_counts,
            population=np.asarray(self.population, np.float64)[index],
        )


class KMapParams(Params):
    k: int = Field(description="minimum number of persons of the population in every class")
    population: str = Field(description="schema.table of the population, with the sample's QIDs")
    count: str | None = Field(
        default=None, description="column counting the persons of a population row"
    )


class KMap(PrivacyModel):
    """Every class of rows sharing QID values matches at least ``k`` persons of the population.

    The population table holds the same QID columns, at the same generalization as the checked
    relation, and one row per person or a ``count`` column.
    """

    name = "k_map"
    Params = KMapParams
    #: The predicate reads :attr:`PopulationPartStats.population`.
    needs_population: ClassVar[bool] = True
    reference = (
        "L. Sweeney, Computational disclosure control, MIT 2001; "
        "K. El Emam, F. Dankar, Protecting privacy using k-anonymity, JAMIA 15(5), 2008"
    )

    @property
    def k(self) -> int:
        assert isinstance(self.params, KMapParams)
        return self.params.k

    @property
    def population_table(self) -> TableName:
        assert isinstance(self.params, KMapParams)
        return TableName.parse(self.params.population)

    def check_params(self, key: str) -> None:
        assert isinstance(self.params, KMapParams)
        if self.k < 1:
            raise SpecError(f"{key}.k", f"k = {self.k} is below 1", "use k >= 1")
        try:
            TableName.parse(self.params.population)
        except ValueError:
            raise SpecError(
                f"{key}.population",
                "is not a table name of the form schema.table",
                "name the population table as schema.table",
            ) from None

    def holds(self, parts: PartStats) -> BoolArray:
        if not isinstance(parts, PopulationPartStats):
            raise AnonsqlError(
                f"{self.describe()}: the search gave no population sizes of its parts. "
                "Fix: pass PopulationPartStats (a bug in the caller, not in the data)"
            )
        return np.asarray(parts.population, np.float64) >= self.k

    def violations_sql(
        self,
        renderer: SqlRenderer,
        relation: Relation,
        qids: Sequence[str],
        *,
        person: str | None = None,
    ) -> str:
        assert isinstance(self.params, KMapParams)
        return renderer.render(
            "risk/k_map",
            relation=relation,
            qids=list(qids),
            population=self.population_table,
            count=self.params.count,
            k=self.k,
        )


# -- table-level models ------------------------------------------------------------------------


class TableLevelModel(PrivacyModel):
    """A model that bounds a statistic of the whole table (ARX's risk-based criteria).

    :meth:`holds_table` is the predicate, over the class-size distribution of everything a
    candidate would publish. :meth:`holds` treats a batch of parts as that whole candidate and
    returns its verdict for every part (all True or all False): it cannot judge one part alone.
    """

    table_level: ClassVar[bool] = True

    @abstractmethod
    def holds_table(self, sizes: ClassSizes) -> bool:
        """Whether the model holds on a table with this class-size distribution."""

    @abstractmethod
    def statistics(self, sizes: ClassSizes) -> dict[str, float | None]:
        """The statistics the model bounds, measured on ``sizes``."""

    def holds(self, parts: PartStats) -> BoolArray:
        verdict = self.holds_table(ClassSizes.from_class_sizes(parts.counts))
        return np.full(len(parts), verdict, dtype=np.bool_)

    def prepare(self, engine: Engine, relation: Relation, qids: Sequence[str]) -> PrivacyModel:
        """The model ready to render its violation query on ``relation`` (models whose
        statistic SQL cannot compute are bound to the relation's class sizes here)."""
        return self


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


def _check_risk(key: str, value: float) -> None:
    if not 0.0 <= value <= 1.0:
        raise SpecError(key, f"{value!r} is outside [0, 1]", "give a risk in [0, 1]")


class AverageRiskParams(Params):
    threshold: float = Field(description="largest average re-identification risk")
    highest_risk: float | None = Field(
        default=None, description="risk above which a record counts as at risk"
    )
    records_at_risk: float | None = Field(
        default=None, description="largest share of records at risk"
    )


class AverageReidentificationRisk(TableLevelModel):
    """The average prosecutor risk, ``classes / records``, is at most ``threshold``; with
    ``highest_risk`` and ``records_at_risk``, at most that share of records lies in classes
    smaller than ``size_threshold(highest_risk)``. An empty table satisfies it (as in ARX)."""

    name = "average_reidentification_risk"
    Params = AverageRiskParams
    reference = (
        "K. El Emam et al., A globally optimal k-anonymity method for the de-identification of "
        "health data, JAMIA 16(5), 2009; ARX AverageReidentificationRisk"
    )

    @property
    def p(self) -> AverageRiskParams:
        assert isinstance(self.params, AverageRiskParams)
        return self.params

    def check_params(self, key: str) -> None:
        _check_risk(f"{key}.threshold", self.p.threshold)
        if (self.p.highest_risk is None) != (self.p.records_at_risk is None):
            raise SpecError(
                key,
                "highest_risk and records_at_risk go together",
                "give both, or neither",
            )
        if self.p.highest_risk is not None:
            if not 0.0 < self.p.highest_risk <= 1.0:
                raise SpecError(
                    f"{key}.highest_risk",
                    f"{self.p.highest_risk!r} is outside (0, 1]",
                    "give a risk in (0, 1]",
                )
            assert self.p.records_at_risk is not None
            _check_risk(f"{key}.records_at_risk", self.p.records_at_risk)

    @property
    def smallest_safe_size(self) -> int | None:
        return None if self.p.highest_risk is None else size_threshold(self.p.highest_risk)

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
        if average > self.p.threshold + EPSILON:
            return False
        at_risk = figures.get("records_at_risk")
        if self.p.records_at_risk is None or at_risk is None:
            return True
        return at_risk <= self.p.records_at_risk + EPSILON

    def violations_sql(
        self,
        renderer: SqlRenderer,
        relation: Relation,
        qids: Sequence[str],
        *,
        person: str | None = None,
    ) -> str:
        return renderer.render(
            "risk/average_risk",
            relation=relation,
            qids=list(qids),
            threshold=self.p.threshold,
            smallest=self.smallest_safe_size,
            records_at_risk=self.p.records_at_risk,
            epsilon=EPSILON,
        )


class SampleUniquenessParams(Params):
    threshold: float = Field(description="largest share of sample-unique records")


class SampleUniqueness(TableLevelModel):
    """The share of records that are unique in the table is at most ``threshold``."""

    name = "sample_uniqueness"
    Params = SampleUniquenessParams
    reference = "ARX SampleUniqueness (F. Prasser et al., ARX, SPE 2020)"

    @property
    def threshold(self) -> float:
        assert isinstance(self.params, SampleUniquenessParams)
        return self.params.threshold

    def check_params(self, key: str) -> None:
        _check_risk(f"{key}.threshold", self.threshold)

    def statistics(self, sizes: ClassSizes) -> dict[str, float | None]:
        n = sizes.records
        return {"sample_uniqueness": sizes.count_of_size(1) / float(n) if n else 0.0}

    def holds_table(self, sizes: ClassSizes) -> bool:
        value = self.statistics(sizes)["sample_uniqueness"]
        assert value is not None
        return value <= self.threshold + EPSILON

    def violations_sql(
        self,
        renderer: SqlRenderer,
        relation: Relation,
        qids: Sequence[str],
        *,
        person: str | None = None,
    ) -> str:
        return renderer.render(
            "risk/sample_uniqueness",
            relation=relation,
            qids=list(qids),
            threshold=self.threshold,
            epsilon=EPSILON,
        )


class PopulationUniquenessParams(Params):
    threshold: float = Field(description="largest estimated share of population-unique records")
    estimator: Literal["pitman", "zayatz", "snb", "dankar"] = "dankar"
    population_size: int | None = Field(default=None, description="persons in the population")
    region: str | None = Field(default=None, description="an ARX region (default USA)")
    snb_form: Literal["arx", "published"] = "arx"


class PopulationUniqueness(TableLevelModel):
    """The estimated share of population uniques (``uniques / N``) is at most ``threshold``.

    As ARX's criterion: an estimate that is not available fails the model unless the table has
    no sample uniques; Dankar's rule does not fall back to Zayatz here. The estimate is computed
    in Python, so the violation query needs :meth:`prepare` first: the bound query recomputes the
    class sizes in SQL and reports a row when they differ from those estimated.
    """

    name = "population_uniqueness"
    Params = PopulationUniquenessParams
    monotonic = False
    supports_suppression = False
    reference = (
        "F. Dankar et al., Estimating the re-identification risk of clinical data sets, "
        "BMC Med. Inform. Decis. Mak. 12:66, 2012; ARX PopulationUniqueness"
    )

    def __init__(self, params: ParamsBase, bound: ClassSizes | None = None) -> None:
        super().__init__(params)
        self.bound = bound

    @property
    def p(self) -> PopulationUniquenessParams:
        assert isinstance(self.params, PopulationUniquenessParams)
        return self.params

    @property
    def population(self) -> PopulationModel:
        if self.p.population_size is not None:
            return PopulationModel(self.p.population_size)
        return PopulationModel.for_region(self.p.region or DEFAULT_REGION)

    def check_params(self, key: str) -> None:
        _check_risk(f"{key}.threshold", self.p.threshold)
        if self.p.population_size is not None and self.p.region is not None:
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
        snb_form: SnbForm = self.p.snb_form
        value = estimate(
            sizes,
            self.population,
            self.p.estimator,
            snb_form=snb_form,
            zayatz_fallback=False,
        )
        return None if value is None else value / self.population.size

    def statistics(self, sizes: ClassSizes) -> dict[str, float | None]:
        if sizes.is_empty:
            return {"population_uniqueness": 0.0}
        return {"population_uniqueness": self.estimated_fraction(sizes)}

    def holds_table(self, sizes: ClassSizes) -> bool:
        if sizes.is_empty:
            return True
        fraction = self.estimated_fraction(sizes)
        if fraction is not None and 0.0 < fraction <= self.p.threshold + EPSILON:
            return True
        return (fraction == 0.0 or fraction is None) and sizes.count_of_size(1) == 0

    def prepare(self, engine: Engine, relation: Relation, qids: Sequence[str]) -> PrivacyModel:
        return PopulationUniqueness(self.params, class_sizes(engine, relation, qids))

    def violations_sql(
        self,
        renderer: SqlRenderer,
        relation: Relation,
        qids: Sequence[str],
        *,
        person: str | None = None,
    ) -> str:
        if self.bound is None:
            raise AnonsqlError(
                f"{self.describe()}: the estimate is computed in Python from the class sizes of "
                "the relation. Fix: call prepare(engine, relation, qids) first, or use "
                "anonsql.risk.models.violations_query"
            )
        sizes = self.bound
        fraction = self.estimated_fraction(sizes) if not sizes.is_empty else 0.0
        return renderer.render(
            "risk/population_uniqueness",
            relation=relation,
            qids=list(qids),
            histogram=list(zip(sizes.sizes.tolist(), sizes.classes.tolist(), strict=True)),
            statistic=f"population_uniqueness ({self.p.estimator})"
            + ("" if fraction is not None else ": no estimate"),
            value=fraction,
            threshold=self.p.threshold,
            violated=not self.holds_table(sizes),
        )


def violations_query(
    engine: Engine,
    model: PrivacyModel,
    relation: Relation,
    qids: Sequence[str],
    *,
    person: str | None = None,
) -> str:
    """The violation query of any model on ``relation``; table-level models are prepared
    (bound to the relation) first."""
    ready = model.prepare(engine, relation, qids) if isinstance(model, TableLevelModel) else model
    return ready.violations_sql(engine.sql, relation, qids, person=person)


@dataclass(frozen=True)
class SuppressionPlan:
    """Suppress the ``classes`` smallest classes (``rows`` rows) for the model to hold."""

    classes: int
    rows: int


def smallest_classes_to_suppress(
    sizes: ClassSizes, model: TableLevelModel, max_rows: int
) -> SuppressionPlan | None:
    """The fewest smallest classes to suppress for ``model`` to hold, suppressing at most
    ``max_rows`` rows; None when no such number exists.

    ARX's approach (``HashGroupifyDistribution.suppressWhileNotFulfilledBinary``): classes are
    suppressed smallest first and the number is found by binary search, which is exact for the
    models that only get easier as small classes go (sample uniqueness, and records at risk) and
    a heuristic otherwise (average risk can rise when a class smaller than average is removed
    late; population uniqueness is not monotonic). The search is sequential: ``O(log u)``
    evaluations of the model, each vectorized over the distinct class sizes.
    """
    if model.holds_table(sizes):
        return SuppressionPlan(0, 0)
    rows_per_size = np.cumsum(sizes.sizes * sizes.classes)
    classes_per_size = np.cumsum(sizes.classes)
    whole = int(np.searchsorted(rows_per_size, max_rows, side="right"))  # sizes suppressed whole
    affordable = int(classes_per_size[whole - 1]) if whole else 0
    if whole < sizes.sizes.size:
        spare = max_rows - (int(rows_per_size[whole - 1]) if whole else 0)
        affordable += min(spare // int(sizes.sizes[whole]), int(sizes.classes[whole]))
    if affordable == 0 or not model.holds_table(sizes.without_smallest(affordable)):
        return None
    low, high = 1, affordable
    while low < high:
        middle = (low + high) // 2
        if model.holds_table(sizes.without_smallest(middle)):
            high = middle
        else:
            low = middle + 1
    return SuppressionPlan(low, sizes.rows_in_smallest(low))
