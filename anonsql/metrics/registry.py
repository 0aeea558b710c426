"""The registries of measures (:mod:`anonsql.metrics.base`): :data:`METRICS`, recorded at every
publish, and :data:`ON_DEMAND`, taken when asked. Other packages add them through the
``anonsql.metrics`` and ``anonsql.on_demand_metrics`` entry-point groups."""

from __future__ import annotations

from typing import Any

from anonsql.metrics.base import Metric, MetricContext, MetricValue, OnDemandMeasure
from anonsql.metrics.classes import ClassMetrics
from anonsql.metrics.dependency_loss import DependencyLossMetric
from anonsql.metrics.ncp import NCP
from anonsql.metrics.personalized import PersonalizedMetric
from anonsql.metrics.risk import ReidentificationRisk
from anonsql.metrics.sa_ncp import SaNCP
from anonsql.metrics.workload import WorkloadError
from anonsql.registry import Registry

METRICS: Registry[type[Metric]] = Registry("metric", group="anonsql.metrics")
for _metric in (
    NCP,
    ClassMetrics,
    SaNCP,
    DependencyLossMetric,
    ReidentificationRisk,
    PersonalizedMetric,
    WorkloadError,
):
    METRICS.register(_metric.name, _metric)

ON_DEMAND: Registry[type[OnDemandMeasure[Any]]] = Registry(
    "on-demand measure", group="anonsql.on_demand_metrics"
)
ON_DEMAND.register_lazy("query_accuracy", "anonsql.metrics.olap:QueryAccuracyMeasure")
# lazy: its module loads the identity-reserved algorithms' (scipy), which a run does not need
ON_DEMAND.register_lazy(
    "identity_reserved", "anonsql.metrics.identity_reserved:IdentityReservedMeasure"
)


def metrics_for(layout: str | None) -> list[type[Metric]]:
    """The registered metrics measuring releases of ``layout`` (None: a bare relation), in the
    order ``__metrics`` lists them: those of every layout by name, then the layout's own."""
    found = [(name, metric) for name, metric in METRICS.items() if metric.measures(layout)]
    return [
        metric for _, metric in sorted(found, key=lambda item: (bool(item[1].layouts), item[0]))
    ]


def compute_all(ctx: MetricContext) -> list[MetricValue]:
    """Every registered metric of a release (:func:`metrics_for` its layout); those lacking an
    input they read report nothing."""
    values: list[MetricValue] = []
    for metric in metrics_for(ctx.layout):
        values.extend(metric().measure(ctx))
    return values
