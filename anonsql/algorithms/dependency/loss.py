"""Dependency loss, clustering utility and NCP of a clustering, vectorized in NumPy.

H. Gorla, "Dependency-Preserving Generalization for Data Publishing", MSc thesis, McMaster
University, 2019:

* dependency loss (Def. 8, Eq. 3.4) ``Δ(R', R, Σ) = Σ_{p ∈ Γ} min_{t' ∈ R'} d(p, t')``, with
  ``d`` of Eq. 4.3 (:mod:`.distance`). Suppressed records are not in R', so an
  instance only they carried costs up to 1. ``0 <= Δ <= |Γ|``; :attr:`DependencyLoss.normalized`
  is ``Δ / |Γ|`` (the thesis reports "% dependency loss" without saying which, digest A9).
* utility of a clustering (Def. 10, Eq. 4.1/4.2)
  ``Σ_{p ∈ Γ} max_c (1 - min_{t ∈ G(c)} d(p, t)) · |c| / k``, where ``G(c)`` generalizes the
  cluster's quasi-identifiers to their lowest common ancestors and keeps its other values.

Also the NCP of a clustering exactly as anonsql's ``ncp`` metric defines it (Xu et al., KDD
2006), so the algorithms here and the SQL-published releases are comparable.

The SQL counterpart of Δ, computed from a published relation and its source, is
:func:`anonsql.metrics.dependency_loss.release_loss`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from anonsql.algorithms.dependency.distance import Metrics, instance_deltas
from anonsql.algorithms.dependency.encoding import EncodedRecords, InstanceGroup
from anonsql.arrays import FloatArray, IntArray

#: Cells of one distance block (instances x published tuples) held at a time.
BLOCK_CELLS = 4_000_000


@dataclass(frozen=True)
class GroupLoss:
    """Δ of the instances of the FDs sharing one ``X ∪ Y``."""

    fds: tuple[str, ...]
    instances: int
    loss: float


@dataclass(frozen=True)
class DependencyLoss:
    """Δ of a release with its parts (Gorla, Def. 8)."""

    loss: float
    instances: int
    groups: tuple[GroupLoss, ...]

    @property
    def normalized(self) -> float:
        """``Δ / |Γ|`` in [0, 1]."""
        return self.loss / self.instances if self.instances else 0.0


def cluster_ranges(
    metrics: Metrics, labels: IntArray
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Per cluster (ids ``0..C-1`` of ``labels``; -1 ignored): its generalized code ranges on
    every quasi-identifier ``(C, |QI|)``, its size, and the sorted cluster ids."""
    records = metrics.records
    kept = labels >= 0
    ids, inverse = np.unique(labels[kept], return_inverse=True)
    q = records.qi_count
    lo = np.full((len(ids), q), np.iinfo(np.int64).max, np.int64)
    hi = np.full((len(ids), q), -1, np.int64)
    codes = records.codes[kept]
    for a in range(q):
        np.minimum.at(lo[:, a], inverse, codes[:, a])
        np.maximum.at(hi[:, a], inverse, codes[:, a])
        lo[:, a], hi[:, a] = metrics.generalize_codes(a, lo[:, a], hi[:, a])
    sizes = np.bincount(inverse, minlength=len(ids)).astype(np.int64)
    return lo, hi, sizes, ids


def _published(
    metrics: Metrics, group: InstanceGroup, labels: IntArray
) -> tuple[IntArray, IntArray, FloatArray, IntArray]:
    """Per published record (label >= 0) its generalized values on the group's attributes:
    ``lo``, ``hi``, ``ne`` of shape ``(T, m)``, and each record's cluster position."""
    records = metrics.records
    lo_c, hi_c, _, ids = cluster_ranges(metrics, labels)
    keep = np.flatnonzero(labels >= 0)
    position = np.searchsorted(ids, labels[keep])
    m = len(group.attributes)
    lo = np.empty((len(keep), m), np.int64)
    hi = np.empty((len(keep), m), np.int64)
    ne = np.empty((len(keep), m), np.float64)
    for j, a in enumerate(group.attributes):
        if records.attributes[a].is_qi:
            lo[:, j] = lo_c[position, a]
            hi[:, j] = hi_c[position, a]
            ne[:, j] = metrics.ne(a, lo[:, j], hi[:, j])
        else:
            lo[:, j] = hi[:, j] = records.codes[keep, a]
            ne[:, j] = 0.0
    return lo, hi, ne, position


