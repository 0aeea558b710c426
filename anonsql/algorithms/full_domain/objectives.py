"""Objectives of full-domain search: the information loss of a lattice node, as ARX measures it.

Every objective splits into a part fixed by the node's levels and the table's marginals (per
quasi-identifier a sum over its leaves, computed once per level from the leaf counts, no query)
and a part paid by the suppressed rows (from the node's suppression profile: per quasi-identifier,
the suppressed rows by generalized value). The fixed part is monotone in the lattice and a lower
bound of the whole, which lets the search skip nodes that cannot beat the best one found.

* ``loss`` — ARX's default "Loss" (``MetricMDNMLoss``, after Iyengar, "Transforming Data to
  Satisfy Privacy Constraints", KDD 2002): per quasi-identifier the rows' domain shares, a
  suppressed row costing 1, normalized to [0, 1]; the geometric mean over quasi-identifiers.
* ``ncp`` — NCP/GCP as this project reports it (Xu et al., KDD 2006): per row and
  quasi-identifier the generalized node's leaves / all leaves (0 for a leaf), 1 for a suppressed
  row; the mean over quasi-identifiers of each one's percentage.
* ``discernibility`` — Bayardo, Agrawal, "Data Privacy through Optimal k-Anonymization", ICDE
  2005: the sum of squared class sizes, a suppressed row costing the table's size
  (``monotonic: true`` gives ARX's DM*, squared sizes of all classes, suppression ignored).
* ``entropy`` — non-uniform entropy (Gionis, Tassa, "k-Anonymization with Minimal Loss of
  Information", IEEE TKDE 2009; ARX's ``MetricMDNUEntropy``): per quasi-identifier
  ``-sum_rows log2 P(value | generalized value)``, summed; ``monotonic: false`` adds ARX's
  penalty for suppressed rows. ARX's pinned optima on Adult use the monotonic one.

Values follow ARX's arithmetic (per-attribute terms floored to 1e-10, aggregated in attribute
order), so they can be compared with ARX's figures digit for digit.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from anonsql.algorithms.full_domain.frequency import NodeStats
from anonsql.algorithms.full_domain.lattice import LevelHierarchy
from anonsql.arrays import FloatArray, IntArray
from anonsql.errors import SpecError
from anonsql.registry import Registry

LevelMatrix = npt.NDArray[Any]

#: ARX floors per-attribute losses to 10 decimal places before comparing them.
_ROUND = 1e10


def arx_round(values: FloatArray) -> FloatArray:
    """ARX's rounding of per-attribute information loss (floor to 1e-10)."""
    rounded: FloatArray = np.floor(values * _ROUND) / _ROUND
    return rounded


@dataclass(frozen=True, eq=False)
class Marginals:
    """What the level-fixed parts need: per quasi-identifier its levels and rows per leaf."""

    qids: tuple[LevelHierarchy, ...]
    leaf_counts: tuple[IntArray, ...]
    rows: int


@dataclass(frozen=True)
class ObjectiveValue:
    """An objective's value at a node: the total and each quasi-identifier's term (empty for
    discernibility, which has none)."""

    total: float
    per_qid: tuple[float, ...] = ()


class Objective(ABC):
    """An information-loss measure of lattice nodes; lower is better.

    Call :meth:`prepare` with the table's marginals before anything else.
    """

    name: ClassVar[str]
    reference: ClassVar[str]
    #: The keyword parameters its constructor takes (the spec's options of the objective).
    parameter_names: ClassVar[tuple[str, ...]] = ()

    def prepare(self, marginals: Marginals) -> None:
        self.marginals = marginals

    def needs_profile(self) -> bool:
        """Whether the value reads the suppressed rows by generalized value."""
        return True

    def needs_class_sizes(self) -> bool:
        """Whether the value reads sums over the class sizes (complete node statistics)."""
        return False

    def monotone(self, budget: int) -> bool:
        """Whether the value never decreases from an anonymous node to its generalizations.
        With no suppression budget every objective here is; with one, only those that ignore
        suppression."""
        return budget == 0

    @abstractmethod
    def lower_bounds(self, levels: LevelMatrix) -> FloatArray:
        """For every node (row of ``levels``), a lower bound of its value and of its
        generalizations' values, known without a query."""

    def lower_bound(self, levels: Sequence[int]) -> float:
        return float(self.lower_bounds(np.asarray([levels], dtype=np.int64))[0])

    def stats_bound(self, stats: NodeStats) -> float | None:
        """A lower bound of the value at this node's generalizations, from its statistics."""
        return None

    @abstractmethod
    def value(self, stats: NodeStats) -> ObjectiveValue:
        """The value at an evaluated node (with its profile when :meth:`needs_profile`)."""

    def parameters(self) -> dict[str, Any]:
        return {}


