"""Utility and risk metrics computed by SQL on a published relation, and the measure step."""

from anonsql.metrics.base import Metric, MetricContext, MetricValue, QidInfo
from anonsql.metrics.registry import METRICS, compute_all

__all__ = ["METRICS", "Metric", "MetricContext", "MetricValue", "QidInfo", "compute_all"]
