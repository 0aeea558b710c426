"""An independent recomputation of the linkage measures (docs/security.md, "Linkage"), in
pandas, straight from their definitions: no leaf ranks, no running counts.

* recovery of ``q`` through ``columns``: a published row whose ``q`` covers two or more values
  is recovered when exactly one value inside its cover occurs in the source together with the
  row's values of ``columns``. A numeric cover is the interval ``[lo, hi]`` of its text; a
  categorical one the leaves of the hierarchy whose path (leaf to root, as in the hierarchy
  file) passes through the label;
* refined classes: the individuals (rows, or distinct persons) of each class keyed by the
  quasi-identifiers and the known columns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

#: A hierarchy as the file gives it: one path per leaf, leaf first, root last.
Paths = Sequence[Sequence[str]]


def cover(value: Any, paths: Paths | None) -> set[Any] | tuple[float, float] | None:
    """What a published value covers: an interval (numeric, ``paths`` None), a set of leaves,
    or None when it covers one value only."""
    text = str(value)
    if paths is None:
        if not text.startswith("["):
            return None
        lo, hi = (float(part) for part in text[1:-1].split(", "))
        return (lo, hi) if lo < hi else None
    leaves = {path[0] for path in paths if text in path}
    return leaves if len(leaves) > 1 else None


def recovered(
    release: pd.DataFrame,
    source: pd.DataFrame,
    qids: Mapping[str, Paths | None],
    columns: Sequence[str],
) -> dict[str, int]:
    """Per quasi-identifier, the rows of ``release`` recovered through ``columns``."""
    found: dict[str, int] = {}
    for q, paths in qids.items():
        occurs: dict[tuple[Any, ...], set[Any]] = {}
        for row in source[[*columns, q]].itertuples(index=False):
            values = tuple(_key(v) for v in row)
            occurs.setdefault(values[:-1], set()).add(values[-1])
        count = 0
        for row in release[[*columns, q]].itertuples(index=False):
            covered = cover(row[-1], paths)
            if covered is None:
                continue
            candidates = occurs.get(tuple(_key(v) for v in row[:-1]), set())
            if isinstance(covered, tuple):
                inside = {v for v in candidates if covered[0] <= float(v) <= covered[1]}
            else:
                inside = {v for v in candidates if str(v) in covered}
            count += len(inside) == 1
        found[q] = count
    return found


def refined_sizes(
    release: pd.DataFrame, keys: Sequence[str], person: str | None = None
) -> list[tuple[int, int]]:
    """(rows, individuals) of every class keyed by ``keys``, sorted; individuals are the
    distinct ``person`` values of the class, or its rows."""
    frame = release.assign(individual=release[person] if person else range(len(release)))
    grouped = frame.groupby(list(keys), dropna=False)["individual"]
    both = zip(grouped.size(), grouped.nunique(dropna=False), strict=True)
    return sorted((int(rows), int(individuals)) for rows, individuals in both)


def small_rows(
    release: pd.DataFrame, keys: Sequence[str], k: int, person: str | None = None
) -> int:
    """Rows in classes keyed by ``keys`` holding fewer than ``k`` individuals."""
    return sum(
        rows for rows, individuals in refined_sizes(release, keys, person) if individuals < k
    )


def _key(value: Any) -> Any:
    # pandas gives NaN or None for NULL: one key, as SQL's grouping makes it
    return None if value is None or (isinstance(value, float) and value != value) else value
