"""Lattice nodes grouped in memory, over a small frequency table read once.

On a small source a node statement's fixed cost (rendering, parsing and planning it, the round
trip) outweighs grouping the rows: the frequency table's path codes (one integer per
quasi-identifier and distinct vector, :class:`~.lattice.LevelHierarchy`) and row counts are then
read once, and a node's classes are the codes shifted right to its levels, packed into one key
per vector, with the rows summed per key (LeFevre et al., "Incognito", SIGMOD 2005, evaluate
nodes from a frequency set in the same way). The statistics are those the node statements
(``node_summary``, ``node_profile``) return; ``tests/algorithms/full_domain`` holds the two to each
other and to the rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from anonsql import arrow
from anonsql.algorithms.full_domain.lattice import LevelHierarchy
from anonsql.arrays import IntArray
from anonsql.engines import Engine
from anonsql.sql import TableName

#: The widest key packed into one int64 (bits); wider vectors are ranked densely on the way.
_KEY_BITS = 62


@dataclass(frozen=True, eq=False)
class CodedClasses:
    """Equivalence classes in memory: per class and quasi-identifier its code at ``levels``
    (None: the frequency table's path codes, every column at level 0), and its rows."""

    levels: tuple[int, ...] | None
    codes: IntArray
    counts: IntArray

    @property
    def size(self) -> int:
        """The classes (vectors of the frequency table): what computing from it costs."""
        return len(self.counts)


def read_codes(engine: Engine, freq: TableName, qids: int) -> CodedClasses:
    """The frequency table's path codes and row counts (one statement)."""
    columns = [f"q{i}" for i in range(qids)]
    table = engine.query_arrow("full_domain/node_codes", freq=freq, columns=columns)
    counts = arrow.to_numpy(table.column("n")).astype(np.int64)
    if table.num_rows == 0:
        return CodedClasses(None, np.zeros((0, qids), dtype=np.int64), counts)
    codes = _stack([arrow.to_numpy(table.column(c)).astype(np.int64) for c in columns])
    return CodedClasses(None, codes, counts)


def group(
    source: CodedClasses, levels: Sequence[int], qids: Sequence[LevelHierarchy]
) -> CodedClasses:
    """The classes of the node at ``levels``, from ``source`` (at or below it in the lattice)."""
    columns: list[IntArray] = []
    widths: list[int] = []
    for i, (level, qid) in enumerate(zip(levels, qids, strict=True)):
        base = 0 if source.levels is None else qid.shifts[source.levels[i]]
        shift = qid.shifts[level] - base
        column = source.codes[:, i]
        columns.append(column >> shift if shift else column)
        widths.append(qid.shifts[-1] - qid.shifts[level])
    node = tuple(int(v) for v in levels)
    if source.size == 0:
        return CodedClasses(node, source.codes, source.counts)
    key = _key(columns, widths)
    order = np.argsort(key)
    ordered = key[order]
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    counts = np.add.reduceat(source.counts[order], starts).astype(np.int64)
    return CodedClasses(node, _stack([column[order[starts]] for column in columns]), counts)


def summary(classes: CodedClasses, k: int) -> tuple[int, int, int, int, int, int]:
    """``node_summary``'s row: rows of classes below ``k``, classes, rows, classes below ``k``,
    and the sums of squared class sizes over the kept classes and over all classes."""
    n = classes.counts
    small = n < k
    squares = n * n
    return (
        int(n[small].sum()),
        len(n),
        int(n.sum()),
        int(small.sum()),
        int(squares[~small].sum()),
        int(squares.sum()),
    )


def profile(
    classes: CodedClasses, qids: Sequence[LevelHierarchy], below: int
) -> tuple[tuple[IntArray, IntArray], ...]:
    """``node_profile``'s answer: per quasi-identifier, the rows of the classes below ``below``
    by the hierarchy node of their value."""
    assert classes.levels is not None
    small = classes.counts < below
    counts = classes.counts[small]
    per_qid = []
    for i, (level, qid) in enumerate(zip(classes.levels, qids, strict=True)):
        codes, inverse = np.unique(classes.codes[small, i], return_inverse=True)
        rows = np.bincount(inverse.reshape(-1), weights=counts, minlength=len(codes))
        per_qid.append((qid.nodes_of(level, codes), rows.astype(np.int64)))
    return tuple(per_qid)


def _stack(columns: Sequence[IntArray]) -> IntArray:
    """Columns side by side, each contiguous (a node reads the codes column by column)."""
    codes: IntArray = np.empty((len(columns[0]), len(columns)), dtype=np.int64, order="F")
    for i, column in enumerate(columns):
        codes[:, i] = column
    return codes


def _key(columns: Sequence[IntArray], widths: Sequence[int]) -> IntArray:
    """One integer per vector, equal exactly when the vectors are: the columns' bits packed,
    ranked densely whenever the next column would not fit in ``_KEY_BITS``."""
    key = columns[0]
    bits = widths[0]
    for column, width in zip(columns[1:], widths[1:], strict=True):
        if bits + width > _KEY_BITS:
            _, ranks = np.unique(key, return_inverse=True)
            key = ranks.reshape(-1).astype(np.int64)
            bits = max(int(key.max()).bit_length(), 1)
        key = (key << np.int64(width)) | column
        bits += width
    return key
