"""Re-identification risk as a metric of every release, and of its source for the certificate.

The figures are ARX's and sdcMicro's (:mod:`anonsql.risk`): prosecutor, journalist and marketer
risk with the share of records at risk above a threshold, highest and average (success rate)
risk; sdcMicro's individual risk; sample uniques; population-uniqueness estimates (Pitman,
Zayatz, SNB, Dankar). Each is one ``risk.<figure>`` row of ``__metrics``.

A release's risk is measured on what it publishes: its classes of published rows (suppressed
rows are left out, as the view leaves them out) or, for 1:M data, of persons. The estimates assume
the population of the spec's ``risk`` settings (``population_size``; the persons of its
``population`` table; one of ARX's regions, by default the USA). A population table gives the
*source* its journalist and marketer risk; a release publishes generalized values, which the
population table does not hold, so a release's journalist figures are ARX's without a
population (the prosecutor's).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from typing_extensions import Self

from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.metrics.base import Metric, MetricContext, MetricInput, MetricValue
from anonsql.risk import PopulationModel, PopulationTable, RiskReport, measure_risk
from anonsql.risk.attackers import DEFAULT_THRESHOLD
from anonsql.risk.report import population_total
from anonsql.spec import Spec
from anonsql.spec.relations import parse_relation
from anonsql.sql import Relation, TableName

if TYPE_CHECKING:
    from anonsql.publish import BuiltRelease
    from anonsql.release.reader import PublishedRelease

REFERENCE = (
    "K. El Emam, F. Dankar, Protecting privacy using k-anonymity, JAMIA 15(5), 2008; "
    "F. Dankar et al., BMC Med. Inform. Decis. Mak. 12:66, 2012; F. Prasser et al., ARX, "
    "SPE 50(7), 2020; M. Templ et al., sdcMicro, J. Stat. Softw. 67(4), 2015"
)
#: Prefix of the risk figures' metric names.
PREFIX = "risk."


@dataclass(frozen=True)
class RiskSettings(MetricInput):
    """How re-identification risk is measured (:func:`risk_settings`: threshold and population;
    empty for the defaults): the spec's at publish (the measure step gives the ones it
    computed for the source's risk), the certificate's on a release read back."""

    settings: Mapping[str, Any]

    @classmethod
    def at_publish(cls, release: BuiltRelease) -> Self | None:
        return cls(risk_settings(release.staged.resolved.spec, release.engine))

    @classmethod
    def of_release(cls, engine: Engine, release: PublishedRelease) -> Self | None:
        return cls(settings_of(release.certificate))


class ReidentificationRisk(Metric):
    """Every figure of :class:`~anonsql.risk.RiskReport` for the published classes."""

    name = "risk"
    reference = REFERENCE
    reads = (RiskSettings,)

    def compute(self, ctx: MetricContext) -> list[MetricValue]:
        report = relation_risk(
            ctx.engine,
            ctx.relation,
            [q.column for q in ctx.qids],
            ctx.get(RiskSettings).settings,
            population=None,
            classes=ctx.classes,
        )
        return [MetricValue(PREFIX + name, None, value) for name, value in figures(report)]


def figures(report: RiskReport) -> list[tuple[str, float]]:
    return list(report.figures().items())


def risk_settings(spec: Spec, engine: Engine) -> dict[str, Any]:
    """The spec's ``risk`` settings, JSON-ready, with the population size they imply (the
    given size, else the persons of the population table, else None: ARX's region)."""
    risk = spec.risk
    settings: dict[str, Any] = {
        "threshold": risk.threshold if risk else DEFAULT_THRESHOLD,
        "population_size": risk.population_size if risk else None,
        "region": risk.region if risk else None,
        "population": risk.population if risk else None,
        "population_count": risk.population_count if risk else None,
    }
    if settings["region"] is not None and settings["population_size"] is not None:
        raise SpecError(
            "risk", "population_size and region both name the population", "give one of them"
        )
    table = population_table(settings)
    if table is not None and settings["population_size"] is None and not settings["region"]:
        if engine.columns(table.relation) is None:
            raise SpecError(
                "risk.population",
                f"{table.relation} does not exist",
                "name an existing table holding the population",
            )
        settings["population_size"] = population_total(engine, table)
    population_model(settings)
    return settings


def check_population(spec: Spec, engine: Engine, sample: int) -> None:
    """Refuse, before any work, a population smaller than the source's ``sample`` (its rows,
    or persons): the risk estimates of the measure step would refuse it after the whole run
    (a 1e9-row run reached them after 22 minutes)."""
    model = population_model(risk_settings(spec, engine))
    try:
        model.sampling_fraction(sample)
    except SpecError as err:
        raise SpecError(f"risk.{err.key}", err.problem, err.fix) from None


def population_table(settings: Mapping[str, Any]) -> PopulationTable | None:
    name = settings.get("population")
    if not name:
        return None
    return PopulationTable(
        parse_relation(str(name), "risk.population"), settings.get("population_count")
    )


def population_model(settings: Mapping[str, Any]) -> PopulationModel:
    """The population the estimates assume."""
    try:
        size = settings.get("population_size")
        if size:
            return PopulationModel(int(size))
        region = settings.get("region")
        return PopulationModel.for_region(region) if region else PopulationModel.for_region()
    except SpecError as err:
        raise SpecError(f"risk.{err.key}", err.problem, err.fix) from None


def relation_risk(
    engine: Engine,
    relation: Relation,
    qids: list[str],
    settings: Mapping[str, Any],
    *,
    population: PopulationTable | None,
    classes: TableName | None = None,
    counted: str | None = None,
    classes_are_rows: bool = False,
) -> RiskReport:
    """The risk of ``relation`` under ``settings`` (a population table only when given;
    ``classes``, ``counted``, ``classes_are_rows``: see :func:`anonsql.risk.measure_risk`)."""
    threshold = float(settings.get("threshold", DEFAULT_THRESHOLD))
    try:
        return measure_risk(
            engine,
            relation,
            qids,
            population=population_model(settings),
            population_table=population,
            threshold=threshold,
            classes=classes,
            counted=counted,
            classes_are_rows=classes_are_rows,
        )
    except SpecError as err:
        if err.key.startswith("risk"):
            raise
        raise SpecError(f"risk.{err.key}", err.problem, err.fix) from None


def source_figures(
    engine: Engine,
    relation: Relation,
    qids: list[str],
    settings: Mapping[str, Any],
    *,
    with_population: bool,
    counted: str | None = None,
    classes_are_rows: bool = False,
) -> dict[str, float]:
    """The source's figures for the certificate (journalist and marketer from the population
    table when ``with_population`` and the settings name one); ``counted``: ``relation``'s
    column of row multiplicities, when its rows are grouped (``classes_are_rows``: one row per
    class)."""
    table = population_table(settings) if with_population else None
    report = relation_risk(
        engine,
        relation,
        qids,
        settings,
        population=table,
        counted=counted,
        classes_are_rows=classes_are_rows,
    )
    out = dict(report.figures())
    out["journalist.from_population_table"] = float(report.journalist_source == "population")
    return out


def settings_of(certificate: Mapping[str, Any]) -> dict[str, Any]:
    """The risk settings a release's certificate records (empty before they existed)."""
    value = certificate.get("risk_settings")
    settings = json.loads(value) if isinstance(value, str) else None
    return settings if isinstance(settings, dict) else {}
