"""Search algorithms: decisions from aggregates, per-row state kept in the engine.

Each family lives in its own package with its helpers (``mondrian``, ``one_d``,
``one_to_many``); ``parts`` and ``lca`` are shared by all of them.
"""

from anonsql.algorithms.base import Algorithm, Partitioning, ProgressCallback
from anonsql.algorithms.registry import ALGORITHMS

__all__ = ["ALGORITHMS", "Algorithm", "Partitioning", "ProgressCallback"]
