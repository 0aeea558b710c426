"""Which candidate split a Mondrian partition takes, and which suppressions pay.

Split rules (``MondrianOptions.split``):

* ``widest`` — LeFevre et al.'s rule: among allowed splits, the dimension with the largest
  normalized width (ties: column order, then the more balanced numeric variant).
* ``loss`` — the allowed split whose parts have the lowest total information loss (NCP times
  rows, summed over parts and quasi-identifiers), ties broken by the widest rule. Every part's
  range on *every* dimension is known before splitting from per-bin minima and maxima
  (``mondrian/bin_ranges``), so the loss is the exact NCP the parts would publish if they split
  no further.
* ``gain_ratio`` — the allowed split with the largest loss reduction per bit of the split: the
  partition's loss minus its parts' loss, divided by the entropy (base 2) of the parts' sizes.
  This is Quinlan's gain ratio (C4.5, 1993) with NCP in place of class entropy. The plain
  ``loss`` rule is greedy for the immediate reduction, so it favours many-way categorical splits
  that spend several halvings of the partition on one dimension at once; dividing by the bits
  the split spends compares a ten-way split with 3.3 median splits. Ties: ``loss``, then widest.
* ``auto`` (the default) — the run partitions with ``gain_ratio``, with ``widest`` and with
  ``loss`` and keeps the partitioning with the lowest NCP when its rounds run in memory from the
  start (the working rows, or their weighted distinct vectors, at most ``max_rows_in_memory``),
  so it is never worse than any of them there; otherwise ``gain_ratio``. The mondrian
  algorithm handles it; a :class:`SplitChooser` applies one rule.
* ``workload`` — the allowed split whose parts are imprecise for the fewest rows of the spec's
  workload queries (:mod:`.workload_split`, after LeFevre, DeWitt and Ramakrishnan,
  "Workload-aware anonymization", KDD 2006), ties broken by the loss rule. It reads the same
  part ranges as ``loss``.

Suppression that pays. A partition with no allowed split may still split if the parts that fail
the models are suppressed (a suppressed row costs 1 per quasi-identifier). Such a split is taken
only if it strictly lowers the partition's loss: kept parts' NCP plus suppressed rows must be
below the partition's NCP as it stands. Partitions with an allowed split take the same split as
without suppression and further splits never raise loss, so by induction over the partition tree
a run with a suppression limit never has a higher NCP than the same run without one. Within the
budget, the splits with the largest loss reduction per suppressed row go first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pyarrow as pa

from anonsql import arrow
from anonsql.algorithms.lca import HierarchyArrays
from anonsql.algorithms.mondrian import columnar as col
from anonsql.algorithms.mondrian.columnar import Rows
from anonsql.algorithms.mondrian.workload_split import WorkloadImprecision
from anonsql.algorithms.workspace import Dimension
from anonsql.arrays import FloatArray, IntArray

SplitRule = Literal["auto", "gain_ratio", "loss", "widest", "workload"]
#: The rules one :class:`SplitChooser` applies (``auto`` picks among runs of these).
ChooserRule = Literal["gain_ratio", "loss", "widest", "workload"]

#: losses are sums of floats; a suppression must beat the loss it replaces by more than this
_EPSILON = 1e-9


@dataclass(frozen=True)
class LossModel:
    """NCP (times rows) of sets of rows described by their count and per-dimension min/max."""

    dims: Sequence[Dimension]
    arrays: dict[int, HierarchyArrays]

    def loss(self, n: IntArray, lo: dict[int, FloatArray], hi: dict[int, FloatArray]) -> FloatArray:
        """Rows times the sum over dimensions of the NCP of the range ``lo..hi``."""
        total = np.zeros(n.shape[0], dtype=np.float64)
        for d in self.dims:
            if d.is_numeric:
                if d.span > 0:
                    total += (hi[d.index] - lo[d.index]) / d.span
            else:
                arrays = self.arrays[d.index]
                node = arrays.lca(lo[d.index].astype(np.int64), hi[d.index].astype(np.int64))
                total += arrays.ncp_of(node)
        return n.astype(np.float64) * total


def ranges_rows(table: pa.Table, dims: Sequence[Dimension]) -> Rows:
    """The ``mondrian/bin_ranges`` result keyed by (pid, dim, bin), floats for numeric bounds
    and int64 leaf ranks for categorical ones."""
    columns: dict[str, col.Column] = {
        "pid": arrow.to_numpy(table.column("pid")).astype(np.int64),
        "dim": arrow.to_numpy(table.column("dim")).astype(np.int64),
        "bin": arrow.to_numpy(table.column("bin")).astype(np.int64),
        "n": arrow.to_numpy(table.column("n")).astype(np.int64),
    }
    for d in dims:
        kind = np.float64 if d.is_numeric else np.int64
        for side in ("lo", "hi"):
            name = f"{side}{d.index}"
            columns[name] = arrow.to_float64(table.column(name)).astype(kind)
    return Rows(columns)


class SplitChooser:
    """Picks one split per partition from the evaluated candidates (see the module doc)."""

    def __init__(
        self, rule: ChooserRule, losses: LossModel, workload: WorkloadImprecision | None = None
    ) -> None:
        if rule == "workload" and workload is None:
            raise ValueError("the workload rule needs the workload's queries")
        self.rule = rule
        self.losses = losses
        self.workload = workload

    def needs_ranges(self, budget: int) -> bool:
        """Whether a round needs the per-bin ranges: for every rule but widest, or to price
        suppression."""
        return self.rule != "widest" or budget > 0

    def candidate_loss(self, table: Rows, assign: Rows, ranges: Rows) -> FloatArray:
        """Loss of each candidate split (aligned with ``table``; infinite where no bin of it has
        a range): kept parts' NCP times rows plus suppressed rows times the number of
        quasi-identifiers."""
        return self.candidate_scores(table, assign, ranges)[0]

    def candidate_scores(
        self, table: Rows, assign: Rows, ranges: Rows
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        """:meth:`candidate_loss`; under the workload rule, each candidate's workload
        imprecision (its parts' rows times the queries they are imprecise for; zeros
        otherwise); and the entropy (bits) of each candidate's parts' sizes, all aligned with
        ``table``."""
        owner = col.lookup((assign["cand"],), (table["cand"],))
        bound = col.lookup(
            (table["pid"][owner], table["dim"][owner], assign["bin"]),
            (ranges["pid"], ranges["dim"], ranges["bin"]),
        )
        keep = bound >= 0
        owner, bound = owner[keep], bound[keep]
        part_key = col.codes(owner, assign["part"][keep])
        # parts in the order they first appear, each candidate's parts summed in that order
        member, firsts = col.groups_in_order(part_key)
        parts = firsts.shape[0]
        n = np.bincount(member, weights=ranges["n"][bound], minlength=parts).astype(np.int64)
        suppressed = np.zeros(parts, bool)
        np.logical_or.at(suppressed, member, assign["suppressed"][keep].astype(bool))
        lo: dict[int, FloatArray] = {}
        hi: dict[int, FloatArray] = {}
        for d in self.losses.dims:
            low = ranges[f"lo{d.index}"][bound]
            high = ranges[f"hi{d.index}"][bound]
            # every part has a bin, so these starting values are always replaced
            lo[d.index] = np.full(parts, low.max(initial=0), low.dtype)
            hi[d.index] = np.full(parts, high.min(initial=0), high.dtype)
            np.minimum.at(lo[d.index], member, low)
            np.maximum.at(hi[d.index], member, high)
        kept = self.losses.loss(n, lo, hi)
        part_loss = np.where(suppressed, n * float(len(self.losses.dims)), kept)
        loss = np.full(len(table), np.inf)
        part_owner = owner[firsts]
        cands = np.unique(part_owner)
        slot = col.lookup((part_owner,), (cands,))
        loss[cands] = col.kahan_sums(part_loss, slot, cands.shape[0])
        imprecision = np.zeros(len(table))
        if self.workload is not None:
            # suppressed parts answer no query: they are imprecise for none
            part_imprecision = np.where(suppressed, 0.0, self.workload.of_parts(n, lo, hi))
            imprecision[cands] = np.bincount(slot, part_imprecision, cands.shape[0])
        # the split's own information (bits): the entropy of its parts' sizes, as C4.5's gain
        # ratio divides by it
        totals = np.bincount(slot, weights=n, minlength=cands.shape[0])
        share = n / totals[slot]
        bits = np.bincount(slot, weights=-share * np.log2(share), minlength=cands.shape[0])
        entropy = np.zeros(len(table))
        entropy[cands] = bits
        return loss, imprecision, entropy

    def pick(
        self,
        table: Rows,
        assign: Rows,
        ranges: Rows | None,
        parent_loss: FloatArray | None,
        budget: int,
    ) -> tuple[Rows, int]:
        """The picked candidates (rows of ``table``) and the rows they suppress.

        ``table`` has one row per candidate (cand, pid, dim, valid, cost, balance, width);
        ``parent_loss`` is each candidate's partition's current loss (needed when ``ranges`` is
        given).
        """
        if ranges is not None:
            loss, imprecision, entropy = self.candidate_scores(table, assign, ranges)
            table = table.with_columns(loss=loss, imprecision=imprecision, entropy=entropy)
        if parent_loss is not None:
            table = table.with_columns(parent_loss=parent_loss)
        valid = table.take(table["valid"].astype(bool))
        if self.rule == "workload":
            order = col.order_by(
                valid["pid"],
                valid["imprecision"],
                valid["loss"],
                -valid["width"],
                valid["dim"],
                -valid["balance"],
            )
        elif self.rule == "loss":
            order = col.order_by(
                valid["pid"], valid["loss"], -valid["width"], valid["dim"], -valid["balance"]
            )
        elif self.rule == "gain_ratio":
            gain = valid["parent_loss"] - valid["loss"]
            ratio = gain / np.maximum(valid["entropy"], _EPSILON)
            order = col.order_by(
                valid["pid"],
                -ratio,
                valid["loss"],
                -valid["width"],
                valid["dim"],
                -valid["balance"],
            )
        else:
            order = col.order_by(valid["pid"], -valid["width"], valid["dim"], -valid["balance"])
        valid = valid.take(order)
        picked = valid.take(col.starts(valid["pid"]))
        if budget <= 0 or ranges is None or parent_loss is None:
            return picked, 0
        fallback = table.take(
            ~table["valid"].astype(bool)
            & (table["cost"] > 0)
            & ~np.isin(table["pid"], picked["pid"])
        )
        gain = fallback["parent_loss"] - fallback["loss"]
        fallback = fallback.with_columns(gain=gain).take(gain > _EPSILON)
        fallback = fallback.with_columns(rate=fallback["gain"] / fallback["cost"])
        fallback = fallback.take(
            col.order_by(fallback["pid"], -fallback["rate"], fallback["cost"], fallback["dim"])
        )
        fallback = fallback.take(col.starts(fallback["pid"]))
        fallback = fallback.take(col.order_by(-fallback["rate"], fallback["pid"]))
        accepted = fallback.take(np.cumsum(fallback["cost"]) <= budget)
        if len(accepted) == 0:
            return picked, 0
        common = [name for name in picked.columns if name in accepted.columns]
        both = Rows.concat(
            [Rows({c: picked[c] for c in common}), Rows({c: accepted[c] for c in common})]
        )
        return both, int(accepted["cost"].sum())


def parts_loss(parts: pa.Table, losses: LossModel) -> float:
    """NCP times rows of finished partitions (``parts_table`` rows), suppressed rows counting
    one per quasi-identifier: the figure ``auto`` compares between runs."""
    n = arrow.to_numpy(parts.column("n")).astype(np.float64)
    total = np.zeros(parts.num_rows, dtype=np.float64)
    for d in losses.dims:
        if d.is_numeric:
            if d.span > 0:
                lo = arrow.to_float64(parts.column(f"lo{d.index}"))
                hi = arrow.to_float64(parts.column(f"hi{d.index}"))
                total += (hi - lo) / d.span
        else:
            node = arrow.to_numpy(parts.column(f"node{d.index}")).astype(np.int64)
            total += losses.arrays[d.index].ncp_of(node)
    suppressed = arrow.to_numpy(parts.column("suppressed")).astype(bool)
    total = np.where(suppressed, float(len(losses.dims)), total)
    return math.fsum((n * total).tolist())


__all__ = ["ChooserRule", "LossModel", "SplitChooser", "SplitRule", "parts_loss", "ranges_rows"]
