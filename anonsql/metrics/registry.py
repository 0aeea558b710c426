"""Metrics computed for every publish, by name. Other packages add metrics through the
``anonsql.metrics`` entry-point group."""

from __future__ import annotations

from anonsql.metrics.base import Metric, MetricContext, MetricValue
from anonsql.metrics.classes import ClassMetrics
from anonsql.metrics.dependency_loss import DependencyLossMetric
from anonsql.metrics.ncp import NCP
from anonsql.metrics.risk import ReidentificationRisk
from anonsql.metrics.sa_ncp import SaNCP
from anonsql.registry import Registry

METRICS: Registry[type[Metric]] = Registry("metric", group="anonsql.metrics")
for _metric in (NCP, ClassMetrics, SaNCP, DependencyLossMetric, ReidentificationRisk):
    METRICS.register(_metric.name, _metric)


def compute_all(ctx: MetricContext) -> list[MetricValue]:
    """Every registered metric of a release, in name order."""
    values: list[MetricValue] = []
    for _, metric in METRICS.items():
        values.extend(metric().compute(ctx))
    return values
