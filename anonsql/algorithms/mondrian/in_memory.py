"""Mondrian's rounds on working rows held in memory.

Once the working rows are few (``max_rows_in_memory``: Adult's 30k rows from the first round,
the 235k distinct vectors of 1e6 synthetic rows), a round in the engine is a dozen statements
whose fixed cost exceeds the work (BENCHMARKS.md "Mondrian's rounds in memory").
The rows are then read once, as coded values (leaf ranks and numeric QID values, the sensitive
codes and the weights: nothing is logged or published from them), kept sorted by partition id,
and every round's question is answered with a few numpy passes over the window's rows only;
the finished rows go back to the engine in one load when the rounds end.

The answers are the SQL templates' results computed another way, column for column (the
templates name the definitions: ``mondrian/stats.sql``'s weighted ``PERCENTILE_DISC(0.5)``,
``bin_ranges.sql``, ``candidates.sql``, ``rewrite.sql``), so a release does not depend on where
its rounds ran; ``tests/algorithms/mondrian/test_in_memory.py`` holds the two to each other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pyarrow as pa

from anonsql import arrow
from anonsql.algorithms.mondrian import columnar as col
from anonsql.algorithms.mondrian.columnar import Column
from anonsql.algorithms.mondrian.working import Window, WorkingSet
from anonsql.algorithms.workspace import Dimension
from anonsql.arrays import IntArray


class MemoryWorkingSet(WorkingSet):
    """The working rows as numpy columns sorted by partition id.

    ``ancestors`` maps each categorical dimension to its table ``[depth, leaf rank] -> node id``
    (-1 where a leaf has no ancestor at that depth), the array form of the ``ancestors``
    working table the templates join."""

    def __init__(
        self,
        table: pa.Table,
        *,
        dims: Sequence[Dimension],
        ancestors: Mapping[int, IntArray],
        weight: str | None,
    ) -> None:
        self.schema = table.schema
        self.dims = list(dims)
        self.ancestors = ancestors
        pid = arrow.to_numpy(table.column("pid")).astype(np.int64)
        order = np.argsort(pid, kind="stable")
        self.pid: IntArray = pid[order]
        self.columns: dict[str, Column] = {
            name: arrow.to_numpy(table.column(name))[order]
            for name in self.schema.names
            if name != "pid"
        }
        self.weight = weight
        self.done: list[tuple[IntArray, dict[str, Column]]] = []
        self.state: dict[str, Column] = {}

    @staticmethod
    def can_hold(table: pa.Table) -> bool:
        """Whether :class:`MemoryWorkingSet` reproduces the SQL rounds on these rows: integer
        and floating columns only (decimals, text and dates stay in the engine), without NULL
        or NaN (numpy's comparisons would order them unlike SQL)."""
        for column in table.columns:
            kind = column.type
            if not (pa.types.is_integer(kind) or pa.types.is_floating(kind)):
                return False
            if column.null_count:
                return False
            if pa.types.is_floating(kind) and np.isnan(arrow.to_numpy(column)).any():
                return False
        return True

    # -- the rows ----------------------------------------------------------------------------
    def _weights(self, rows: slice | IntArray) -> IntArray:
        if self.weight is None:
            count = self.pid[rows].shape[0]
            return np.ones(count, np.int64)
        return self.columns[self.weight][rows].astype(np.int64)

    def _slice(self, window: Window) -> slice:
        lo, hi = np.searchsorted(self.pid, np.array(window, np.int64), side="left")
        return slice(int(lo), int(hi))

    def _keep(self, rows: slice | IntArray) -> tuple[IntArray, dict[str, Column]]:
        return self.pid[rows], {name: c[rows] for name, c in self.columns.items()}

    def pending(self) -> tuple[int | None, int]:
        rows = self.pid.shape[0]
        return (int(self.pid[0]) if rows else None), rows

    # -- statistics --------------------------------------------------------------------------
    def stats(self, window: Window) -> pa.Table:
        rows = self._slice(window)
        pid = self.pid[rows]
        first = col.starts(pid)
        starts = np.nonzero(first)[0]
        weights = self._weights(rows)
        n = np.add.reduceat(weights, starts) if starts.shape[0] else weights[:0]
        out: dict[str, pa.Array] = {
            "pid": self._typed("pid", pid[first]),
            "n": arrow.array(n, pa.int64()),
        }
        group = col.group_index(first)
        for d in self.dims:
            values = self.columns[d.code][rows]
            low = col.segment_reduce(np.minimum, values, first)
            high = col.segment_reduce(np.maximum, values, first)
            out[f"min{d.index}"] = self._typed(d.code, low)
            out[f"max{d.index}"] = self._typed(d.code, high)
            if d.is_numeric:
                out[f"med{d.index}"] = self._typed(d.code, _median(values, weights, group, n))
        return arrow.table(out)

    def set_state(self, pstate: pa.Table) -> None:
        self.state = {name: arrow.to_numpy(pstate.column(name)) for name in pstate.column_names}
        self.state["pid"] = self.state["pid"].astype(np.int64)

    def _stated_rows(self) -> tuple[IntArray, IntArray]:
        """The rows of partitions with split parameters, and each one's row of the state."""
        state_pid = self.state["pid"]
        if not state_pid.shape[0]:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        # the state's partitions lie in one window: only its rows are looked up
        lo, hi = np.searchsorted(self.pid, [state_pid.min(), state_pid.max() + 1])
        at = col.lookup((self.pid[lo:hi],), (state_pid,))
        rows = np.nonzero(at >= 0)[0].astype(np.int64)
        return rows + lo, at[rows]

    def _bins(self, d: Dimension, rows: IntArray, param: Column) -> IntArray:
        """Each row's bin along ``d`` relative to its partition's parameter (``_bins.sql``):
        the median, or the depth of the lowest common ancestor."""
        values = self.columns[d.code][rows]
        if d.is_numeric:
            # -1 below, 0 at, 1 above (two comparisons beat nested np.where: BENCHMARKS.md
            # "Working tables in memory, fewer passes at publish, radix-grouped bins")
            side: IntArray = (values > param).astype(np.int64) - (values < param)
            return side
        depth = param.astype(np.int64) + 1
        nodes: IntArray = self.ancestors[d.index][depth, values.astype(np.int64)]
        return nodes

    def _grouped(
        self, by_sa: str | None
    ) -> list[tuple[int, IntArray, IntArray, IntArray, IntArray | None]]:
        """Per dimension with candidates: (dim, rows in group order, bins, group starts, the
        permutation putting the groups in (pid, bin[, sa]) order or None if they are), the
        rows of every (pid, bin[, sa]) group adjacent."""
        rows, state_row = self._stated_rows()
        out: list[tuple[int, IntArray, IntArray, IntArray, IntArray | None]] = []
        for d in self.dims:
            along = self.state[f"t{d.index}"][state_row].astype(bool)
            mine, mine_state = rows[along], state_row[along]
            bins = self._bins(d, mine, self.state[f"p{d.index}"][mine_state])
            # an inner join in the templates: a leaf without an ancestor at that depth drops out
            joined = bins >= 0 if not d.is_numeric else np.ones(bins.shape[0], bool)
            mine, bins = mine[joined], bins[joined]
            pid = self.pid[mine]
            small = [bins]
            if by_sa is not None:
                small.append(self.columns[by_sa][mine].astype(np.int64))
            bucket = col.small_key(small)
            if bucket is not None:
                # the rows are sorted by pid: a stable (radix) sort by the few (bin[, sa])
                # values keeps each bucket's rows in pid order, so groups are adjacent without
                # sorting the rows by pid again; only the groups are then put in key order
                order = np.argsort(bucket, kind="stable").astype(np.int64)
                first = col.starts(bucket[order])
                first[1:] |= col.starts(pid[order])[1:]
                starts = np.nonzero(first)[0].astype(np.int64)
                perm = col.order_by(pid[order][starts], bucket[order][starts])
                out.append((d.index, mine[order], bins[order], starts, perm))
                continue
            keys = [pid, *small]
            order = _group_order(keys)
            mine, bins = mine[order], bins[order]
            first = np.zeros(mine.shape[0], bool)
            if mine.shape[0]:
                first[0] = True
                for key in keys:
                    sorted_key = key[order]
                    first[1:] |= sorted_key[1:] != sorted_key[:-1]
            out.append((d.index, mine, bins, np.nonzero(first)[0].astype(np.int64), None))
        return out

    def bin_ranges(self) -> pa.Table:
        return self._per_bin(None, ranges=True)

    def candidates(self, sa: str | None) -> pa.Table:
        return self._per_bin(sa, ranges=False)

    def _per_bin(self, sa: str | None, *, ranges: bool) -> pa.Table:
        """Per (pid, dim, bin[, sa]) group of the candidate splits: ``n`` and, with
        ``ranges``, every dimension's ``lo<i>`` and ``hi<i>``."""
        names = ["pid", "dim", "bin"] + (["sa"] if sa is not None else []) + ["n"]
        source = {"sa": sa} if sa is not None else {}
        if ranges:
            for e in self.dims:
                for side in ("lo", "hi"):
                    names.append(f"{side}{e.index}")
                    source[f"{side}{e.index}"] = e.code
        pieces: list[dict[str, Column]] = []
        for dim, rows, bins, starts, perm in self._grouped(sa):
            if not starts.shape[0]:
                continue
            piece: dict[str, Column] = {
                "pid": self.pid[rows][starts],
                "dim": np.full(starts.shape[0], dim, np.int32),
                "bin": bins[starts],
                "n": np.add.reduceat(self._weights(rows), starts),
            }
            if sa is not None:
                piece["sa"] = self.columns[sa][rows][starts]
            if ranges:
                for e in self.dims:
                    values = self.columns[e.code][rows]
                    piece[f"lo{e.index}"] = np.minimum.reduceat(values, starts)
                    piece[f"hi{e.index}"] = np.maximum.reduceat(values, starts)
            if perm is not None:
                piece = {name: values[perm] for name, values in piece.items()}
            pieces.append(piece)
        return self._table(pieces, names, source)

    # -- moving rows -------------------------------------------------------------------------
    def finish_window(self, window: Window) -> None:
        rows = self._slice(window)
        self.done.append(self._keep(rows))
        self._retain(self._outside(rows))

    def _outside(self, window: slice) -> slice | IntArray:
        """The rows before and after a window's rows, in order (a slice, so a view rather than a
        copy, when the window starts at the first row, as the lowest pending partition's does)."""
        count = self.pid.shape[0]
        if window.start == 0:
            return slice(window.stop, count)
        before = np.arange(window.start, dtype=np.int64)
        after = np.arange(window.stop, count, dtype=np.int64)
        rows: IntArray = np.concatenate([before, after])
        return rows

    def rewrite(self, window: Window, split: pa.Table, decisions: pa.Table) -> None:
        rows = self._slice(window)
        inside = np.arange(rows.start, rows.stop, dtype=np.int64)
        split_pid = arrow.to_numpy(split.column("pid")).astype(np.int64)
        at = col.lookup((self.pid[inside],), (split_pid,))
        self.done.append(self._keep(inside[at < 0]))
        moving, at = inside[at >= 0], at[at >= 0]
        split_dim = arrow.to_numpy(split.column("dim")).astype(np.int64)[at]
        split_depth = arrow.to_numpy(split.column("depth")).astype(np.int64)[at]
        state_row = col.lookup((self.pid[moving],), (self.state["pid"],))
        bins = np.full(moving.shape[0], np.iinfo(np.int64).min, np.int64)
        for d in self.dims:
            along = split_dim == d.index
            if not along.any():
                continue
            # as the template: the median from the state, the depth from the split table
            param = (
                self.state[f"p{d.index}"][state_row[along]] if d.is_numeric else split_depth[along]
            )
            bins[along] = self._bins(d, moving[along], param)
        decided = col.lookup(
            (self.pid[moving], bins),
            (
                arrow.to_numpy(decisions.column("pid")).astype(np.int64),
                arrow.to_numpy(decisions.column("bin")).astype(np.int64),
            ),
        )
        # an inner join in the template: a row whose bin has no decision is not kept
        moving, decided = moving[decided >= 0], decided[decided >= 0]
        new_pid = arrow.to_numpy(decisions.column("new_pid")).astype(np.int64)[decided]
        order = np.argsort(new_pid, kind="stable")
        _, moved = self._keep(moving[order])
        # new ids are above every id in use, so the rows outside the window then the moved
        # rows stay sorted by partition id
        rest_pid, rest = self._keep(self._outside(rows))
        self.pid = np.concatenate([rest_pid, new_pid[order]])
        self.columns = {name: np.concatenate([rest[name], moved[name]]) for name in self.columns}

    def _retain(self, rows: slice | IntArray) -> None:
        self.pid, self.columns = self._keep(rows)

    def finished(self) -> pa.Table:
        """Every finished row, with the columns and types of the table they were read from."""
        if not self.done:
            return self.schema.empty_table()
        data = {"pid": self._typed("pid", np.concatenate([p for p, _ in self.done]))}
        for name in self.columns:
            data[name] = self._typed(name, np.concatenate([c[name] for _, c in self.done]))
        return arrow.table({name: data[name] for name in self.schema.names})

    # -- helpers -----------------------------------------------------------------------------
    def _typed(self, name: str, values: Column) -> pa.Array:
        return arrow.array(values, self.schema.field(name).type)

    def _table(
        self, pieces: list[dict[str, Column]], names: list[str], source: Mapping[str, str]
    ) -> pa.Table:
        """One result table from per-dimension pieces; columns named in ``source`` take the type
        of the working column they were computed from (as the templates' MIN, MAX and group
        keys do), the others int32 (dim) or int64."""

        def kind(name: str) -> pa.DataType:
            if name in source:
                return self.schema.field(source[name]).type
            return pa.int32() if name == "dim" else pa.int64()

        return arrow.table(
            {
                name: arrow.array(
                    np.concatenate([p[name] for p in pieces])
                    if pieces
                    else np.zeros(0, kind(name).to_pandas_dtype()),
                    kind(name),
                )
                for name in names
            }
        )


def _median(values: Column, weights: IntArray, group: IntArray, totals: IntArray) -> Column:
    """Per group, the smallest value whose cumulative weight reaches half the group's
    (``PERCENTILE_DISC(0.5)``; ``mondrian/stats.sql`` with weights)."""
    if values.shape[0] == 0:
        return values[:0]
    counted = _median_by_counts(values, weights, group, totals)
    if counted is not None:
        return counted
    combined = col.combined_key([group, values])
    order = np.lexsort((values, group)) if combined is None else np.argsort(combined)
    sorted_group = group[order]
    cumulative = np.cumsum(weights[order])
    first = col.starts(sorted_group)
    starts = np.nonzero(first)[0]
    before = (cumulative[starts] - weights[order][starts])[sorted_group]
    reached = 2 * (cumulative - before) >= totals[sorted_group]
    # reached is False then True within each group (cumulative weights only grow)
    not_yet = np.add.reduceat((~reached).astype(np.int64), starts)
    result: Column = values[order][starts + not_yet]
    return result


#: Cells of the (group, value) weight table :func:`_median_by_counts` may use per row.
_CELLS_PER_ROW = 4


def _median_by_counts(
    values: Column, weights: IntArray, group: IntArray, totals: IntArray
) -> Column | None:
    """:func:`_median` without a sort, for integer values of a narrow range (ages, years,
    small codes): each group's weights per value (``bincount``), accumulated along the values;
    the median is the first value where twice the running weight reaches the group's total.
    None when the (group, value) table would exceed a few cells per row."""
    if not col.fits_int64(values):
        return None
    low = int(values.min())
    width = int(values.max()) - low + 1
    groups = int(totals.shape[0])
    if groups * width > _CELLS_PER_ROW * values.shape[0] + 1024:
        return None
    cell = group * width + (values.astype(np.int64) - low)
    table = np.bincount(cell, weights=weights, minlength=groups * width).reshape(groups, width)
    # weights are integers far below 2^53: the float sums are exact
    running = np.cumsum(table, axis=1)
    reached = 2 * running >= totals[:, None]
    result: Column = (np.argmax(reached, axis=1) + low).astype(values.dtype)
    return result


def _group_order(keys: Sequence[IntArray]) -> IntArray:
    """An order putting rows of equal ``keys`` next to each other, groups sorted by the keys
    (first key first). Rows within a group come in any order: what is computed over a group
    (sums of integer weights, minima, maxima) does not depend on it."""
    if keys[0].shape[0] == 0:
        return np.zeros(0, np.int64)
    combined = col.combined_key(keys)
    if combined is None:
        return col.order_by(*keys)
    order: IntArray = np.argsort(combined).astype(np.int64)
    return order


__all__ = ["MemoryWorkingSet"]
