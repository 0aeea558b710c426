"""Vectorized evaluation of candidate parts against every declared privacy model.

Algorithms describe candidate splits as *bins* (one row per partition, dimension and bin, with
its row count and sensitive-value histograms) and ask which unions of bins would satisfy the
models. Nothing here loops over partitions in Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa

from anonsql import arrow
from anonsql.algorithms.mondrian import columnar as col
from anonsql.algorithms.mondrian.columnar import Rows
from anonsql.algorithms.mondrian.population import PopulationPoints
from anonsql.algorithms.workspace import SensitiveAttribute
from anonsql.arrays import BoolArray, FloatArray, IntArray
from anonsql.privacy import histograms as hist
from anonsql.privacy.base import PartStats, PrivacyModel
from anonsql.privacy.histograms import Histogram


@dataclass
class Bins:
    """One row per (partition, dimension, bin): the aggregates a split decision needs
    (histograms sparse, as in :mod:`anonsql.privacy.histograms`), with the optional fields of
    :class:`~anonsql.privacy.base.PartStats` for individuals owning several records (summed,
    or for ``max_records`` maximized, over unions of bins)."""

    pid: IntArray
    dim: IntArray
    bin: IntArray
    counts: IntArray
    histograms: dict[str, Histogram]
    records: IntArray | None = None
    max_records: IntArray | None = None
    record_histograms: dict[str, Histogram] = field(default_factory=dict)
    set_histograms: dict[str, Histogram] = field(default_factory=dict)
    #: Per dimension, each bin's smallest and largest code (``mondrian/bin_ranges``), when a
    #: model reads the population its parts' published boxes match (k-map).
    lo: dict[int, FloatArray] = field(default_factory=dict)
    hi: dict[int, FloatArray] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.pid.shape[0])

    def with_ranges(self, ranges: Rows, dims: Sequence[int]) -> Bins:
        """These bins with their ranges (``split_choice.ranges_rows``'s rows, any order)."""
        at = col.lookup(
            (self.pid, self.dim, self.bin), (ranges["pid"], ranges["dim"], ranges["bin"])
        )
        if (at < 0).any():  # pragma: no cover - the two queries group by the same bins
            raise AssertionError("a candidate bin has no range")
        self.lo = {d: ranges[f"lo{d}"][at].astype(np.float64) for d in dims}
        self.hi = {d: ranges[f"hi{d}"][at].astype(np.float64) for d in dims}
        return self

    @classmethod
    def from_arrow(
        cls,
        count_table: pa.Table | None,
        sa_tables: dict[str, pa.Table],
        sensitive: Sequence[SensitiveAttribute],
    ) -> Bins:
        """Assemble bins from the candidate queries' results.

        ``count_table`` has columns (pid, dim, bin, n); each of ``sa_tables`` has
        (pid, dim, bin, sa, n) for one sensitive column. With sensitive tables the counts are
        the histograms' row sums, and the count query is not needed.
        """
        frames = {column: columns_of(t) for column, t in sa_tables.items()}
        if count_table is not None:
            groups = columns_of(count_table)
        else:
            groups = _summed(next(iter(frames.values())))
        groups = groups.take(col.order_by(groups["pid"], groups["dim"], groups["bin"]))
        by_column = {s.column: s for s in sensitive}
        return cls(
            pid=groups["pid"],
            dim=groups["dim"],
            bin=groups["bin"],
            counts=groups["n"],
            histograms={
                column: triples(groups, frame, "n", by_column[column].distinct)
                for column, frame in frames.items()
            },
        )


def columns_of(table: pa.Table) -> Rows:
    """A query result's columns as int64 arrays."""
    return Rows(
        {name: arrow.to_numpy(table.column(name)).astype(np.int64) for name in table.column_names}
    )


def _summed(frame: Rows) -> Rows:
    """(pid, dim, bin, n) with ``n`` summed over each key."""
    key = col.codes(frame["pid"], frame["dim"], frame["bin"])
    group, first = col.groups_in_order(key)
    n = np.zeros(first.shape[0], np.int64)
    np.add.at(n, group, frame["n"])
    return Rows(
        {
            "pid": frame["pid"][first],
            "dim": frame["dim"][first],
            "bin": frame["bin"][first],
            "n": n,
        }
    )


def triples(groups: Rows, frame: Rows, count: str, width: int) -> Histogram:
    """The histogram over ``groups`` (sorted bins) of a (pid, dim, bin, sa, ``count``) result."""
    g = col.lookup(
        (frame["pid"], frame["dim"], frame["bin"]), (groups["pid"], groups["dim"], groups["bin"])
    )
    return hist.from_triples(g, frame["sa"], frame[count], (len(groups), width))


class PartEvaluator:
    """Evaluates unions of bins against all privacy models at once."""

    def __init__(
        self,
        models: Sequence[PrivacyModel],
        sensitive: Sequence[SensitiveAttribute],
        *,
        set_members: dict[str, Histogram] | None = None,
        population: PopulationPoints | None = None,
    ) -> None:
        self.models = list(models)
        #: The population whose persons each part's box matches (k-map), None when no model
        #: reads one.
        self.population = population
        self.global_counts = {s.column: s.global_counts for s in sensitive}
        #: The distinct value sets of individuals (``PartStats.set_members``), when bins
        #: carry the fields for individuals.
        self.set_members = dict(set_members or {})

    def holds(self, parts: PartStats) -> BoolArray:
        result = np.ones(len(parts), dtype=bool)
        for model in self.models:
            if len(parts) == 0:
                break
            result &= model.holds(parts)
        return result

    def union_stats(
        self, bins: Bins, members: IntArray, owners: IntArray, n_parts: int
    ) -> PartStats:
        """Stats of ``n_parts`` parts; part ``owners[i]`` contains bin ``members[i]``."""
        counts = np.bincount(owners, weights=bins.counts[members], minlength=n_parts).astype(
            np.int64
        )
        hists = {
            column: hist.union(h, members, owners, n_parts) for column, h in bins.histograms.items()
        }
        stats = PartStats(counts=counts, histograms=hists, global_counts=self.global_counts)
        if self.population is not None:
            lo = {d: _reduced(np.minimum, v[members], owners, n_parts) for d, v in bins.lo.items()}
            hi = {d: _reduced(np.maximum, v[members], owners, n_parts) for d, v in bins.hi.items()}
            stats.population = self.population.persons_in(lo, hi)
        if bins.records is None or bins.max_records is None:
            return stats
        top = np.zeros(n_parts, dtype=np.int64)
        np.maximum.at(top, owners, bins.max_records[members])
        return self._individuals(
            stats,
            records=np.bincount(owners, weights=bins.records[members], minlength=n_parts).astype(
                np.int64
            ),
            max_records=top,
            record_histograms={
                c: hist.union(h, members, owners, n_parts)
                for c, h in bins.record_histograms.items()
            },
            set_histograms={
                c: hist.union(h, members, owners, n_parts) for c, h in bins.set_histograms.items()
            },
        )

    def _individuals(
        self,
        stats: PartStats,
        *,
        records: IntArray,
        max_records: IntArray,
        record_histograms: dict[str, Histogram],
        set_histograms: dict[str, Histogram],
    ) -> PartStats:
        """``stats`` with the fields for individuals."""
        stats.records = records
        stats.max_person_records = max_records
        stats.record_histograms = record_histograms
        stats.set_histograms = set_histograms
        stats.set_members = self.set_members
        return stats

    def bin_stats(self, bins: Bins, rows: IntArray) -> PartStats:
        stats = PartStats(
            counts=bins.counts[rows],
            histograms={c: hist.take(h, rows) for c, h in bins.histograms.items()},
            global_counts=self.global_counts,
        )
        if self.population is not None:
            stats.population = self.population.persons_in(
                {d: v[rows] for d, v in bins.lo.items()}, {d: v[rows] for d, v in bins.hi.items()}
            )
        if bins.records is None or bins.max_records is None:
            return stats
        return self._individuals(
            stats,
            records=bins.records[rows],
            max_records=bins.max_records[rows],
            record_histograms={c: hist.take(h, rows) for c, h in bins.record_histograms.items()},
            set_histograms={c: hist.take(h, rows) for c, h in bins.set_histograms.items()},
        )

    def prefix_stats(self, bins: Bins, order: IntArray, starts: IntArray) -> PartStats:
        """Cumulative stats along ``order``, restarting at each index in ``starts``."""
        seg = np.zeros(order.shape[0], dtype=np.int64)
        seg[starts[1:]] = 1
        seg = np.cumsum(seg)

        sizes = bins.counts[order]
        total: IntArray = np.cumsum(sizes)
        base: IntArray = total[starts] - sizes[starts]
        stats = PartStats(
            counts=total - base[seg],
            histograms={c: hist.prefix_sums(h, order, starts) for c, h in bins.histograms.items()},
            global_counts=self.global_counts,
        )
        if self.population is not None:
            stats.population = self.population.persons_in(
                {d: _running(np.minimum, v[order], seg) for d, v in bins.lo.items()},
                {d: _running(np.maximum, v[order], seg) for d, v in bins.hi.items()},
            )
        if bins.records is None or bins.max_records is None:
            return stats
        records = bins.records[order]
        running = np.cumsum(records)
        # a running maximum restarting at each start: lift each segment above the ones before
        lift = int(bins.max_records.max(initial=0)) + 1
        tops = np.maximum.accumulate(bins.max_records[order] + seg * lift) - seg * lift
        return self._individuals(
            stats,
            records=running - (running[starts] - records[starts])[seg],
            max_records=tops.astype(np.int64),
            record_histograms={
                c: hist.prefix_sums(h, order, starts) for c, h in bins.record_histograms.items()
            },
            set_histograms={
                c: hist.prefix_sums(h, order, starts) for c, h in bins.set_histograms.items()
            },
        )


def _reduced(reduce: np.ufunc, values: FloatArray, owners: IntArray, n_parts: int) -> FloatArray:
    """Per part, ``reduce`` (minimum or maximum) of its members' ``values``; empty parts get
    +inf for a minimum and -inf for a maximum (an empty box)."""
    out = np.full(n_parts, np.inf if reduce is np.minimum else -np.inf)
    reduce.at(out, owners, values)
    return out


def _running(accumulate: np.ufunc, values: FloatArray, segment: IntArray) -> FloatArray:
    """The running minimum or maximum of ``values``, restarting where ``segment`` changes
    (non-decreasing): exact, on the values' ranks lifted by segment."""
    if values.shape[0] == 0:
        return values
    distinct, rank = np.unique(values, return_inverse=True)
    rank = rank.reshape(-1).astype(np.int64)
    lift = distinct.shape[0] + 1
    if accumulate is np.minimum:
        # a running minimum is a running maximum of the reversed ranks
        rank = distinct.shape[0] - 1 - rank
    running = np.maximum.accumulate(rank + segment * lift) - segment * lift
    if accumulate is np.minimum:
        running = distinct.shape[0] - 1 - running
    result: FloatArray = distinct[running]
    return result
