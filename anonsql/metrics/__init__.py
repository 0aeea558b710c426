"""Utility and risk measures computed by SQL on a published relation: the metrics recorded at
every publish and the measures taken on demand (:mod:`anonsql.metrics.base`)."""

from anonsql.metrics.base import (
    Metric,
    MetricContext,
    MetricInput,
    MetricValue,
    OnDemandMeasure,
    QidInfo,
)
from anonsql.metrics.registry import METRICS, ON_DEMAND, compute_all, metrics_for

__all__ = [
    "METRICS",
    "ON_DEMAND",
    "Metric",
    "MetricContext",
    "MetricInput",
    "MetricValue",
    "OnDemandMeasure",
    "QidInfo",
    "compute_all",
    "metrics_for",
]
