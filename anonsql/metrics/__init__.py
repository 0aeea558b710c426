"""Utility and risk metrics computed by SQL on a published relation."""

from anonsql.metrics.base import Metric, MetricContext, MetricValue, QidInfo
from anonsql.metrics.registry import METRICS, compute_all

__all__ = ["METRICS", "Metric", "MetricContext", "MetricValue", "QidInfo", "compute_all"]
