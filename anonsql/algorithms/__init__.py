"""Search algorithms: decisions from aggregates, per-row state kept in the engine."""

from anonsql.algorithms.base import Algorithm, PartitionSummary
from anonsql.algorithms.registry import ALGORITHMS

__all__ = ["ALGORITHMS", "Algorithm", "PartitionSummary"]
