"""Mondrian multidimensional partitioning, run round by round from aggregate SQL.

K. LeFevre, D. J. DeWitt, R. Ramakrishnan, "Mondrian Multidimensional K-Anonymity",
ICDE 2006 — strict partitioning, extended as in the paper's Section 5 to any privacy model
whose parts can be checked from aggregates (l-diversity, t-closeness).

Each round handles **all** active partitions with a constant number of statements:

1. ``stats``: per partition, the row count and each dimension's min, max and (numeric) median;
2. ``pstate``: the split parameters (median, or depth of the lowest common ancestor) loaded back;
3. ``candidates``: per partition, dimension and bin, the row count (and sensitive histograms,
   one query per sensitive column a model reads);
4. ``split``/``decisions`` loaded back, and ``rewrite``: finished partitions' rows move to the
   finished table, split partitions' rows get their new partition ids.

Split rule. A numeric dimension splits at the partition's median ``m`` either as
``x <= m | x > m`` or as ``x < m | x >= m``; a categorical one into the children of the
partition's lowest common ancestor (with ``categorical_split: grouped``, children too small on
their own are pooled into one part, which publishes their common ancestor). A split is allowed
only if **every** part satisfies **every** privacy model: the right-hand part is checked just like
the left, which is what the research implementation missed. Among allowed splits a partition
takes the dimension with the largest normalized width (numeric: range / attribute range;
categorical: NCP of the lowest common ancestor), ties broken by the order of the columns in
the spec; of the two numeric variants, the more balanced one (ties: ``x <= m``).

Suppression. With ``suppression_limit > 0``, a partition that has no allowed split may split
anyway if the parts that fail the models are suppressed (their rows are not published). Each
round such splits are accepted cheapest first, while the budget lasts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from pydantic import Field

from anonsql.algorithms.base import (
    Algorithm,
    Options,
    OptionsBase,
    PartitionSummary,
    ProgressCallback,
)
from anonsql.algorithms.lca import HierarchyArrays
from anonsql.algorithms.part_eval import Bins, PartEvaluator, frame_of
from anonsql.errors import InfeasibleError
from anonsql.pipeline.job import Dimension, Job
from anonsql.privacy.base import BoolArray, FloatArray, IntArray, PartStats


class MondrianOptions(Options):
    categorical_split: Literal["grouped", "strict"] = "grouped"
    #: At most this many partitions are decided per round (the lowest partition ids first), so
    #: Python's memory stays bounded however large the table; all pending partitions are
    #: handled at once whenever they are fewer.
    max_partitions_per_round: int = Field(default=20_000, ge=1)


@dataclass
class _Candidates:
    """Candidate splits: one row per candidate plus its bin -> part assignment."""

    table: pd.DataFrame  # cand, pid, dim, valid, cost, balance
    assign: pd.DataFrame  # cand, bin, part, suppressed


class Mondrian(Algorithm):
    """Mondrian (LeFevre et al., ICDE 2006) with aggregate SQL rounds over all partitions."""

    name = "mondrian"
    Options = MondrianOptions
    reference = (
        "K. LeFevre, D. J. DeWitt, R. Ramakrishnan, Mondrian Multidimensional K-Anonymity, "
        "ICDE 2006"
    )

    def partition(self, job: Job, progress: ProgressCallback) -> PartitionSummary:
        return _MondrianRun(job, self.options, progress).run()


class _MondrianRun:
    def __init__(self, job: Job, options: OptionsBase, progress: ProgressCallback) -> None:
        assert isinstance(options, MondrianOptions)
        self.job = job
        self.engine = job.engine
        self.strict = options.categorical_split == "strict"
        self.window = options.max_partitions_per_round
        self.progress = progress
        self.dims = job.dimensions
        self.categorical = [d for d in self.dims if not d.is_numeric]
        self.arrays = {
            d.index: HierarchyArrays(d.hierarchy) for d in self.categorical if d.hierarchy
        }
        self.evaluator = PartEvaluator(job.models, job.sensitive)
        self.sa_columns = sorted(
            {m.sensitive_column for m in job.models if m.needs_sensitive and m.sensitive_column}
        )
        self.min_rows = max([m.min_rows() for m in job.models] + [1])
        self.budget = job.suppression_budget
        self.next_pid = 1
        self.suppressed_pids: set[int] = set()
        self.suppressed_rows = 0
        self.suppressed_parts = 0
        self.partitions = 0
        self.payload = [d.code for d in self.dims] + [s.code for s in job.sensitive]
        self.t = {
            name: job.work(name)
            for name in (
                "rows",
                "rows_next",
                "done",
                "parts",
                "parts_chunk",
                "pstate",
                "split",
                "decisions",
            )
        }

    # -- round loop ---------------------------------------------------------------------------
    def run(self) -> PartitionSummary:
        e, t = self.engine, self.t
        e.run("mondrian/create_done", done=t["done"], work=t["rows"])
        per_round: list[int] = []
        rounds = 0
        start_statements = e.stats.statements
        while True:
            before = e.stats.statements
            lo = e.query("mondrian/first_pending", work=t["rows"])[0][0]
            if lo is None:
                break
            window = (int(lo), int(lo) + self.window)
            stats = e.query_arrow("mondrian/stats", work=t["rows"], dims=self.dims, window=window)
            self._round(stats, window, first=rounds == 0)
            per_round.append(e.stats.statements - before)
            rounds += 1
            self.progress(
                f"round {rounds}: {stats.num_rows} active partitions, "
                f"{self.partitions} final, {self.suppressed_rows} rows suppressed"
            )
        # the finished table now holds every row; make it the rows table
        e.drop(t["rows"])
        e.run("rename_table", source=t["done"], target_name=t["rows"].name)
        return PartitionSummary(
            partitions=self.partitions,
            suppressed_rows=self.suppressed_rows,
            suppressed_partitions=self.suppressed_parts,
            rounds=rounds,
            statements=e.stats.statements - start_statements,
            statements_per_round=per_round,
        )

    def _round(self, stats: pa.Table, window: tuple[int, int], *, first: bool) -> None:
        pid = stats.column("pid").to_numpy().astype(np.int64)
        n = stats.column("n").to_numpy().astype(np.int64)
        if first:
            self._check_root(n)
        widths, params = self._widths(stats)
        suppressed = (
            np.isin(pid, np.fromiter(self.suppressed_pids, np.int64))
            if self.suppressed_pids
            else np.zeros(len(pid), bool)
        )
        splittable = (widths > 0) & ~suppressed[:, None] & (n >= 2 * self.min_rows)[:, None]
        chosen = self._choose(stats, pid, splittable, widths, params) if splittable.any() else None
        split_pids = (
            np.zeros(0, np.int64) if chosen is None else chosen["pid"].unique().astype(np.int64)
        )
        final = ~np.isin(pid, split_pids)
        self._write_final(stats, final, suppressed)
        self._rewrite(chosen, params, pid, window)

    # -- stats ------------------------------------------------------------------------------
    def _widths(self, stats: pa.Table) -> tuple[FloatArray, dict[int, pa.Array]]:
        """Normalized width of each (partition, dimension) and each dimension's split parameter."""
        widths = np.zeros((stats.num_rows, len(self.dims)), dtype=np.float64)
        params: dict[int, pa.Array] = {}
        for d in self.dims:
            lo = stats.column(f"min{d.index}")
            hi = stats.column(f"max{d.index}")
            if d.is_numeric:
                if d.span > 0:
                    widths[:, d.index] = (
                        pc.subtract(pc.cast(hi, pa.float64()), pc.cast(lo, pa.float64())).to_numpy()
                        / d.span
                    )
                params[d.index] = stats.column(f"med{d.index}").combine_chunks()
            else:
                arrays = self.arrays[d.index]
                node = arrays.lca(lo.to_numpy().astype(np.int64), hi.to_numpy().astype(np.int64))
                widths[:, d.index] = arrays.ncp_of(node)
                params[d.index] = pa.array(arrays.depth[node], pa.int32())
        return widths, params

    def _check_root(self, n: IntArray) -> None:
        root = PartStats(
            counts=n[:1],
            histograms={s.column: s.global_counts[None, :] for s in self.job.sensitive},
            global_counts={s.column: s.global_counts for s in self.job.sensitive},
        )
        for model in self.job.models:
            if not model.holds(root)[0]:
                raise InfeasibleError(
                    f"{model.describe()} does not hold even on the whole table as one class, so "
                    "no generalization can satisfy it. Fix: relax the model's parameters"
                )

    # -- candidates ---------------------------------------------------------------------------
    def _choose(
        self,
        stats: pa.Table,
        pid: IntArray,
        splittable: BoolArray,
        widths: FloatArray,
        params: dict[int, pa.Array],
    ) -> pd.DataFrame | None:
        e, t = self.engine, self.t
        rows = splittable.any(axis=1)
        columns: dict[str, pa.Array] = {"pid": pa.array(pid[rows], pa.int64())}
        mask = pa.array(rows)
        for d in self.dims:
            columns[f"t{d.index}"] = pa.array(splittable[rows, d.index])
            columns[f"p{d.index}"] = params[d.index].filter(mask)
        self._replace("pstate", columns)
        common = {
            "work": t["rows"],
            "pstate": t["pstate"],
            "ancestors": self.job.work("ancestors"),
            "dims": self.dims,
        }
        sa_tables = {
            col: e.query_arrow(
                "mondrian/candidates", sa=self.job.sensitive_by_column(col).code, **common
            )
            for col in self.sa_columns
        }
        count_table = None if sa_tables else e.query_arrow("mondrian/candidates", sa=None, **common)
        bins = Bins.from_arrow(count_table, sa_tables, self.job.sensitive)
        if len(bins) == 0:
            return None
        cands = self._numeric_candidates(bins)
        cat = self._categorical_candidates(bins)
        found = [c for c in (cands, cat) if not c.table.empty]
        if not found:
            return None
        table = pd.concat([c.table for c in found], ignore_index=True)
        assign = pd.concat([c.assign for c in found], ignore_index=True)
        table = table.astype({"valid": bool, "cost": np.int64})
        width_of = pd.DataFrame(widths, columns=range(len(self.dims)))
        width_of["pid"] = pid
        long = width_of.melt(id_vars="pid", var_name="dim", value_name="width")
        long["dim"] = long["dim"].astype(np.int64)
        table = table.merge(long, on=["pid", "dim"], how="left")
        picked = self._pick(table)
        if picked.empty:
            return None
        chosen = assign.merge(picked[["cand", "pid", "dim"]], on="cand")
        return chosen

    def _pick(self, table: pd.DataFrame) -> pd.DataFrame:
        valid = table[table["valid"]].sort_values(
            ["pid", "width", "dim", "balance"], ascending=[True, False, True, False], kind="stable"
        )
        picked = valid.drop_duplicates("pid")
        remaining = self.budget - self.suppressed_rows
        if remaining > 0:
            fallback = table[
                ~table["valid"] & (table["cost"] > 0) & ~table["pid"].isin(picked["pid"])
            ]
            fallback = fallback.sort_values(
                ["pid", "cost", "width", "dim"], ascending=[True, True, False, True], kind="stable"
            ).drop_duplicates("pid")
            fallback = fallback.sort_values(["cost", "pid"], kind="stable")
            accepted = fallback[fallback["cost"].cumsum() <= remaining]
            self.suppressed_rows += int(accepted["cost"].sum())
            picked = pd.concat([picked, accepted])
        return picked

    def _numeric_candidates(self, bins: Bins) -> _Candidates:
        frame = frame_of(bins)
        frame["row"] = np.arange(len(frame))
        numeric_dims = [d.index for d in self.dims if d.is_numeric]
        frame = frame[frame["dim"].isin(numeric_dims)]
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

    def _categorical_candidates(self, bins: Bins) -> _Candidates:
        frame = frame_of(bins)
        frame["row"] = np.arange(len(frame))
        cat_dims = [d.index for d in self.categorical]
        frame = frame[frame["dim"].isin(cat_dims)].copy()
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

    def _replace(self, name: str, columns: dict[str, Any]) -> None:
        """(Re)load a small decision table of this run."""
        self.engine.drop(self.t[name])
        self.engine.load_arrow(self.t[name], pa.table(columns))

    def _new_cand_ids(self, count: int) -> IntArray:
        start = getattr(self, "_cand_counter", 0)
        self._cand_counter = start + count
        return np.arange(start, start + count, dtype=np.int64)

    # -- writing back -------------------------------------------------------------------------
    def _write_final(self, stats: pa.Table, final: BoolArray, suppressed: BoolArray) -> None:
        if not final.any():
            return
        mask = pa.array(final)
        chunk = stats.filter(mask)
        columns: dict[str, pa.Array] = {
            "pid": pc.cast(chunk.column("pid"), pa.int64()),
            "n": pc.cast(chunk.column("n"), pa.int64()),
            "suppressed": pa.array(suppressed[final]),
        }
        for d in self.dims:
            lo = chunk.column(f"min{d.index}")
            hi = chunk.column(f"max{d.index}")
            if d.is_numeric:
                columns[f"lo{d.index}"] = lo
                columns[f"hi{d.index}"] = hi
            else:
                node = self.arrays[d.index].lca(
                    lo.to_numpy().astype(np.int64), hi.to_numpy().astype(np.int64)
                )
                columns[f"node{d.index}"] = pa.array(node, pa.int32())
        table = pa.table(columns)
        self.partitions += int((~suppressed[final]).sum())
        self.suppressed_parts += int(suppressed[final].sum())
        e, t = self.engine, self.t
        if not e.exists(t["parts"]):
            e.load_arrow(t["parts"], table)
        else:
            self._replace("parts_chunk", dict(zip(table.column_names, table.columns, strict=True)))
            e.run("mondrian/append_parts", parts=t["parts"], chunk=t["parts_chunk"])

    def _rewrite(
        self,
        chosen: pd.DataFrame | None,
        params: dict[int, pa.Array],
        pid: IntArray,
        window: tuple[int, int],
    ) -> None:
        e, t = self.engine, self.t
        if chosen is None or chosen.empty:
            # nothing in the window splits: all its partitions are final
            e.run("mondrian/finish_window", done=t["done"], work=t["rows"], window=window)
            return
        chosen = chosen.sort_values(["pid", "part", "bin"], kind="stable")
        parts = chosen[["pid", "part", "suppressed"]].drop_duplicates(["pid", "part"])
        parts = parts.assign(
            new_pid=np.arange(self.next_pid, self.next_pid + len(parts), dtype=np.int64)
        )
        self.next_pid += len(parts)
        self.suppressed_pids.update(parts.loc[parts["suppressed"].astype(bool), "new_pid"].tolist())
        decisions = chosen.merge(parts[["pid", "part", "new_pid"]], on=["pid", "part"])
        split = chosen[["pid", "dim"]].drop_duplicates("pid")
        depth = np.zeros(len(split), np.int64)
        if len(split):
            index = pd.Series(np.arange(len(pid)), index=pid)
            position = index.loc[split["pid"].to_numpy()].to_numpy()
            for d in self.categorical:
                sel = split["dim"].to_numpy() == d.index
                depth[sel] = params[d.index].to_numpy(zero_copy_only=False)[position[sel]]
        self._replace(
            "split",
            {
                "pid": pa.array(split["pid"].to_numpy(np.int64), pa.int64()),
                "dim": pa.array(split["dim"].to_numpy(np.int64), pa.int32()),
                "depth": pa.array(depth, pa.int32()),
            },
        )
        self._replace(
            "decisions",
            {
                "pid": pa.array(decisions["pid"].to_numpy(np.int64), pa.int64()),
                "bin": pa.array(decisions["bin"].to_numpy(np.int64), pa.int64()),
                "new_pid": pa.array(decisions["new_pid"].to_numpy(np.int64), pa.int64()),
            },
        )
        e.run(
            "mondrian/rewrite",
            done=t["done"],
            work=t["rows"],
            work_next=t["rows_next"],
            split=t["split"],
            pstate=t["pstate"],
            decisions=t["decisions"],
            ancestors=self.job.work("ancestors"),
            dims=self.dims,
            categorical=self.categorical,
            payload=self.payload,
            window=window,
        )


def _empty_candidates() -> _Candidates:
    return _Candidates(
        pd.DataFrame({"cand": [], "pid": [], "dim": [], "valid": [], "cost": [], "balance": []}),
        pd.DataFrame({"cand": [], "bin": [], "part": [], "suppressed": []}),
    )


__all__ = ["Dimension", "Mondrian", "MondrianOptions"]