class _PerAttribute(Objective):
    """A term per quasi-identifier: a per-row term summed over the published rows, plus what
    the suppressed rows cost; then an aggregate over quasi-identifiers."""

    def prepare(self, marginals: Marginals) -> None:
        super().prepare(marginals)
        #: per quasi-identifier and level, the per-row term summed over all rows
        self.fixed: list[FloatArray] = [
            np.array(
                [float(np.dot(counts, self.row_terms(qid, lv))) for lv in range(qid.height + 1)]
            )
            for qid, counts in zip(marginals.qids, marginals.leaf_counts, strict=True)
        ]

    @abstractmethod
    def row_terms(self, qid: LevelHierarchy, level: int) -> FloatArray:
        """Per leaf, the term one row pays when its value is published at ``level``."""

    @abstractmethod
    def finish(self, raw: FloatArray, suppressed: FloatArray) -> tuple[FloatArray, FloatArray]:
        """(totals, per-attribute values) from per-node, per-attribute raw sums; ``suppressed``
        gives per node and attribute the rows suppressed."""

    def fixed_matrix(self, levels: LevelMatrix) -> FloatArray:
        raw: FloatArray = np.column_stack(
            [self.fixed[i][levels[:, i]] for i in range(len(self.fixed))]
        )
        return raw

    def lower_bounds(self, levels: LevelMatrix) -> FloatArray:
        raw = self.fixed_matrix(levels)
        return self.finish(raw, np.zeros_like(raw))[0]

    def value(self, stats: NodeStats) -> ObjectiveValue:
        levels = np.asarray([stats.levels], dtype=np.int64)
        raw = self.fixed_matrix(levels)
        suppressed = np.zeros_like(raw)
        if stats.suppressed_rows > 0:
            assert stats.profile is not None, "the objective needs the node's suppression profile"
            for i, (qid, level, (ids, rows)) in enumerate(
                zip(self.marginals.qids, stats.levels, stats.profile, strict=True)
            ):
                terms = np.zeros(len(qid.hierarchy.nodes), dtype=np.float64)
                terms[qid.level_nodes[:, level]] = self.row_terms(qid, level)
                count = float(rows.sum())
                raw[0, i] = self.with_suppression(raw[0, i], count, float(np.dot(rows, terms[ids])))
                suppressed[0, i] = count
        totals, per = self.finish(raw, suppressed)
        return ObjectiveValue(float(totals[0]), tuple(float(v) for v in per[0]))

    def with_suppression(self, raw: float, count: float, terms: float) -> float:
        """The raw sum once ``count`` rows (paying ``terms`` in all) are suppressed."""
        return raw - terms + count


