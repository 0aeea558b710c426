"""The re-identification risk of one relation, every figure named as ARX (or sdcMicro) names it.

:func:`measure_risk` runs the aggregate statements on any table or view given its QIDs (before
anonymizing, or on a release) and :func:`risk_report` turns the aggregates into a frozen
:class:`RiskReport`. References: ARX (Prasser, Kohlmayer et al., "Flexible data anonymization
using ARX", Software: Practice and Experience 2020, and its ``risk`` package), El Emam & Dankar,
JAMIA 2008 (attacker models), Dankar et al., BMC 2012 (population uniqueness), sdcMicro
(Templ, Kowarik, Meindl, J. Stat. Software 67(4), 2015; individual risk).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.risk.attackers import (
    DEFAULT_THRESHOLD,
    AttackerRisk,
    IndividualRisk,
    check_threshold,
    individual_risk,
    journalist_risk,
    marketer_risk,
    prosecutor_risk,
)
from anonsql.risk.classes import (
    ClassPairs,
    ClassSizes,
    PopulationTable,
    class_sizes,
    population_class_sizes,
    weighted_class_sizes,
)
from anonsql.risk.population import (
    ESTIMATORS,
    PopulationModel,
    PopulationUniqueness,
    SnbForm,
    SolverConfig,
    population_uniqueness,
)
from anonsql.sql import Relation, TableName


@dataclass(frozen=True)
class RiskReport:
    """Re-identification risk of a relation (all shares and risks in [0, 1]).

    ``journalist`` comes from the population table when one was given
    (``journalist_source == "population"``); otherwise it is ARX's figure without a population,
    the prosecutor's (``"sample"``). ``estimated_journalist`` is sdcMicro's individual risk,
    from the sampling weights when given, else from equal weights ``N / n``.
    ``records_affected_by_highest_risk`` / ``_lowest_risk`` are ARX's ``RiskModelSampleRisks``
    shares of records in the smallest / largest classes; ``sample_uniqueness`` is the share of
    records that are unique in the sample (``getFractionOfUniqueRecords``).
    """

    records: int
    classes: int
    threshold: float
    population_size: int
    prosecutor: AttackerRisk
    journalist: AttackerRisk
    journalist_source: str
    marketer: float
    estimated_journalist: IndividualRisk
    records_affected_by_highest_risk: float
    records_affected_by_lowest_risk: float
    sample_uniques: int
    sample_uniqueness: float
    population_uniqueness: PopulationUniqueness

    @property
    def sampling_fraction(self) -> float:
        return self.records / self.population_size

    def figures(self) -> dict[str, float]:
        """Every figure by a dotted name, for metrics tables and the certificate. Estimates
        that are not available are left out."""
        out: dict[str, float] = {
            "records": float(self.records),
            "classes": float(self.classes),
            "threshold": self.threshold,
            "population_size": float(self.population_size),
            "sampling_fraction": self.sampling_fraction,
        }
        for model, risk in (("prosecutor", self.prosecutor), ("journalist", self.journalist)):
            for name in ("records_at_risk", "highest_risk", "lowest_risk", "success_rate"):
                out[f"{model}.{name}"] = float(getattr(risk, name))
        out["marketer.success_rate"] = self.marketer
        individual = self.estimated_journalist
        for name in ("expected_reidentifications", "global_risk", "highest_risk"):
            out[f"individual_risk.{name}"] = float(getattr(individual, name))
        out["individual_risk.records_at_risk"] = individual.records_at_risk
        out["records_affected_by_highest_risk"] = self.records_affected_by_highest_risk
        out["records_affected_by_lowest_risk"] = self.records_affected_by_lowest_risk
        out["sample_uniques"] = float(self.sample_uniques)
        out["sample_uniqueness"] = self.sample_uniqueness
        for estimator in ESTIMATORS:
            fraction = self.population_uniqueness.fraction(estimator)
            if fraction is not None and math.isfinite(fraction):
                out[f"population_uniqueness.{estimator}"] = fraction
        return out


def risk_report(
    sizes: ClassSizes,
    *,
    population: PopulationModel | None = None,
    population_pairs: ClassPairs | None = None,
    weighted_pairs: ClassPairs | None = None,
    threshold: float = DEFAULT_THRESHOLD,
    solver: SolverConfig | None = None,
    snb_form: SnbForm = "arx",
) -> RiskReport:
    """Every figure from the aggregates: ``sizes`` (the sample's class sizes), optionally the
    classes matched to a population table and/or to their sums of sampling weights.

    ``population`` defaults to ARX's (USA); the sampling fraction is ``records / population``.
    """
    t = check_threshold(threshold)
    model = population or PopulationModel.for_region()
    n = sizes.records
    prosecutor = prosecutor_risk(sizes, t)
    if population_pairs is not None:
        if population_pairs.sample() != sizes:
            raise SpecError(
                "population",
                "the classes matched to the population differ from the sample's classes",
                "compute both from the same relation and quasi-identifiers",
            )
        journalist, source = journalist_risk(population_pairs, t), "population"
        marketer = marketer_risk(population_pairs)
    else:
        journalist, source = prosecutor, "sample"
        marketer = prosecutor.success_rate
    fraction = model.sampling_fraction(n) if n else 1.0
    individual = individual_risk(
        weighted_pairs if weighted_pairs is not None else ClassPairs.uniform(sizes, fraction), t
    )
    uniques = sizes.count_of_size(1)
    highest = lowest = 0.0
    if n:
        highest = float(sizes.sizes[0] * sizes.classes[0]) / n
        lowest = float(sizes.sizes[-1] * sizes.classes[-1]) / n
    return RiskReport(
        records=n,
        classes=sizes.num_classes,
        threshold=t,
        population_size=model.size,
        prosecutor=prosecutor,
        journalist=journalist,
        journalist_source=source,
        marketer=marketer,
        estimated_journalist=individual,
        records_affected_by_highest_risk=highest,
        records_affected_by_lowest_risk=lowest,
        sample_uniques=uniques,
        sample_uniqueness=uniques / n if n else 0.0,
        population_uniqueness=population_uniqueness(sizes, model, solver=solver, snb_form=snb_form),
    )


def population_total(engine: Engine, population: PopulationTable) -> int:
    """Persons in a population table (its rows, or the sum of its count column)."""
    value = engine.query(
        "risk/population_total", population=population.relation, count=population.count
    )[0][0]
    return math.floor(float(value or 0.0) + 0.5)


def measure_risk(
    engine: Engine,
    relation: Relation,
    qids: Sequence[str],
    *,
    population: PopulationModel | None = None,
    population_table: PopulationTable | None = None,
    weight: str | None = None,
    threshold: float = DEFAULT_THRESHOLD,
    solver: SolverConfig | None = None,
    snb_form: SnbForm = "arx",
    classes: TableName | None = None,
    counted: str | None = None,
    classes_are_rows: bool = False,
) -> RiskReport:
    """Measure the re-identification risk of any table or view given its quasi-identifiers.

    One statement for the class sizes, one more with a population table (matched classes, and
    its size when ``population`` is not given), one more with a weight column. The population
    size is, in order: ``population``; the persons of ``population_table``; the sum of the
    weights; ARX's default (USA). ``classes``, a class table of ``relation`` (its QID columns and
    ``class_size``, e.g. a release's ``__classes``), gives the class sizes without grouping
    ``relation`` again. ``counted``: a column of ``relation`` holding how many rows each of its
    rows stands for (a grouped relation; not with a population table or a weight);
    ``classes_are_rows``: besides, no two rows share their QIDs (each row is a class).
    """
    if counted is not None and (population_table is not None or weight is not None):
        raise ValueError("counted rows cannot be matched to a population table or weighted")
    sizes = class_sizes(
        engine, relation, qids, classes=classes, counted=counted, classes_are_rows=classes_are_rows
    )
    pairs = weighted = None
    model = population
    if population_table is not None:
        pairs = population_class_sizes(engine, relation, qids, population_table)
        if model is None:
            total = population_total(engine, population_table)
            model = PopulationModel(max(total, 1))
    if weight is not None:
        weighted = weighted_class_sizes(engine, relation, qids, weight)
        if model is None and not weighted.is_empty:
            total_weight = float((weighted.population_sizes * weighted.classes).sum())
            model = PopulationModel(max(math.floor(total_weight + 0.5), 1))
    return risk_report(
        sizes,
        population=model,
        population_pairs=pairs,
        weighted_pairs=weighted,
        threshold=threshold,
        solver=solver,
        snb_form=snb_form,
    )
