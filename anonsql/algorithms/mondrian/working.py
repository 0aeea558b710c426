"""Where Mondrian's working rows live between rounds, and the five things a round asks of them.

A round (see :mod:`.algorithm`) reads per-partition statistics of a window of partitions, the
per-bin counts and ranges of the candidate splits, and then either finishes the window or gives
the rows of the partitions that split their new partition ids. :class:`SqlWorkingSet` answers
with aggregate SQL over the working table in the engine; :class:`.in_memory.MemoryWorkingSet`
answers the same questions with numpy once the working rows are few enough to hold, where a
round costs a few array passes instead of a dozen statements. Both return the same Arrow
results, so the planning code above them, and therefore the partitioning, does not depend on
which one ran a round (``tests/algorithms/mondrian/test_in_memory.py``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from anonsql.algorithms.workspace import Dimension
from anonsql.engines.base import Engine
from anonsql.sql import TableName

#: A half-open range of partition ids, [first, last).
Window = tuple[int, int]


class WorkingSet(ABC):
    """Mondrian's working rows (pid, the payload columns, optionally a weight column)."""

    @abstractmethod
    def pending(self) -> tuple[int | None, int]:
        """The lowest partition id still pending (None when every row is finished) and the
        number of working rows left."""

    @abstractmethod
    def stats(self, window: Window) -> pa.Table:
        """Per partition of the window, ordered by pid: ``pid``, ``n`` (rows), and per dimension
        ``min<i>``, ``max<i>`` and, for numeric ones, ``med<i>`` (the weighted
        ``PERCENTILE_DISC(0.5)``), as ``mondrian/stats.sql`` returns them."""

    @abstractmethod
    def set_state(self, pstate: pa.Table) -> None:
        """The round's split parameters (``pid``, ``t<i>`` splittable along i, ``p<i>``: median
        or depth of the lowest common ancestor), read by the next three calls."""

    @abstractmethod
    def bin_ranges(self) -> pa.Table:
        """Per (pid, dim, bin) of the candidate splits: ``n`` and every dimension's ``lo<i>``
        and ``hi<i>`` (``mondrian/bin_ranges.sql``), in no particular order."""

    @abstractmethod
    def candidates(self, sa: str | None) -> pa.Table:
        """Per (pid, dim, bin[, sa]) of the candidate splits: ``n`` (``mondrian/candidates``),
        grouped by the sensitive code column ``sa`` too when given; in no particular order."""

    @abstractmethod
    def finish_window(self, window: Window) -> None:
        """Nothing in the window splits: its rows are finished."""

    @abstractmethod
    def rewrite(self, window: Window, split: pa.Table, decisions: pa.Table) -> None:
        """Finish the window's partitions not in ``split`` (pid, dim, depth); give the rows of
        those in it the ``new_pid`` that ``decisions`` (pid, bin, new_pid) names for their bin
        along the split dimension."""


class SqlWorkingSet(WorkingSet):
    """The working rows as a table of the engine, every question one or a few statements."""

    def __init__(
        self,
        engine: Engine,
        *,
        tables: dict[str, TableName],
        work: TableName,
        weight: str | None,
        dims: Sequence[Dimension],
        payload: Sequence[str],
        ancestors: TableName,
    ) -> None:
        self.engine = engine
        #: Where each decision table is created, and (``t``) the name the statements read it by.
        self.targets = dict(tables)
        self.t = dict(tables)
        self.work = work
        self.weight = weight
        self.dims = list(dims)
        self.categorical = [d for d in self.dims if not d.is_numeric]
        self.payload = list(payload)
        self.ancestors = ancestors

    @property
    def common(self) -> dict[str, Any]:
        """The parameters every per-bin template of a round takes."""
        return {
            "work": self.work,
            "weight": self.weight,
            "pstate": self.t["pstate"],
            "ancestors": self.ancestors,
            "dims": self.dims,
        }

    def pending(self) -> tuple[int | None, int]:
        lo, rows = self.engine.query("mondrian/first_pending", work=self.work)[0]
        return (None if lo is None else int(lo)), int(rows)

    def stats(self, window: Window) -> pa.Table:
        return self.engine.query_arrow(
            "mondrian/stats", work=self.work, dims=self.dims, window=window, weight=self.weight
        )

    def set_state(self, pstate: pa.Table) -> None:
        self._replace("pstate", pstate)

    def bin_ranges(self) -> pa.Table:
        return self.engine.query_arrow("mondrian/bin_ranges", **self.common)

    def candidates(self, sa: str | None) -> pa.Table:
        return self.engine.query_arrow("mondrian/candidates", sa=sa, **self.common)

    def finish_window(self, window: Window) -> None:
        self.engine.run(
            "mondrian/finish_window", done=self.t["done"], work=self.work, window=window
        )

    def rewrite(self, window: Window, split: pa.Table, decisions: pa.Table) -> None:
        self._replace("split", split)
        self._replace("decisions", decisions)
        self.engine.run(
            "mondrian/rewrite",
            done=self.t["done"],
            work=self.work,
            work_next=self.t["rows_next"],
            split=self.t["split"],
            pstate=self.t["pstate"],
            decisions=self.t["decisions"],
            ancestors=self.ancestors,
            dims=self.dims,
            categorical=self.categorical,
            payload=self.payload,
            window=window,
        )
        self.engine.analyze(self.work)

    def read(self) -> pa.Table:
        """Every working row (to continue the rounds in memory)."""
        return self.engine.query_arrow("select_all", relation=self.work)

    def _replace(self, name: str, table: pa.Table) -> None:
        """(Re)load a small decision table of this run; later statements read it by ``t[name]``."""
        self.t[name] = self.engine.scratch(self.targets[name], table)


__all__ = ["SqlWorkingSet", "Window", "WorkingSet"]
