"""Utility and risk metrics computed by SQL on a published relation
(:mod:`anonsql.metrics.base`)."""

from anonsql.metrics.base import (
    Metric,
    MetricContext,
    MetricInput,
    MetricValue,
    QidInfo,
)
from anonsql.metrics.registry import METRICS, compute_all, metrics_for

__all__ = [
    "METRICS",
    "Metric",
    "MetricContext",
    "MetricInput",
    "MetricValue",
    "QidInfo",
    "compute_all",
    "metrics_for",
]
