"""The frozen result every clustering algorithm of this package returns, and its limits.

A result assigns each encoded record a cluster id (``-1``: a suppressed leftover) and carries
the shape of anonsql's ``parts`` table (one row per cluster: ``pid``, ``n``, ``suppressed``;
per quasi-identifier ``i`` its tight generalization, ``lo<i>``/``hi<i>`` numeric values or
``node<i>``, the lowest common ancestor's node id), so the clusters can be published through
the common path (:mod:`anonsql.algorithms.dependency.release` writes them back to the engine).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa

from anonsql import arrow
from anonsql.algorithms.dependency.distance import Metrics
from anonsql.algorithms.dependency.encoding import EncodedRecords
from anonsql.arrays import IntArray
from anonsql.errors import SpecError


@dataclass(frozen=True, eq=False)
class ClusteringResult:
    """Clusters of encoded records (Gorla 2019, Def. 5; clusters of at least ``k`` records)."""

    algorithm: str
    k: int
    #: cluster id per record (``0..clusters-1``), -1 for suppressed leftovers
    labels: IntArray
    #: one row per cluster, plus a ``suppressed`` row (pid -1) when records were left over
    parts: pa.Table = field(repr=False)
    seconds: float
    #: algorithm-specific counters (iterations, candidates evaluated, ...)
    stats: tuple[tuple[str, float], ...] = ()

    @property
    def clusters(self) -> int:
        return int(self.labels.max()) + 1 if len(self.labels) and self.labels.max() >= 0 else 0

    @property
    def suppressed(self) -> int:
        return int((self.labels < 0).sum())

    def stat(self, name: str) -> float:
        return dict(self.stats)[name]


def canonical_labels(labels: IntArray) -> IntArray:
    """Renumber clusters ``0..C-1`` by their smallest record index (-1 kept)."""
    labels = np.asarray(labels, np.int64)
    out = np.full(len(labels), -1, np.int64)
    kept = np.flatnonzero(labels >= 0)
    if len(kept) == 0:
        return out
    ids, first = np.unique(labels[kept], return_index=True)
    order = np.argsort(kept[first], kind="stable")
    rank = np.empty(len(ids), np.int64)
    rank[order] = np.arange(len(ids))
    out[kept] = rank[np.searchsorted(ids, labels[kept])]
    return out


def parts_table(records: EncodedRecords, labels: IntArray) -> pa.Table:
    """The ``parts`` rows of a clustering: per cluster its size and tight generalization
    (numeric min/max values, categorical LCA node id), and one suppressed row (pid -1) for the
    leftovers if any."""
    labels = np.asarray(labels, np.int64)
    group = labels.copy()
    leftovers = bool((group < 0).any())
    ids = np.unique(group)
    position = np.searchsorted(ids, group)
    columns: dict[str, pa.Array] = {
        "pid": arrow.array(ids, pa.int64()),
        "n": arrow.array(np.bincount(position, minlength=len(ids)), pa.int64()),
        "suppressed": arrow.array(ids < 0 if leftovers else np.zeros(len(ids), bool)),
    }
    for a, attribute in enumerate(records.qi):
        codes = records.codes[:, a]
        lo = np.full(len(ids), np.iinfo(np.int64).max, np.int64)
        hi = np.full(len(ids), -1, np.int64)
        np.minimum.at(lo, position, codes)
        np.maximum.at(hi, position, codes)
        if attribute.values is not None:
            columns[f"lo{a}"] = arrow.array(attribute.values[lo], pa.float64())
            columns[f"hi{a}"] = arrow.array(attribute.values[hi], pa.float64())
        else:
            assert attribute.tree is not None
            columns[f"node{a}"] = arrow.array(attribute.tree.lca(lo, hi), pa.int32())
    return arrow.table(columns)


def finish(
    records: EncodedRecords,
    algorithm: str,
    k: int,
    labels: IntArray,
    seconds: float,
    stats: dict[str, float] | None = None,
) -> ClusteringResult:
    labels = canonical_labels(labels)
    return ClusteringResult(
        algorithm=algorithm,
        k=k,
        labels=labels,
        parts=parts_table(records, labels),
        seconds=seconds,
        stats=tuple(sorted((stats or {}).items())),
    )


def check_k(records: EncodedRecords, k: int, key: str) -> None:
    if not isinstance(k, int) or k < 1:
        raise SpecError(f"{key}.k", f"k = {k} is below 1", "use k >= 1")
    if records.qi_count == 0:
        raise SpecError(key, "there is no quasi-identifier to generalize", "declare one")


def check_size(records: EncodedRecords, limit: int, key: str, why: str) -> None:
    """Refuse inputs beyond an algorithm's stated size limit (they are quadratic)."""
    if records.size > limit:
        raise SpecError(
            f"{key}.max_records",
            f"{records.size} records exceed this algorithm's limit of {limit} ({why})",
            "anonymize a sample or a partition of the table, use a scalable algorithm "
            "(mondrian), or raise max_records knowingly",
        )


def new_metrics(records: EncodedRecords, exact: bool) -> Metrics:
    return Metrics(records, exact=exact)