class Loss(_PerAttribute):
    """ARX's "Loss" (its default quality model): per quasi-identifier, published rows cost
    ``gFactor`` times the domain share of their value and suppressed rows ``share + sFactor *
    (1 - share)``, normalized as ``(x - gFactor * rows / leaves) / (rows - gFactor * rows /
    leaves)``; aggregated by the geometric mean ``prod (1 + v_i)^(1/d) - 1`` (or the
    arithmetic mean, the sum or the maximum)."""

    name = "loss"
    reference = (
        "V. S. Iyengar, Transforming Data to Satisfy Privacy Constraints, KDD 2002, as ARX "
        "implements it (MetricMDNMLoss; F. Prasser, F. Kohlmayer, 2015)"
    )
    AGGREGATES = ("geometric_mean", "arithmetic_mean", "sum", "maximum")
    parameter_names = ("gs_factor", "aggregate")

    def __init__(self, *, gs_factor: float = 0.5, aggregate: str = "geometric_mean") -> None:
        if not 0.0 <= gs_factor <= 1.0:
            raise SpecError(
                "objective.gs_factor",
                f"gs_factor = {gs_factor} is outside [0, 1]",
                "use a factor from 0 (favour suppression) to 1 (favour generalization)",
            )
        if aggregate not in self.AGGREGATES:
            raise SpecError(
                "objective.aggregate",
                f"unknown aggregate {aggregate!r}",
                f"use one of {', '.join(self.AGGREGATES)}",
            )
        self.gs_factor = gs_factor
        self.aggregate = aggregate
        self.s_factor = 2.0 * gs_factor if gs_factor < 0.5 else 1.0
        self.g_factor = 1.0 if gs_factor <= 0.5 else 1.0 - 2.0 * (gs_factor - 0.5)

    def parameters(self) -> dict[str, Any]:
        return {"gs_factor": self.gs_factor, "aggregate": self.aggregate}

    def row_terms(self, qid: LevelHierarchy, level: int) -> FloatArray:
        return qid.level_shares(level)

    def fixed_matrix(self, levels: LevelMatrix) -> FloatArray:
        scaled: FloatArray = self.g_factor * super().fixed_matrix(levels)
        return scaled

    def with_suppression(self, raw: float, count: float, terms: float) -> float:
        kept = raw - self.g_factor * terms
        if self.s_factor == 1.0:
            return kept + count
        return kept + terms + self.s_factor * (count - terms)

    def finish(self, raw: FloatArray, suppressed: FloatArray) -> tuple[FloatArray, FloatArray]:
        rows = float(self.marginals.rows)
        per = np.zeros_like(raw)
        for i, qid in enumerate(self.marginals.qids):
            low = self.g_factor * rows / qid.leaf_count
            if rows - low > 0:
                per[:, i] = arx_round(np.maximum(0.0, (raw[:, i] - low) / (rows - low)))
        dims = per.shape[1]
        if self.aggregate == "geometric_mean":
            total = np.ones(per.shape[0])
            for i in range(dims):
                total = total * np.power(per[:, i] + 1.0, 1.0 / dims)
            return total - 1.0, per
        if self.aggregate == "arithmetic_mean":
            return _ordered_sum(per) / dims, per
        if self.aggregate == "sum":
            return _ordered_sum(per), per
        return per.max(axis=1), per


class NCP(_PerAttribute):
    """NCP (GCP) in percent as anonsql reports it: per quasi-identifier ``100 * (sum over
    published rows of NCP(node) + suppressed rows) / rows``, averaged over quasi-identifiers."""

    name = "ncp"
    reference = "J. Xu et al., Utility-Based Anonymization Using Local Recoding, KDD 2006"

    def row_terms(self, qid: LevelHierarchy, level: int) -> FloatArray:
        return qid.level_ncp(level)

    def finish(self, raw: FloatArray, suppressed: FloatArray) -> tuple[FloatArray, FloatArray]:
        per: FloatArray = 100.0 * raw / float(self.marginals.rows)
        return _ordered_sum(per) / per.shape[1], per


