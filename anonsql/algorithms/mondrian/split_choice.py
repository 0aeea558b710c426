"""Which candidate split a Mondrian partition takes, and which suppressions pay.

Split rules (``MondrianOptions.split``):

* ``widest`` — LeFevre et al.'s rule: among allowed splits, the dimension with the largest
  normalized width (ties: column order, then the more balanced numeric variant).
* ``loss`` — the allowed split whose parts have the lowest total information loss (NCP times
  rows, summed over parts and quasi-identifiers), ties broken by the widest rule. Every part's
  range on *every* dimension is known before splitting from per-bin minima and maxima
  (``mondrian/bin_ranges``), so the loss is the exact NCP the parts would publish if they split
  no further.

Suppression that pays. A partition with no allowed split may still split if the parts that fail
the models are suppressed (a suppressed row costs 1 per quasi-identifier). Such a split is taken
only if it strictly lowers the partition's loss: kept parts' NCP plus suppressed rows must be
below the partition's NCP as it stands. Partitions with an allowed split take the same split as
without suppression and further splits never raise loss, so by induction over the partition tree
a run with a suppression limit never has a higher NCP than the same run without one. Within the
budget, the splits with the largest loss reduction per suppressed row go first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
import pyarrow as pa

from anonsql.algorithms.lca import HierarchyArrays
from anonsql.privacy.base import FloatArray, IntArray
from anonsql.workspace import Dimension

SplitRule = Literal["widest", "loss"]

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


def ranges_frame(table: pa.Table, dims: Sequence[Dimension]) -> pd.DataFrame:
    """The ``mondrian/bin_ranges`` result as a frame keyed by (pid, dim, bin), floats for
    numeric bounds and int64 leaf ranks for categorical ones."""
    columns: dict[str, object] = {
        "pid": table.column("pid").to_numpy().astype(np.int64),
        "dim": table.column("dim").to_numpy().astype(np.int64),
        "bin": table.column("bin").to_numpy().astype(np.int64),
        "n": table.column("n").to_numpy().astype(np.int64),
    }
    for d in dims:
        kind = np.float64 if d.is_numeric else np.int64
        for side in ("lo", "hi"):
            name = f"{side}{d.index}"
            columns[name] = (
                table.column(name).cast(pa.float64()).to_numpy(zero_copy_only=False).astype(kind)
            )
    return pd.DataFrame(columns)


class SplitChooser:
    """Picks one split per partition from the evaluated candidates (see the module doc)."""

    def __init__(self, rule: SplitRule, losses: LossModel) -> None:
        self.rule = rule
        self.losses = losses

    def needs_ranges(self, budget: int) -> bool:
        """Whether a round needs the per-bin ranges: for the loss rule, or to price suppression."""
        return self.rule == "loss" or budget > 0

    def candidate_loss(
        self, table: pd.DataFrame, assign: pd.DataFrame, ranges: pd.DataFrame
    ) -> pd.Series:
        """Loss of each candidate split (indexed by ``cand``): kept parts' NCP times rows plus
        suppressed rows times the number of quasi-identifiers."""
        rows = assign.merge(table[["cand", "pid", "dim"]], on="cand").merge(
            ranges, on=["pid", "dim", "bin"], how="inner"
        )
        spec: dict[str, tuple[str, str]] = {"n": ("n", "sum"), "suppressed": ("suppressed", "max")}
        for d in self.losses.dims:
            spec[f"lo{d.index}"] = (f"lo{d.index}", "min")
            spec[f"hi{d.index}"] = (f"hi{d.index}", "max")
        parts = rows.groupby(["cand", "part"], sort=False).agg(**spec).reset_index()
        n = parts["n"].to_numpy(np.int64)
        kept = self.losses.loss(
            n,
            {d.index: parts[f"lo{d.index}"].to_numpy() for d in self.losses.dims},
            {d.index: parts[f"hi{d.index}"].to_numpy() for d in self.losses.dims},
        )
        suppressed = parts["suppressed"].to_numpy(bool)
        part_loss = np.where(suppressed, n * float(len(self.losses.dims)), kept)
        return pd.Series(part_loss, index=parts["cand"].to_numpy()).groupby(level=0).sum()

    def pick(
        self,
        table: pd.DataFrame,
        assign: pd.DataFrame,
        ranges: pd.DataFrame | None,
        parent_loss: pd.Series | None,
        budget: int,
    ) -> tuple[pd.DataFrame, int]:
        """The picked candidates (rows of ``table``) and the rows they suppress.

        ``table`` has one row per candidate (cand, pid, dim, valid, cost, balance, width);
        ``parent_loss`` maps a pid to its current loss (needed when ``ranges`` is given).
        """
        if ranges is not None:
            loss = self.candidate_loss(table, assign, ranges)
            table = table.assign(loss=table["cand"].map(loss).fillna(np.inf).to_numpy())
        valid = table[table["valid"]]
        if self.rule == "loss":
            valid = valid.sort_values(
                ["pid", "loss", "width", "dim", "balance"],
                ascending=[True, True, False, True, False],
                kind="stable",
            )
        else:
            valid = valid.sort_values(
                ["pid", "width", "dim", "balance"],
                ascending=[True, False, True, False],
                kind="stable",
            )
        picked = valid.drop_duplicates("pid")
        if budget <= 0 or ranges is None or parent_loss is None:
            return picked, 0
        fallback = table[~table["valid"] & (table["cost"] > 0) & ~table["pid"].isin(picked["pid"])]
        gain = fallback["pid"].map(parent_loss).to_numpy() - fallback["loss"].to_numpy()
        fallback = fallback.assign(gain=gain)
        fallback = fallback[fallback["gain"] > _EPSILON]
        fallback = fallback.assign(rate=fallback["gain"] / fallback["cost"])
        fallback = fallback.sort_values(
            ["pid", "rate", "cost", "dim"], ascending=[True, False, True, True], kind="stable"
        ).drop_duplicates("pid")
        fallback = fallback.sort_values(["rate", "pid"], ascending=[False, True], kind="stable")
        accepted = fallback[fallback["cost"].cumsum() <= budget]
        return pd.concat([picked, accepted]), int(accepted["cost"].sum())


__all__ = ["LossModel", "SplitChooser", "SplitRule", "ranges_frame"]
