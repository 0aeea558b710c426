"""Helpers of the full-domain tests: random ARX level tables and tables, the shipped ARX Adult,
and an independent (pandas, row by row) computation of node statistics and objectives."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pa_csv
from paths import ROOT

from anonsql.algorithms.full_domain import LevelHierarchy, levels_from_hierarchy, levels_from_rows
from anonsql.engines import Engine
from anonsql.hierarchies import read_hierarchy
from anonsql.sql import TableName

ADULT_ARX = ROOT / "datasets" / "adult-arx" / "adult.csv.gz"
ADULT_ARX_HIERARCHIES = ROOT / "hierarchies" / "adult-arx"
SOURCE = TableName("src", "main")
WORK = "fdwork"


def random_rows(rng: np.random.Generator, prefix: str, leaves: int, height: int) -> list[list[str]]:
    """An ARX level table: ``leaves`` values under a random tree of ``height`` levels (groups
    halving in number level by level), some branches padded by repeating the leaf."""
    rows = []
    for v in range(leaves):
        row = [f"{prefix}{v}"]
        for lv in range(1, height):
            row.append(f"{prefix}_L{lv}_{v >> lv}")
        row.append("*")
        if height >= 2 and rng.random() < 0.3:
            keep = int(rng.integers(1, height))
            row[1 : keep + 1] = [row[0]] * keep
        rows.append(row)
    return rows


def random_qids(
    rng: np.random.Generator, dims: int, *, max_leaves: int = 8, max_height: int = 3
) -> list[LevelHierarchy]:
    qids = []
    for i in range(dims):
        leaves = int(rng.integers(2, max_leaves + 1))
        height = int(rng.integers(1, max_height + 1))
        rows = random_rows(rng, f"c{i}v", leaves, height)
        qids.append(levels_from_rows(rows, column=f"c{i}"))
    return qids


def random_table(
    rng: np.random.Generator, rows: int, qids: Sequence[LevelHierarchy], *, sensitive: int = 0
) -> pa.Table:
    """Skewed random values of every quasi-identifier (and a sensitive column ``sa``)."""
    columns: dict[str, Any] = {}
    for q in qids:
        weights = rng.dirichlet(np.full(q.leaf_count, 0.7))
        picks = rng.choice(q.leaf_count, size=rows, p=weights)
        columns[q.column] = pa.array([q.hierarchy.leaves[p] for p in picks], pa.string())
    if sensitive:
        columns["sa"] = pa.array(rng.integers(0, sensitive, size=rows).astype(np.int64))
    return pa.table(columns)


def load(engine: Engine, table: pa.Table) -> None:
    engine.drop(SOURCE)
    engine.load_arrow(SOURCE, table)
    engine.ensure_schema(WORK)


def adult_arx(*, without: Sequence[str] = ()) -> tuple[pa.Table, list[LevelHierarchy]]:
    """ARX's Adult (30,162 rows) and its hierarchies, columns in the file's order."""
    data = pa_csv.read_csv(ADULT_ARX, parse_options=pa_csv.ParseOptions(delimiter=";"))
    qids = [
        levels_from_hierarchy(read_hierarchy(ADULT_ARX_HIERARCHIES / f"{c}.csv", name=c))
        for c in data.column_names
        if c not in without
    ]
    return data, qids


# -- the independent reference ----------------------------------------------------------------


def _labels(q: LevelHierarchy, level: int) -> dict[str, str]:
    """value -> label at ``level``, from the level table's positions."""
    h = q.hierarchy
    return {h.leaves[r]: h.nodes[int(q.level_nodes[r, level])].label for r in range(q.leaf_count)}


def reference(
    table: pa.Table,
    qids: Sequence[LevelHierarchy],
    levels: Sequence[int],
    *,
    k: int,
    l_column: str | None = None,
    ell: int = 0,
) -> dict[str, Any]:
    """Node statistics and every objective, computed from the rows with pandas.

    Classes fail when smaller than ``k`` (or, with ``l_column``, when they hold fewer than
    ``ell`` distinct values of it); failing classes are suppressed.
    """
    df = table.to_pandas()
    n = len(df)
    gen = pd.DataFrame(
        {q.column: df[q.column].map(_labels(q, lv)) for q, lv in zip(qids, levels, strict=True)}
    )
    keys = [q.column for q in qids]
    grouped = gen.groupby(keys, sort=False)
    size = grouped[keys[0]].transform("size")
    fails = size < k
    if l_column is not None:
        distinct = df[l_column].groupby([gen[c] for c in keys]).transform("nunique")
        fails |= distinct < ell
    sizes = grouped.size()
    class_fails = (sizes < k).to_numpy()
    if l_column is not None:
        per_class = df[l_column].groupby([gen[c] for c in keys]).nunique()
        class_fails = class_fails | (per_class.reindex(sizes.index) < ell).to_numpy()
    counts = sizes.to_numpy()
    suppressed = int(fails.sum())
    out: dict[str, Any] = {
        "classes": len(counts),
        "suppressed_rows": suppressed,
        "dm_star": float((counts.astype(np.int64) ** 2).sum()),
        "dm": float((counts[~class_fails].astype(np.int64) ** 2).sum()) + n * suppressed,
    }
    ncp, loss, ent_m, ent_nm = [], [], [], []
    for q, lv in zip(qids, levels, strict=True):
        labels = gen[q.column]
        lab = _labels(q, lv)
        leaves_under = pd.Series(list(lab.values())).value_counts()
        node_ncp = {
            label: (leaves_under[label] / q.leaf_count if leaves_under[label] > 1 else 0.0)
            for label in leaves_under.index
        }
        # ncp in percent, suppressed rows cost 1
        row_ncp = labels.map(node_ncp).where(~fails, 1.0)
        ncp.append(100.0 * row_ncp.sum() / n)
        # ARX loss: domain share of the label at this level, suppressed rows cost 1
        share = labels.map(leaves_under / q.leaf_count).where(~fails, 1.0)
        low = n / q.leaf_count
        loss.append(max(0.0, (share.sum() - low) / (n - low)) if n > low else 0.0)
        # non-uniform entropy from the marginals: sum a log2(b / a)
        a = df[q.column].value_counts()
        b = labels.value_counts()
        gen_of = {v: lab[v] for v in a.index}
        e = sum(float(a[v]) * math.log2(float(b[gen_of[v]]) / float(a[v])) for v in a.index)
        ent_m.append(e)
        sup = labels[fails].value_counts()
        penalty = sum(float(c) * math.log2(suppressed / float(c)) for c in sup if c > 0)
        ent_nm.append(e + penalty)
    out["ncp"] = sum(ncp) / len(ncp)
    out["loss_per_qid"] = loss
    out["loss"] = math.prod((v + 1.0) ** (1.0 / len(loss)) for v in loss) - 1.0
    out["entropy"] = sum(ent_m)
    out["entropy_nm"] = sum(ent_nm)
    return out
