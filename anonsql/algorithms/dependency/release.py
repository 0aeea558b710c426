"""Clusters back into the engine: decision tables, rows assigned to clusters, and a release.

The clustering algorithms work on records expanded from distinct encoded signatures (see
:mod:`anonsql.algorithms.dependency.encoding`); records of one signature are interchangeable, so a
decision only says how many rows of each signature go to each cluster. The decision table holds
one row per (signature, cluster) with the signature's codes, ``pid`` (-1: suppressed) and an
ordinal range ``first .. last`` (1-based); the engine numbers each signature's rows by
``order_by`` columns and joins. Only codes and counts cross to the engine, never values.

:func:`write_release` then publishes the clusters the way anonsql publishes partitions
(numeric ``"[lo, hi]"``, or the value when ``lo = hi``; categorical the LCA's label;
suppressed rows left out). It serves tests and benchmarks; the pipeline publishes through its
common path from the same ``parts`` shape.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pyarrow as pa

from anonsql import arrow
from anonsql.algorithms.dependency.encoding import EncodedRecords, Quasi, kept_columns
from anonsql.algorithms.dependency.result import ClusteringResult
from anonsql.engines.base import Engine
from anonsql.errors import SpecError
from anonsql.spec.dependencies import FunctionalDependency
from anonsql.sql import TableName


def decision_table(records: EncodedRecords, result: ClusteringResult) -> pa.Table:
    """One row per (signature, cluster): the signature's code columns ``c<a>``, ``pid``, and
    the ordinal range ``first``/``last`` of its rows that go there."""
    sig = records.signature
    labels = result.labels
    order = np.lexsort((labels, sig))
    pairs = np.stack([sig[order], labels[order]], axis=1)
    unique, counts = np.unique(pairs, axis=0, return_counts=True)
    signature, pid = unique[:, 0], unique[:, 1]
    starts = np.r_[True, signature[1:] != signature[:-1]]
    group = np.cumsum(starts) - 1
    cumulative = np.cumsum(counts)
    before = cumulative - counts
    base = before[np.flatnonzero(starts)][group]
    first = before - base + 1
    last = first + counts - 1
    columns: dict[str, pa.Array] = {}
    for name in records.signatures.column_names:
        if name != "n":
            columns[name] = records.signatures.column(name).take(arrow.array(signature))
    columns["pid"] = arrow.array(pid, pa.int64())
    columns["first"] = arrow.array(first, pa.int64())
    columns["last"] = arrow.array(last, pa.int64())
    return arrow.table(columns)


def _qi_items(quasis: Sequence[Quasi], leaves: Mapping[str, TableName]) -> list[dict[str, object]]:
    return [
        {
            "code": f"c{a}",
            "column": q.column,
            "is_numeric": q.hierarchy is None,
            "leaves": leaves.get(q.column),
            "index": a,
        }
        for a, q in enumerate(quasis)
    ]


def assign_rows(
    engine: Engine,
    source: TableName,
    quasis: Sequence[Quasi],
    fds: Sequence[FunctionalDependency],
    leaves: Mapping[str, TableName],
    decisions: TableName,
    target: TableName,
    order_by: Sequence[str] | None = None,
) -> None:
    """Create ``target``: every row of ``source`` (a table) with its cluster in column
    ``__anonsql_pid`` (-1 suppressed) before its columns. Rows of one signature are numbered by
    ``order_by`` (default: every column, so the assignment is the same on every engine; rows
    equal on all of them are interchangeable)."""
    catalog = engine.columns(source)
    if catalog is None:
        raise SpecError("source", f"{source} does not exist", "check the table name")
    columns = [c.name for c in catalog]
    order = list(order_by) if order_by is not None else columns
    unknown = [c for c in order if c not in columns]
    if unknown:
        raise SpecError("order_by", f"column {unknown[0]!r} is not in {source}", "name a column")
    kept = kept_columns(quasis, fds)
    engine.run(
        "dependency/assign_rows",
        source=source,
        qis=_qi_items(quasis, leaves),
        kept=[(f"c{len(quasis) + j}", name) for j, name in enumerate(kept)],
        decisions=decisions,
        target=target,
        columns=columns,
        order_by=order,
    )


def write_release(
    engine: Engine,
    assigned: TableName,
    parts: TableName,
    quasis: Sequence[Quasi],
    nodes: Mapping[str, TableName],
    passthrough: Sequence[str],
    target: TableName,
) -> None:
    """Create ``target``: the published relation of assigned rows (:func:`assign_rows`) and the
    ``parts`` table of a :class:`ClusteringResult` loaded into the engine."""
    engine.run(
        "dependency/release",
        assigned=assigned,
        parts=parts,
        qis=[
            {
                "column": q.column,
                "index": a,
                "is_numeric": q.hierarchy is None,
                "nodes": nodes.get(q.column),
            }
            for a, q in enumerate(quasis)
        ],
        passthrough=list(passthrough),
        target=target,
    )
