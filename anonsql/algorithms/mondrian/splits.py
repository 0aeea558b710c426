"""Candidate splits for Mondrian, built and judged in vectorized batches.

A partition's bins along a numeric dimension are -1 / 0 / 1 (below / at / above its median),
which give two candidate splits, ``lt+eq | gt`` and ``lt | eq+gt``. Along a categorical
dimension they are the children of the partition's lowest common ancestor; with grouped
splits, children that fail on their own are pooled (invalid ones first, then valid ones
smallest first, until the pool holds), the pool publishing their common ancestor.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from anonsql.algorithms.mondrian.evaluate import Bins, PartEvaluator, frame_of
from anonsql.algorithms.mondrian.split_choice import SplitChooser
from anonsql.privacy.base import FloatArray, IntArray


@dataclass
class _Candidates:
    """Candidate splits: one row per candidate plus its bin -> part assignment."""

    table: pd.DataFrame  # cand, pid, dim, valid, cost, balance
    assign: pd.DataFrame  # cand, bin, part, suppressed


class SplitPlanner:
    """Builds every candidate split of every partition from its bins, evaluates all their parts
    against the privacy models in a few vectorized batches, and lets a
    :class:`~anonsql.algorithms.mondrian.split_choice.SplitChooser` pick one split per partition."""

    def __init__(
        self, evaluator: PartEvaluator, *, numeric: list[int], categorical: list[int], strict: bool
    ) -> None:
        self.evaluator = evaluator
        self.numeric = numeric
        self.categorical = categorical
        self.strict = strict
        self._cand_counter = 0

    def plan(
        self,
        bins: Bins,
        pid: IntArray,
        widths: FloatArray,
        *,
        budget: int,
        chooser: SplitChooser,
        ranges: pd.DataFrame | None = None,
        parent_loss: pd.Series | None = None,
    ) -> tuple[pd.DataFrame | None, int]:
        """The chosen splits as (pid, dim, bin, part, suppressed) rows, and the rows suppressed.

        ``chooser`` picks among the candidates; ``ranges`` (per-bin bounds) and ``parent_loss``
        (each partition's current loss) let it price splits by their information loss."""
        found = [c for c in (self._numeric(bins), self._categorical(bins)) if not c.table.empty]
        if not found:
            return None, 0
        table = pd.concat([c.table for c in found], ignore_index=True)
        assign = pd.concat([c.assign for c in found], ignore_index=True)
        table = table.astype({"valid": bool, "cost": np.int64})
        width_of = pd.DataFrame(widths, columns=range(widths.shape[1]))
        width_of["pid"] = pid
        long = width_of.melt(id_vars="pid", var_name="dim", value_name="width")
        long["dim"] = long["dim"].astype(np.int64)
        table = table.merge(long, on=["pid", "dim"], how="left")
        picked, suppressed = chooser.pick(table, assign, ranges, parent_loss, budget)
        if picked.empty:
            return None, suppressed
        return assign.merge(picked[["cand", "pid", "dim"]], on="cand"), suppressed

    def _numeric(self, bins: Bins) -> _Candidates:
        frame = frame_of(bins)
        frame["row"] = np.arange(len(frame))
        frame = frame[frame["dim"].isin(self.numeric)]
        if frame.empty:
            return _empty_candidates()
        idx = frame.pivot(index=["pid", "dim"], columns="bin", values="row").reindex(
            columns=[-1, 0, 1]
        )
        pairs = idx.index.to_frame(index=False)
        lt, eq, gt = (idx[b].fillna(-1).to_numpy(np.int64) for b in (-1, 0, 1))
        # parts per pair: A = (lt+eq | gt), B = (lt | eq+gt)
        layout = [(0, [lt, eq]), (1, [gt]), (2, [lt]), (3, [eq, gt])]
        members, owners = [], []
        npairs = len(pairs)
        for part, sources in layout:
            for src in sources:
                ok = src >= 0
                members.append(src[ok])
                owners.append(np.nonzero(ok)[0] * 4 + part)
        m = np.concatenate(members)
        o = np.concatenate(owners)
        stats = self.evaluator.union_stats(bins, m, o, npairs * 4)
        holds = self.evaluator.holds(stats).reshape(npairs, 4)
        size = stats.counts.reshape(npairs, 4)
        nonempty = size > 0
        rows = []
        assigns = []
        for variant, (left, right) in enumerate(((0, 1), (2, 3))):
            both = nonempty[:, left] & nonempty[:, right]
            valid = both & holds[:, left] & holds[:, right]
            # suppression fallback: exactly one side fails
            fail_left = both & ~holds[:, left] & holds[:, right]
            fail_right = both & holds[:, left] & ~holds[:, right]
            cost = np.where(fail_left, size[:, left], np.where(fail_right, size[:, right], 0))
            cand = self._new_cand_ids(npairs)
            rows.append(
                pd.DataFrame(
                    {
                        "cand": cand,
                        "pid": pairs["pid"].to_numpy(),
                        "dim": pairs["dim"].to_numpy(),
                        "valid": valid,
                        "cost": cost,
                        "balance": np.minimum(size[:, left], size[:, right]),
                    }
                )
            )
            eq_part = 0 if variant == 0 else 1
            for b, part in ((-1, 0), (0, eq_part), (1, 1)):
                src = {-1: lt, 0: eq, 1: gt}[b] >= 0
                supp = np.where(part == 0, fail_left, fail_right)
                assigns.append(
                    pd.DataFrame(
                        {"cand": cand[src], "bin": b, "part": part, "suppressed": supp[src]}
                    )
                )
        return _Candidates(
            pd.concat(rows, ignore_index=True), pd.concat(assigns, ignore_index=True)
        )

    def _categorical(self, bins: Bins) -> _Candidates:
        frame = frame_of(bins)
        frame["row"] = np.arange(len(frame))
        frame = frame[frame["dim"].isin(self.categorical)].copy()
        if frame.empty:
            return _empty_candidates()
        rows = frame["row"].to_numpy(np.int64)
        frame["ok"] = self.evaluator.holds(self.evaluator.bin_stats(bins, rows))
        # invalid children first, then valid ones smallest first: prefixes are the pooled part
        frame = frame.sort_values(["pid", "dim", "ok", "n", "bin"], kind="stable").reset_index(
            drop=True
        )
        frame["pos"] = frame.groupby(["pid", "dim"], sort=False).cumcount()
        pair = frame.groupby(["pid", "dim"], sort=False)
        frame["r"] = pair["bin"].transform("size")
        frame["bad"] = ~frame["ok"]
        frame["nbad"] = pair["bad"].transform("sum")
        starts = np.nonzero(frame["pos"].to_numpy() == 0)[0]
        order = frame["row"].to_numpy(np.int64)
        pooled_ok = np.zeros(len(frame), bool)
        if not self.strict:
            prefix = self.evaluator.prefix_stats(bins, order, starts)
            pooled_ok = self.evaluator.holds(prefix)
        pos = frame["pos"].to_numpy()
        r = frame["r"].to_numpy()
        nbad = frame["nbad"].to_numpy()
        usable = pooled_ok & (nbad > 0) & (pos >= nbad - 1) & (pos <= r - 2)
        frame["cut"] = np.where(usable, pos, np.iinfo(np.int64).max)
        cut = frame.groupby(["pid", "dim"], sort=False)["cut"].transform("min").to_numpy()
        has_cut = cut < np.iinfo(np.int64).max
        valid_pair = (nbad == 0) & (r >= 2) | has_cut
        # suppression fallback: drop the invalid children, keep each valid child
        bad_rows = np.where(~frame["ok"].to_numpy(), frame["n"].to_numpy(), 0)
        frame["bad_rows"] = bad_rows
        cost = frame.groupby(["pid", "dim"], sort=False)["bad_rows"].transform("sum").to_numpy()
        supp_possible = (nbad > 0) & (r - nbad >= 1) & ~valid_pair
        key = frame[["pid", "dim"]].drop_duplicates().reset_index(drop=True)
        cand_ids = self._new_cand_ids(len(key))
        key["cand"] = cand_ids
        frame = frame.merge(key, on=["pid", "dim"], how="left")
        first = frame["pos"].to_numpy() == 0
        table = pd.DataFrame(
            {
                "cand": frame["cand"].to_numpy()[first],
                "pid": frame["pid"].to_numpy()[first],
                "dim": frame["dim"].to_numpy()[first],
                "valid": valid_pair[first],
                "cost": np.where(supp_possible, cost, 0)[first],
                "balance": frame["n"].to_numpy()[first],
            }
        )
        pooled = has_cut & (pos <= cut)
        ok = frame["ok"].to_numpy()
        # part 0 is the pooled part (or the suppressed invalid children); others one per child
        part = np.where(pooled | (~valid_pair & ~ok), 0, pos + 1)
        assign = pd.DataFrame(
            {
                "cand": frame["cand"].to_numpy(),
                "bin": frame["bin"].to_numpy(),
                "part": part,
                "suppressed": ~valid_pair & ~ok,
            }
        )
        return _Candidates(table, assign)

    def _new_cand_ids(self, count: int) -> IntArray:
        start = self._cand_counter
        self._cand_counter = start + count
        return np.arange(start, start + count, dtype=np.int64)


def _empty_candidates() -> _Candidates:
    return _Candidates(
        pd.DataFrame({"cand": [], "pid": [], "dim": [], "valid": [], "cost": [], "balance": []}),
        pd.DataFrame({"cand": [], "bin": [], "part": [], "suppressed": []}),
    )
