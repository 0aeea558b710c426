"""Set generalization and the clustering distances of DAnonyIR (Wang et al., KAIS 2019, §2.2
and §4.1-4.2), vectorized.

A class's identity element generalizes each numeric quasi-identifier to ``[min, max]`` of its
members and each categorical one to the union of their values. A record's loss is (Eqs. 11-13)

    Σ_numeric (b* - a*) / (U - L)  +  Σ_categorical (|V*| - 1) / (|X| - 1)

(0 for a constant attribute, where ``U = L`` or ``|X| = 1``). Both terms are linear in width
and cardinality, so the loss of turning identity element ``x`` into ``y`` is
``loss(y) - loss(x)`` and the distances (Eqs. 16-18) are

    Dist(A, B) = |A| · (loss(δ(A, B)) - loss(A)) + |B| · (loss(δ(A, B)) - loss(B))

with ``|A|`` counting records. Numeric values are kept in domain units (``(v - L) / (U - L)``)
so a width is directly its loss.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from anonsql.algorithms.identity_reserved.encoding import Individuals
from anonsql.arrays import FloatArray, IntArray


def _inverse(values: FloatArray) -> FloatArray:
    out = np.zeros_like(values, dtype=np.float64)
    positive = values > 0
    out[positive] = 1.0 / values[positive]
    return out


@dataclass(frozen=True)
class Geometry:
    """Individuals' identity elements in loss units.

    ``low``/``high`` (n x numeric) are ``(v - L) / (U - L)``; ``codes`` (n x categorical) the
    values' codes; ``weights`` ``1 / (|X| - 1)`` per categorical attribute; ``records`` ``|R(p)|``;
    ``own_loss`` the per-record loss of ``r̄_p`` itself (a numeric range within an individual).
    """

    low: FloatArray
    high: FloatArray
    codes: IntArray
    weights: FloatArray
    sizes: tuple[int, ...]
    records: FloatArray
    own_loss: FloatArray
    qids: int

    @classmethod
    def of(cls, individuals: Individuals) -> Geometry:
        origin = np.array([d.low for d in individuals.numeric], dtype=np.float64)
        scale = _inverse(np.array([d.span for d in individuals.numeric], dtype=np.float64))
        low = (individuals.low - origin) * scale
        high = (individuals.high - origin) * scale
        sizes = tuple(d.size for d in individuals.categorical)
        weights = _inverse(np.array(sizes, dtype=np.float64) - 1.0)
        return cls(
            low=low,
            high=high,
            codes=individuals.codes,
            weights=weights,
            sizes=sizes,
            records=individuals.records.astype(np.float64),
            own_loss=(high - low).sum(axis=1),
            qids=individuals.qid_count,
        )


class Box:
    """The identity element of a class being built: numeric range, categorical value sets
    (one boolean membership vector per attribute), records. Mutable working state."""

    def __init__(self, geometry: Geometry, individual: int) -> None:
        self.geometry = geometry
        self.low = geometry.low[individual].copy()
        self.high = geometry.high[individual].copy()
        self.member = [np.zeros(size, dtype=bool) for size in geometry.sizes]
        for c, member in enumerate(self.member):
            member[geometry.codes[individual, c]] = True
        self.card = np.ones(len(geometry.sizes), dtype=np.int64)
        self.records = float(geometry.records[individual])

    def loss(self) -> float:
        """Per-record loss of the identity element (Eq. 13)."""
        return float((self.high - self.low).sum() + ((self.card - 1) * self.geometry.weights).sum())

    def add_individual(self, individual: int) -> None:
        g = self.geometry
        np.minimum(self.low, g.low[individual], out=self.low)
        np.maximum(self.high, g.high[individual], out=self.high)
        for c, member in enumerate(self.member):
            member[g.codes[individual, c]] = True
        self.card = np.array([m.sum() for m in self.member], dtype=np.int64)
        self.records += float(g.records[individual])


@dataclass(frozen=True)
class Candidates:
    """A compact copy of some individuals' geometry (the remaining individuals of DAnonyIR),
    so each scan reads contiguous arrays instead of gathering them."""

    ids: IntArray
    low: FloatArray
    high: FloatArray
    codes: IntArray
    records: FloatArray
    own_loss: FloatArray

    @classmethod
    def of(cls, geometry: Geometry, ids: IntArray) -> Candidates:
        return cls(
            ids=ids,
            low=geometry.low[ids],
            high=geometry.high[ids],
            codes=geometry.codes[ids],
            records=geometry.records[ids],
            own_loss=geometry.own_loss[ids],
        )


def candidate_distances(candidates: Candidates, box: Box) -> FloatArray:
    """``Dist(p, Q)`` (Eq. 17) from each candidate individual to the class ``box``."""
    weights = box.geometry.weights
    widths = np.maximum(candidates.high, box.high)
    widths -= np.minimum(candidates.low, box.low)
    merged = widths.sum(axis=1)
    box_loss = box.loss()
    grow_cat = np.zeros(candidates.ids.shape[0])
    for c, member in enumerate(box.member):
        weight = float(weights[c])
        if weight == 0.0:
            continue
        absent = ~member[candidates.codes[:, c]]
        grow_cat += absent * weight
    merged_cat = grow_cat + float(((box.card - 1) * weights).sum())
    # loss(δ(p, Q)) per record, minus p's own and Q's own
    total = merged + merged_cat
    out: FloatArray = candidates.records * (total - candidates.own_loss) + box.records * (
        total - box_loss
    )
    return out


def individual_distances(geometry: Geometry, individuals: IntArray, box: Box) -> FloatArray:
    """``Dist(p, Q)`` (Eq. 17) for each of ``individuals`` to the class ``box``."""
    return candidate_distances(Candidates.of(geometry, individuals), box)


class ClassStore:
    """The finished classes ``D*`` of DAnonyIR: identity elements (numeric ranges, categorical
    membership matrices of ``capacity x |X|`` booleans), records and members. Merged classes are
    marked inactive. Memory: ``classes x (2·numeric·8 + Σ|X|)`` bytes."""

    def __init__(self, geometry: Geometry, capacity: int = 64) -> None:
        self.geometry = geometry
        n_num = geometry.low.shape[1]
        self.count = 0
        self.low = np.zeros((capacity, n_num))
        self.high = np.zeros((capacity, n_num))
        self.member = [np.zeros((capacity, size), dtype=bool) for size in geometry.sizes]
        self.card = np.zeros((capacity, len(geometry.sizes)), dtype=np.int64)
        self.records = np.zeros(capacity)
        self.loss = np.zeros(capacity)
        self.active = np.zeros(capacity, dtype=bool)
        self.members: list[IntArray] = []

    def _grow(self) -> None:
        extra = self.low.shape[0]
        self.low = np.vstack([self.low, np.zeros_like(self.low)])
        self.high = np.vstack([self.high, np.zeros_like(self.high)])
        self.member = [np.vstack([m, np.zeros_like(m)]) for m in self.member]
        self.card = np.vstack([self.card, np.zeros_like(self.card)])
        self.records = np.concatenate([self.records, np.zeros(extra)])
        self.loss = np.concatenate([self.loss, np.zeros(extra)])
        self.active = np.concatenate([self.active, np.zeros(extra, dtype=bool)])

    def add(self, box: Box, members: IntArray) -> int:
        if self.count == self.low.shape[0]:
            self._grow()
        j = self.count
        self.low[j] = box.low
        self.high[j] = box.high
        for c, member in enumerate(box.member):
            self.member[c][j] = member
        self.card[j] = box.card
        self.records[j] = box.records
        self.loss[j] = box.loss()
        self.active[j] = True
        self.members.append(members)
        self.count += 1
        return j

    def merge_into(self, box: Box, j: int) -> IntArray:
        """Merge class ``j`` into ``box`` (line 12 of Algorithm 1); return its members."""
        np.minimum(box.low, self.low[j], out=box.low)
        np.maximum(box.high, self.high[j], out=box.high)
        for c, member in enumerate(box.member):
            member |= self.member[c][j]
        box.card = np.array([m.sum() for m in box.member], dtype=np.int64)
        box.records += float(self.records[j])
        self.active[j] = False
        return self.members[j]

    def absorb_individual(self, j: int, individual: int) -> None:
        """Add an individual to class ``j`` (Handle's merge)."""
        g = self.geometry
        np.minimum(self.low[j], g.low[individual], out=self.low[j])
        np.maximum(self.high[j], g.high[individual], out=self.high[j])
        for c, member in enumerate(self.member):
            member[j, g.codes[individual, c]] = True
            self.card[j, c] = int(member[j].sum())
        self.records[j] += float(g.records[individual])
        self.loss[j] = float(
            (self.high[j] - self.low[j]).sum() + ((self.card[j] - 1) * g.weights).sum()
        )
        self.members[j] = np.append(self.members[j], individual)

    def distances_to_box(self, box: Box) -> FloatArray:
        """``Dist(Q', Q)`` (Eq. 18) from every class to ``box`` (inf for inactive classes)."""
        n = self.count
        g = self.geometry
        merged = (np.maximum(self.high[:n], box.high) - np.minimum(self.low[:n], box.low)).sum(
            axis=1
        )
        for c, member in enumerate(box.member):
            weight = float(g.weights[c])
            if weight == 0.0:
                continue
            inside = self.member[c][:n][:, np.flatnonzero(member)].sum(axis=1)
            union = self.card[:n, c] + box.card[c] - inside
            merged = merged + (union - 1) * weight
        out = self.records[:n] * (merged - self.loss[:n]) + box.records * (merged - box.loss())
        return np.where(self.active[:n], out, np.inf)

    def distances_from_individual(self, individual: int) -> FloatArray:
        """``Dist(p, Q_i)`` (Eq. 17) from one individual to every class (inf if inactive)."""
        n = self.count
        g = self.geometry
        merged = (
            np.maximum(self.high[:n], g.high[individual])
            - np.minimum(self.low[:n], g.low[individual])
        ).sum(axis=1)
        for c in range(len(g.sizes)):
            weight = float(g.weights[c])
            if weight == 0.0:
                continue
            absent = ~self.member[c][:n, g.codes[individual, c]]
            merged = merged + (self.card[:n, c] - 1 + absent) * weight
        own = float(g.records[individual]) * (merged - float(g.own_loss[individual]))
        out = own + self.records[:n] * (merged - self.loss[:n])
        return np.where(self.active[:n], out, np.inf)
