"""Shared pieces of the utility-guided algorithms (PAIR-ENUM, k-ASSEMBLE): the dependency
instances laid out per attribute group, and ``preserve`` of candidate clusters, vectorized over
candidates and instances.

Gorla (MSc thesis, McMaster, 2019), Def. 10: ``preserve(c, p) = (1 - min_{t ∈ G(c)} d(p, t)) ·
|c| / k``. For a cluster, the quasi-identifier part of ``d`` is the same for all its tuples
(they share ``G(c)``); only the kept (ungeneralized) attributes differ per tuple, so
``min_t d(p, t) = (Σ_{A ∈ QI} δ(p[A], G(c)[A]) + min_{t ∈ c} #kept mismatches) / |X ∪ Y|``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from anonsql.algorithms.dependency.distance import Metrics, instance_deltas
from anonsql.algorithms.dependency.encoding import EncodedRecords
from anonsql.arrays import FloatArray, IntArray

#: Cells of one (candidates x instances x ...) block evaluated at a time.
BLOCK_CELLS = 2_000_000


@dataclass(frozen=True, eq=False)
class Group:
    """One attribute group's instances: ``codes`` (Γ_g x m); ``qi`` pairs (column j, QI a);
    ``kept`` pairs (column j, attribute a); ``offset`` into the global instance numbering."""

    codes: IntArray
    qi: tuple[tuple[int, int], ...]
    kept: tuple[tuple[int, int], ...]
    attributes: tuple[int, ...]
    offset: int

    @property
    def size(self) -> int:
        return int(self.codes.shape[0])

    @property
    def width(self) -> int:
        return int(self.codes.shape[1])


def groups_of(records: EncodedRecords) -> list[Group]:
    out: list[Group] = []
    offset = 0
    for g in records.groups:
        qi = tuple((j, a) for j, a in enumerate(g.attributes) if records.attributes[a].is_qi)
        kept = tuple((j, a) for j, a in enumerate(g.attributes) if not records.attributes[a].is_qi)
        out.append(Group(g.codes, qi, kept, g.attributes, offset))
        offset += g.size
    return out


def mismatches(group: Group, rows: IntArray, record_codes: IntArray, kept_only: bool) -> IntArray:
    """Mismatch counts of instances ``rows`` against ground records (``(R, |attributes|)``
    codes): a ``(len(rows), R)`` int array, over the group's kept attributes or all of them."""
    pairs = group.kept if kept_only else tuple(enumerate(group.attributes))
    out = np.zeros((len(rows), record_codes.shape[0]), np.int64)
    for j, a in pairs:
        out += group.codes[rows, j][:, None] != record_codes[None, :, a]
    return out


def qi_deltas(
    metrics: Metrics,
    group: Group,
    rows: IntArray,
    lo: IntArray,
    hi: IntArray,
    ne: FloatArray | None = None,
) -> FloatArray:
    """Σ over the group's quasi-identifiers of δ(p, G) for instances ``rows`` and generalized
    QI tuples ``lo``/``hi`` (``(B, |QI|)`` code ranges; ``ne`` their penalties if known): a
    ``(B, len(rows))`` array."""
    out = np.zeros((lo.shape[0], len(rows)), np.float64)
    for j, a in group.qi:
        penalty = metrics.ne(a, lo[:, a], hi[:, a]) if ne is None else ne[:, a]
        out += instance_deltas(
            group.codes[rows, j][None, :], lo[:, a][:, None], hi[:, a][:, None], penalty[:, None]
        )
    return out


def qi_penalties(metrics: Metrics, lo: IntArray, hi: IntArray) -> FloatArray:
    """Penalties (``NE``, or exact-match 0/1) of generalized QI tuples ``(B, |QI|)``."""
    out = np.zeros(lo.shape, np.float64)
    for a in range(lo.shape[1]):
        out[:, a] = metrics.ne(a, lo[:, a], hi[:, a])
    return out


def cluster_ranges(metrics: Metrics, member_codes: IntArray) -> tuple[IntArray, IntArray]:
    """Generalized QI ranges of clusters given their members' codes ``(B, s, attributes)``
    (all ``s`` members real): ``(B, |QI|)`` lo and hi."""
    q = metrics.records.qi_count
    lo = member_codes[:, :, :q].min(axis=1)
    hi = member_codes[:, :, :q].max(axis=1)
    for a in range(q):
        lo[:, a], hi[:, a] = metrics.generalize_codes(a, lo[:, a], hi[:, a])
    return lo, hi