def instance_tuple_distances(
    group: InstanceGroup, lo: IntArray, hi: IntArray, ne: FloatArray
) -> FloatArray:
    """``d(p, t)`` (Eq. 4.3) of every instance of ``group`` to every generalized tuple given by
    ``(T, m)`` arrays ``lo``, ``hi``, ``ne``: a ``(|Γ_g|, T)`` array."""
    p = group.codes
    m = p.shape[1]
    total = np.zeros((p.shape[0], lo.shape[0]), np.float64)
    for j in range(m):
        total += instance_deltas(p[:, j][:, None], lo[None, :, j], hi[None, :, j], ne[None, :, j])
    mean: FloatArray = total / m
    return mean


def dependency_loss(
    records: EncodedRecords, labels: IntArray, *, exact: bool = False
) -> DependencyLoss:
    """Δ of the release that generalizes each cluster of ``labels`` (-1 = suppressed) to its
    lowest common ancestors; O(|Γ| x distinct published tuples), in blocks. ``exact`` selects
    the exact-match value distance (:class:`~anonsql.algorithms.dependency.distance.Metrics`)."""
    metrics = Metrics(records, exact=exact)
    labels = np.asarray(labels, np.int64)
    groups: list[GroupLoss] = []
    total = 0.0
    for group in records.groups:
        lo, hi, ne, _ = _published(metrics, group, labels)
        if len(lo):
            key = np.concatenate([lo, hi], axis=1)
            _, first = np.unique(key, axis=0, return_index=True)
            lo, hi, ne = lo[first], hi[first], ne[first]
        best = np.ones(group.size, np.float64)
        step = max(1, BLOCK_CELLS // max(1, group.size * len(group.attributes)))
        for start in range(0, len(lo), step):
            block = instance_tuple_distances(
                group, lo[start : start + step], hi[start : start + step], ne[start : start + step]
            )
            best = np.minimum(best, block.min(axis=1))
        loss = float(best.sum())
        total += loss
        groups.append(GroupLoss(tuple(str(records.fds[i]) for i in group.fds), group.size, loss))
    return DependencyLoss(total, records.instances, tuple(groups))


def utility(records: EncodedRecords, labels: IntArray, k: int, *, exact: bool = False) -> float:
    """Utility of a clustering (Def. 10), every label ``>= 0`` a cluster of any size (the
    unsealed clusters of a partial clustering included); O(|Γ| x N), for checks and tests."""
    metrics = Metrics(records, exact=exact)
    labels = np.asarray(labels, np.int64)
    if (labels < 0).any():
        raise ValueError("utility() needs every record in a cluster")
    total = 0.0
    for group in records.groups:
        lo, hi, ne, position = _published(metrics, group, labels)
        sizes = np.bincount(position).astype(np.float64)
        order = np.argsort(position, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(position[order]) != 0])
        d = instance_tuple_distances(group, lo[order], hi[order], ne[order])
        closest = np.minimum.reduceat(d, starts, axis=1)
        total += float(((1.0 - closest) * sizes[None, :] / k).max(axis=1).sum())
    return total


def ncp(records: EncodedRecords, labels: IntArray) -> float:
    """NCP in percent as anonsql's ``ncp`` metric computes it: per record and quasi-identifier,
    numeric ``(hi - lo) / (max - min)``, categorical ``leaves under the node / leaves`` (0 for a
    single leaf); a suppressed record costs 1 per quasi-identifier; averaged over both."""
    metrics = Metrics(records)
    labels = np.asarray(labels, np.int64)
    q = records.qi_count
    if q == 0 or records.size == 0:
        return 0.0
    lo, hi, _, ids = cluster_ranges(metrics, labels)
    keep = labels >= 0
    position = np.searchsorted(ids, labels[keep])
    penalty = float((~keep).sum()) * q
    for a, attribute in enumerate(records.qi):
        if attribute.values is not None:
            span = float(attribute.values[-1] - attribute.values[0])
            width = attribute.values[hi[:, a]] - attribute.values[lo[:, a]]
            per_cluster = width / span if span > 0 else np.zeros(len(ids))
        else:
            leaves = (hi[:, a] - lo[:, a] + 1).astype(np.float64)
            total_leaves = attribute.domain
            per_cluster = np.where(leaves <= 1, 0.0, leaves / total_leaves)
        penalty += float(per_cluster[position].sum())
    return 100.0 * penalty / (records.size * q)
