"""An independent recomputation of a workload query's error (docs/metrics.md, "Workload
error"), in pandas and plain Python: no anonsql code, the definitions as the docs state them."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

FLOOR = 1.0


@dataclass(frozen=True)
class RefQuery:
    aggregate: str  # count | sum | avg
    column: str | None
    #: (column, op, values): op in between, <, <=, >, >=, =, in
    where: Sequence[tuple[str, str, Sequence[Any]]]
    group_by: Sequence[str]


def _passes(value: Any, op: str, values: Sequence[Any]) -> bool:
    if op == "between":
        return bool(values[0] <= value <= values[1])
    if op == "in":
        return value in values
    v = values[0]
    passed: bool = {
        "<": value < v,
        "<=": value <= v,
        ">": value > v,
        ">=": value >= v,
        "=": value == v,
    }[op]
    return passed


def _interval(text: str) -> tuple[float, float]:
    if text.startswith("["):
        lo, hi = text[1:-1].split(", ")
        return float(lo), float(hi)
    return float(text), float(text)


def reference_error(
    source: pd.DataFrame,
    release: pd.DataFrame,
    query: RefQuery,
    kinds: Mapping[str, str],
    leaves_under: Mapping[str, Mapping[str, Sequence[str]]],
) -> tuple[int, float, float]:
    """(groups, mean relative error, total error) of ``query``. ``kinds``: each
    quasi-identifier's kind (integer, real, categorical); ``leaves_under``: per categorical
    one, node label -> its leaves."""
    qids = [c for c in dict.fromkeys([*query.group_by, *(w[0] for w in query.where)]) if c in kinds]
    # truth
    truth: dict[tuple[Any, ...], list[float]] = defaultdict(lambda: [0.0, 0.0])
    if not query.group_by:
        truth[()] = [0.0, 0.0]  # a query without GROUP BY is one group, even without rows
    for row in source.to_dict("records"):
        if not all(_passes(row[c], op, vs) for c, op, vs in query.where):
            continue
        key = tuple(
            row[g] if g not in kinds or kinds[g] == "categorical" else float(row[g])
            for g in query.group_by
        )
        _add(truth[key], row, query, 1.0)
    # estimate
    estimate: dict[tuple[Any, ...], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for row in release.to_dict("records"):
        others = [w for w in query.where if w[0] not in kinds]
        if not all(_passes(row[c], op, vs) for c, op, vs in others):
            continue
        cells: list[dict[Any, float]] = []
        for q in qids:
            conditions = [w for w in query.where if w[0] == q]
            if kinds[q] == "categorical":
                points: list[Any] = list(leaves_under[q][str(row[q])])
            else:
                lo, hi = _interval(str(row[q]))
                if kinds[q] == "integer":
                    points = [float(i) for i in range(math.ceil(lo), math.floor(hi) + 1)]
                else:
                    points = sorted({float(v) for v in source[q] if lo <= v <= hi})
            passing = [p for p in points if all(_passes(p, op, vs) for _, op, vs in conditions)]
            if q in query.group_by:
                cells.append({p: 1 / len(points) for p in passing})
            else:
                cells.append({None: len(passing) / len(points)} if passing else {})
        combos: list[tuple[dict[str, Any], float]] = [({}, 1.0)]
        for q, cell in zip(qids, cells, strict=True):
            combos = [({**k, q: p}, f * g) for k, f in combos for p, g in cell.items()]
        for chosen, f in combos:
            key = tuple(chosen[g] if g in kinds else row[g] for g in query.group_by)
            _add(estimate[key], row, query, f)
    # compare
    if query.aggregate == "avg":
        keys = [k for k, (c, _) in truth.items() if c > 0]
    else:
        keys = list(dict.fromkeys([*truth, *estimate]))
    errors, absolute, total = [], 0.0, 0.0
    for k in keys:
        t, e = truth.get(k, [0.0, 0.0]), estimate.get(k, [0.0, 0.0])
        if query.aggregate == "count":
            tv, ev = t[0], e[0]
        elif query.aggregate == "sum":
            tv, ev = t[1], e[1]
        else:
            tv, ev = t[1] / t[0], (e[1] / e[0] if e[0] > 0 else 0.0)
        errors.append(abs(ev - tv) / max(abs(tv), FLOOR))
        absolute += abs(ev - tv)
        total += abs(tv)
    mean = sum(errors) / len(errors) if errors else 0.0
    return len(keys), mean, absolute / max(total, FLOOR)


def _add(acc: list[float], row: Mapping[Any, Any], query: RefQuery, f: float) -> None:
    if query.column is None:
        acc[0] += f
    elif row[query.column] is not None and not pd.isna(row[query.column]):
        acc[0] += f
        acc[1] += f * float(row[query.column])
