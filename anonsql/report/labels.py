"""Readable names of the figures a release records (``__metrics`` keys, the certificate's
``source_risk`` figures, status fields) and how each is written, for the HTML report.

A key the table does not know is shown as itself (a metric added by another package): the
report never hides a figure for want of a label. Risk figures are named by ARX's and sdcMicro's
terms (:mod:`anonsql.risk`); shares and risks are in [0, 1] and written as percentages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

#: How a figure is written: a count, a percentage already in % (NCP), a share or probability in
#: [0, 1] (written as %), or a plain number.
Kind = Literal["count", "percent", "share", "number"]

#: Shown wherever a figure was not measured (never 0).
NOT_MEASURED = "not measured"


@dataclass(frozen=True)
class Label:
    """A figure's readable name and how its value is written."""

    text: str
    kind: Kind = "number"


#: Metric keys (``__metrics.metric``; ``risk.`` figures without the prefix are the certificate's
#: ``source_risk`` keys) -> label.
METRIC_LABELS: dict[str, Label] = {
    "classes": Label("equivalence classes", "count"),
    "published_rows": Label("published rows", "count"),
    "suppressed_rows": Label("suppressed rows", "count"),
    "discernibility": Label("discernibility penalty (sum of class size squared)", "count"),
    "average_class_size": Label("average class size"),
    "normalized_average_class_size": Label("average class size / k"),
    "ncp": Label("information loss (NCP)", "percent"),
    "sa_ncp": Label("sensitive-item information loss (SA-NCP)", "percent"),
    "dependency_loss": Label("functional-dependency loss", "percent"),
    "dependency_loss_sum": Label("functional-dependency loss (sum)"),
    "dependency_instances": Label("functional-dependency instances", "count"),
    "groups": Label("QID groups", "count"),
    "qid_privacy_gain": Label("privacy gain of the quasi-identifiers", "share"),
    "utility_gain": Label("utility gain", "share"),
    "privacy_gain": Label("privacy gain", "share"),
    "transformation_ratio": Label("values transformed", "share"),
    "adversary_confidence": Label("adversary's highest confidence (published)", "share"),
    "adversary_confidence_links": Label("adversary's highest confidence (with row links)", "share"),
    "sensitive_ncp": Label("sensitive-value information loss (NCP)", "percent"),
    "query_error_d1": Label("count-query error, one sensitive attribute", "share"),
    "query_error_d2": Label("count-query error, two sensitive attributes", "share"),
    "risk.records": Label("records measured", "count"),
    "risk.classes": Label("classes measured", "count"),
    "risk.threshold": Label("risk threshold", "share"),
    "risk.population_size": Label("population size assumed", "count"),
    "risk.sampling_fraction": Label("sampling fraction", "share"),
    "risk.prosecutor.records_at_risk": Label("prosecutor: records at risk", "share"),
    "risk.prosecutor.highest_risk": Label("prosecutor: highest risk", "share"),
    "risk.prosecutor.lowest_risk": Label("prosecutor: lowest risk", "share"),
    "risk.prosecutor.success_rate": Label("prosecutor: success rate (average risk)", "share"),
    "risk.journalist.records_at_risk": Label("journalist: records at risk", "share"),
    "risk.journalist.highest_risk": Label("journalist: highest risk", "share"),
    "risk.journalist.lowest_risk": Label("journalist: lowest risk", "share"),
    "risk.journalist.success_rate": Label("journalist: success rate (average risk)", "share"),
    "risk.journalist.from_population_table": Label("journalist risk from a population table"),
    "risk.marketer.success_rate": Label("marketer: success rate (share re-identified)", "share"),
    "risk.individual_risk.expected_reidentifications": Label(
        "individual risk (sdcMicro): expected re-identifications"
    ),
    "risk.individual_risk.global_risk": Label("individual risk (sdcMicro): global risk", "share"),
    "risk.individual_risk.highest_risk": Label("individual risk (sdcMicro): highest", "share"),
    "risk.individual_risk.records_at_risk": Label(
        "individual risk (sdcMicro): records at risk", "share"
    ),
    "risk.records_affected_by_highest_risk": Label("records in the smallest classes", "share"),
    "risk.records_affected_by_lowest_risk": Label("records in the largest classes", "share"),
    "risk.sample_uniques": Label("sample uniques (records alone in their class)", "count"),
    "risk.sample_uniqueness": Label("sample uniqueness", "share"),
    "risk.population_uniqueness.pitman": Label("population uniqueness (Pitman)", "share"),
    "risk.population_uniqueness.zayatz": Label("population uniqueness (Zayatz)", "share"),
    "risk.population_uniqueness.snb": Label("population uniqueness (SNB)", "share"),
    "risk.population_uniqueness.dankar": Label("population uniqueness (Dankar)", "share"),
}

#: The risk figures set source against release, in this order (ARX's three attacker models
#: first): keys of ``source_risk``, ``risk.`` + key in ``__metrics``.
RISK_FIGURES = (
    "prosecutor.records_at_risk",
    "prosecutor.highest_risk",
    "prosecutor.success_rate",
    "journalist.records_at_risk",
    "journalist.highest_risk",
    "journalist.success_rate",
    "marketer.success_rate",
    "sample_uniqueness",
    "population_uniqueness.pitman",
    "population_uniqueness.zayatz",
    "population_uniqueness.snb",
    "population_uniqueness.dankar",
    "individual_risk.records_at_risk",
    "records",
    "classes",
    "threshold",
    "population_size",
)


def label(key: str) -> Label:
    """The label of a metric key; an unknown key is its own label."""
    return METRIC_LABELS.get(key, Label(key))


def formatted(value: float | None, kind: Kind) -> str:
    """A figure as the report writes it; None (nothing measured) is :data:`NOT_MEASURED`."""
    if value is None or not math.isfinite(value):
        return NOT_MEASURED
    if kind == "percent":
        return f"{value:.1f} %"
    if kind == "share":
        return (
            f"{100 * value:.1f} %" if value == 0 or abs(value) >= 0.001 else f"{100 * value:.2g} %"
        )
    if value.is_integer():
        return f"{value:,.0f}"
    return f"{value:,.4g}"