class NonUniformEntropy(_PerAttribute):
    """Non-uniform entropy (ARX's ``MetricMDNUEntropy``): per quasi-identifier
    ``sum_v a_v log2(b / a_v)`` over its values ``v`` with ``a_v`` rows whose generalized value
    has ``b`` rows, floored to 1e-10, summed over quasi-identifiers. ``monotonic=False`` (ARX's
    ``MetricMDNUNMEntropy``) adds per quasi-identifier ``sum_g c_g log2(S / c_g)`` over the
    ``S`` suppressed rows, ``c_g`` of them with generalized value ``g``."""

    name = "entropy"
    reference = (
        "A. Gionis, T. Tassa, k-Anonymization with Minimal Loss of Information, IEEE TKDE 21(2), "
        "2009, as ARX implements it (MetricMDNUEntropy)"
    )
    parameter_names = ("monotonic",)

    def __init__(self, *, monotonic: bool = True) -> None:
        self.monotonic = monotonic

    def parameters(self) -> dict[str, Any]:
        return {"monotonic": self.monotonic}

    def needs_profile(self) -> bool:
        return not self.monotonic

    def monotone(self, budget: int) -> bool:
        return self.monotonic or budget == 0

    def prepare(self, marginals: Marginals) -> None:
        Objective.prepare(self, marginals)
        self.fixed = []
        for qid, counts in zip(marginals.qids, marginals.leaf_counts, strict=True):
            per_level = []
            for level in range(qid.height + 1):
                nodes = qid.level_nodes[:, level]
                totals = np.bincount(nodes, weights=counts, minlength=len(qid.hierarchy.nodes))
                present = counts > 0
                a = counts[present].astype(np.float64)
                b = totals[nodes[present]]
                # ARX sums a * log2(a / b) (<= 0) and switches the sign at the end
                per_level.append(float(np.sum(a * (np.log(a / b) / math.log(2)))))
            self.fixed.append(np.array(per_level))

    def row_terms(self, qid: LevelHierarchy, level: int) -> FloatArray:
        raise NotImplementedError("entropy has no per-row term")  # pragma: no cover

    def value(self, stats: NodeStats) -> ObjectiveValue:
        raw = self.fixed_matrix(np.asarray([stats.levels], dtype=np.int64))
        if not self.monotonic and stats.suppressed_rows > 0:
            assert stats.profile is not None, "the objective needs the node's suppression profile"
            total = float(stats.suppressed_rows)
            for i, (_, rows) in enumerate(stats.profile):
                c = rows[rows > 0].astype(np.float64)
                raw[0, i] += float(np.sum(c * (np.log(c / total) / math.log(2))))
        totals, per = self.finish(raw, np.zeros_like(raw))
        return ObjectiveValue(float(totals[0]), tuple(float(v) for v in per[0]))

    def finish(self, raw: FloatArray, suppressed: FloatArray) -> tuple[FloatArray, FloatArray]:
        per = arx_round(np.where(raw == 0.0, raw, -raw))
        return _ordered_sum(per), per


class Discernibility(Objective):
    """Discernibility (Bayardo, Agrawal, ICDE 2005), ARX's ``MetricSDNMDiscernability``: the sum
    of squared sizes of the kept classes plus ``rows`` for every suppressed row.
    ``monotonic=True`` is ARX's DM* (``MetricSDDiscernability``): squared sizes of all classes."""

    name = "discernibility"
    reference = "R. J. Bayardo, R. Agrawal, Data Privacy through Optimal k-Anonymization, ICDE 2005"
    parameter_names = ("monotonic",)

    def __init__(self, *, monotonic: bool = False) -> None:
        self.monotonic = monotonic

    def parameters(self) -> dict[str, Any]:
        return {"monotonic": self.monotonic}

    def needs_profile(self) -> bool:
        return False

    def needs_class_sizes(self) -> bool:
        return True

    def monotone(self, budget: int) -> bool:
        return self.monotonic or budget == 0

    def lower_bounds(self, levels: LevelMatrix) -> FloatArray:
        # every row is in some class: at least one per row, whatever the node
        return np.full(levels.shape[0], float(self.marginals.rows))

    def stats_bound(self, stats: NodeStats) -> float:
        return float(stats.squares)

    def value(self, stats: NodeStats) -> ObjectiveValue:
        if self.monotonic:
            return ObjectiveValue(float(stats.squares))
        return ObjectiveValue(
            float(stats.squares_kept) + float(self.marginals.rows) * stats.suppressed_rows
        )


def _ordered_sum(per: FloatArray) -> FloatArray:
    """Row sums taken attribute by attribute, in order (as ARX adds them)."""
    total = np.zeros(per.shape[0])
    for i in range(per.shape[1]):
        total = total + per[:, i]
    return total


#: Objectives by the name the spec gives (``objective:`` of ``algorithm: full_domain``).
OBJECTIVES: Registry[type[Objective]] = Registry("objective")
for _objective in (Loss, NCP, Discernibility, NonUniformEntropy):
    OBJECTIVES.register(_objective.name, _objective)


def make_objective(name: str, **params: Any) -> Objective:
    """The objective ``name`` with its parameters (``loss``: ``gs_factor``, ``aggregate``;
    ``discernibility`` and ``entropy``: ``monotonic``)."""
    if name not in OBJECTIVES:
        raise SpecError("objective", OBJECTIVES.unknown_message(name), "use a known objective")
    cls = OBJECTIVES.get(name)
    try:
        return cls(**params)
    except TypeError:
        raise SpecError(
            "objective",
            f"{name} does not take the parameters {sorted(params)}",
            "give only the parameters the objective documents",
        ) from None
