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

from anonsql.algorithms.mondrian import columnar as col
from anonsql.algorithms.mondrian.columnar import Rows
from anonsql.algorithms.mondrian.evaluate import Bins, PartEvaluator
from anonsql.algorithms.mondrian.split_choice import SplitChooser
from anonsql.arrays import FloatArray, IntArray


@dataclass(frozen=True)
class Candidates:
    """Candidate splits: ``table`` has one row per candidate (cand, pid, dim, valid, cost,
    balance), ``assign`` one per candidate and bin (cand, bin, part, suppressed)."""

    table: Rows
    assign: Rows


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
        ranges: Rows | None = None,
        parent_loss: FloatArray | None = None,
    ) -> tuple[Rows | None, int]:
        """The chosen splits as (pid, dim, bin, part, suppressed) rows, and the rows suppressed.

        ``pid`` and ``widths`` (partitions x dimensions) describe the round's partitions;
        ``chooser`` picks among the candidates; ``ranges`` (per-bin bounds) and ``parent_loss``
        (each partition's current loss, aligned with ``pid``) let it price splits by their
        information loss."""
        found = [c for c in (self._numeric(bins), self._categorical(bins)) if len(c.table)]
        if not found:
            return None, 0
        table = Rows.concat([c.table for c in found])
        assign = Rows.concat([c.assign for c in found])
        position = col.lookup((table["pid"],), (pid,))
        table = table.with_columns(width=widths[position, table["dim"]])
        parent = None if parent_loss is None else parent_loss[position]
        picked, suppressed = chooser.pick(table, assign, ranges, parent, budget)
        if len(picked) == 0:
            return None, suppressed
        row = col.lookup((assign["cand"],), (picked["cand"],))
        keep = row >= 0
        chosen = assign.take(keep).with_columns(
            pid=picked["pid"][row[keep]], dim=picked["dim"][row[keep]]
        )
        return chosen, suppressed

    def _numeric(self, bins: Bins) -> Candidates:
        rows = np.nonzero(np.isin(bins.dim, self.numeric))[0].astype(np.int64)
        if rows.shape[0] == 0:
            return _empty_candidates()
        rows = rows[col.order_by(bins.pid[rows], bins.dim[rows], bins.bin[rows])]
        first = col.starts(col.codes(bins.pid[rows], bins.dim[rows]))
        pair = col.group_index(first)
        npairs = int(first.sum())
        slot = np.full((npairs, 3), -1, np.int64)  # the bin -1 / 0 / 1 row of each pair
        slot[pair, bins.bin[rows] + 1] = rows
        pair_pid, pair_dim = bins.pid[rows[first]], bins.dim[rows[first]]
        lt, eq, gt = slot[:, 0], slot[:, 1], slot[:, 2]
        # parts per pair: A = (lt+eq | gt), B = (lt | eq+gt)
        layout = [(0, [lt, eq]), (1, [gt]), (2, [lt]), (3, [eq, gt])]
        members, owners = [], []
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
        tables = []
        assigns = []
        for variant, (left, right) in enumerate(((0, 1), (2, 3))):
            both = nonempty[:, left] & nonempty[:, right]
            valid = both & holds[:, left] & holds[:, right]
            # suppression fallback: exactly one side fails
            fail_left = both & ~holds[:, left] & holds[:, right]
            fail_right = both & holds[:, left] & ~holds[:, right]
            cost = np.where(fail_left, size[:, left], np.where(fail_right, size[:, right], 0))
            cand = self._new_cand_ids(npairs)
            tables.append(
                Rows(
                    {
                        "cand": cand,
                        "pid": pair_pid,
                        "dim": pair_dim,
                        "valid": valid,
                        "cost": cost.astype(np.int64),
                        "balance": np.minimum(size[:, left], size[:, right]).astype(np.int64),
                    }
                )
            )
            eq_part = 0 if variant == 0 else 1
            for b, part, src_rows in ((-1, 0, lt), (0, eq_part, eq), (1, 1, gt)):
                present = src_rows >= 0
                supp = fail_left if part == 0 else fail_right
                count = int(present.sum())
                assigns.append(
                    Rows(
                        {
                            "cand": cand[present],
                            "bin": np.full(count, b, np.int64),
                            "part": np.full(count, part, np.int64),
                            "suppressed": supp[present],
                        }
                    )
                )
        return Candidates(Rows.concat(tables), Rows.concat(assigns))

    def _categorical(self, bins: Bins) -> Candidates:
        rows = np.nonzero(np.isin(bins.dim, self.categorical))[0].astype(np.int64)
        if rows.shape[0] == 0:
            return _empty_candidates()
        ok_of = np.zeros(len(bins), bool)
        ok_of[rows] = self.evaluator.holds(self.evaluator.bin_stats(bins, rows))
        # invalid children first, then valid ones smallest first: prefixes are the pooled part
        rows = rows[
            col.order_by(
                bins.pid[rows], bins.dim[rows], ok_of[rows], bins.counts[rows], bins.bin[rows]
            )
        ]
        pid, dim, n, ok = bins.pid[rows], bins.dim[rows], bins.counts[rows], ok_of[rows]
        first = col.starts(col.codes(pid, dim))
        pair = col.group_index(first)
        pos = col.rank_in_group(first)
        r = np.bincount(pair)[pair]
        nbad = np.bincount(pair, weights=(~ok).astype(np.float64)).astype(np.int64)[pair]
        pooled_ok = np.zeros(rows.shape[0], bool)
        if not self.strict:
            prefix = self.evaluator.prefix_stats(bins, rows, np.nonzero(first)[0])
            pooled_ok = self.evaluator.holds(prefix)
        usable = pooled_ok & (nbad > 0) & (pos >= nbad - 1) & (pos <= r - 2)
        never = np.iinfo(np.int64).max
        cut = col.segment_reduce(np.minimum, np.where(usable, pos, never), first)[pair]
        has_cut = cut < never
        valid_pair = ((nbad == 0) & (r >= 2)) | has_cut
        # suppression fallback: drop the invalid children, keep each valid child
        cost = col.segment_reduce(np.add, np.where(~ok, n, 0), first)[pair]
        supp_possible = (nbad > 0) & (r - nbad >= 1) & ~valid_pair
        cand = self._new_cand_ids(int(first.sum()))[pair]
        table = Rows(
            {
                "cand": cand[first],
                "pid": pid[first],
                "dim": dim[first],
                "valid": valid_pair[first],
                "cost": np.where(supp_possible, cost, 0)[first].astype(np.int64),
                "balance": n[first].astype(np.int64),
            }
        )
        pooled = has_cut & (pos <= cut)
        # part 0 is the pooled part (or the suppressed invalid children); others one per child
        part = np.where(pooled | (~valid_pair & ~ok), 0, pos + 1)
        assign = Rows(
            {
                "cand": cand,
                "bin": bins.bin[rows],
                "part": part.astype(np.int64),
                "suppressed": ~valid_pair & ~ok,
            }
        )
        return Candidates(table, assign)

    def _new_cand_ids(self, count: int) -> IntArray:
        start = self._cand_counter
        self._cand_counter = start + count
        return np.arange(start, start + count, dtype=np.int64)


def _empty_candidates() -> Candidates:
    empty_int = np.zeros(0, np.int64)
    empty_bool = np.zeros(0, bool)
    return Candidates(
        Rows(
            {
                "cand": empty_int,
                "pid": empty_int,
                "dim": empty_int,
                "valid": empty_bool,
                "cost": empty_int,
                "balance": empty_int,
            }
        ),
        Rows({"cand": empty_int, "bin": empty_int, "part": empty_int, "suppressed": empty_bool}),
    )
