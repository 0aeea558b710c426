"""Metrics computed for every publish, by name."""

from __future__ import annotations

from anonsql.metrics.base import Metric, MetricContext, MetricValue
from anonsql.metrics.classes import ClassMetrics
from anonsql.metrics.ncp import NCP
from anonsql.metrics.sa_ncp import SaNCP
from anonsql.registry import Registry

METRICS: Registry[Metric] = Registry("metric")
for _metric in (NCP(), ClassMetrics(), SaNCP()):
    METRICS.register(_metric.name, _metric)


def compute_all(ctx: MetricContext) -> list[MetricValue]:
    values: list[MetricValue] = []
    for name in METRICS.names():
        values.extend(METRICS.get(name).compute(ctx))
    return values
