"""k-map in Mondrian: the persons of a population table each candidate part would match.

k-map (Sweeney 2001; El Emam & Dankar, JAMIA 2008; :class:`~anonsql.privacy.k_map.KMap`) asks
that every published class match at least ``k`` persons of a population table. A Mondrian part
publishes its *tight box*: per numeric quasi-identifier the interval from its rows' smallest to
largest value, per categorical one the lowest common ancestor of its rows' values. A person of
the population matches the class when every one of their values lies in the box (under the
published node, for a categorical column): that count, and no region-based estimate (a region
also holds the gaps between the rows, which the published labels exclude), is what each
candidate part's predicate reads (:attr:`~anonsql.privacy.base.PartStats.population`).

* The population is read once (:func:`build_points`): grouped by its quasi-identifiers, coded
  like the sample's working rows (numeric values as doubles, categorical values as leaf ranks);
  a NULL or a value outside a hierarchy cannot be placed under a published node, and is a
  :class:`SpecError` naming the column and the number of population rows, never the values.
* A part's box is the union of its bins' ranges (``mondrian/bin_ranges``); its persons are
  counted by comparing the population's distinct vectors with the box, a chunk of boxes at a
  time. Counting a box costs the population's distinct vectors: k-map with Mondrian suits
  populations of up to some hundred thousand distinct quasi-identifier vectors.
* Classes overlap only where a categorical pool publishes an ancestor of a sibling's node: a
  person under both counts for both, as k-map's violation query matches them.
* The finished classes' persons are left as ``population_classes`` (``pid``, ``n``), from which
  the record layout builds the release's private ``population`` companion (as for full-domain
  k-map, :mod:`anonsql.algorithms.full_domain.population`), which the gate, the guarded view and
  ``anonsql check`` match the release against.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from anonsql import arrow
from anonsql.algorithms.lca import HierarchyArrays
from anonsql.algorithms.population import require_population_columns
from anonsql.algorithms.workspace import Dimension, Workspace
from anonsql.arrays import FloatArray, IntArray
from anonsql.errors import SpecError
from anonsql.sql import TableName

#: Comparisons held at once while counting (boxes x population vectors per chunk).
_CELLS = 1 << 22


@dataclass(frozen=True)
class PopulationPoints:
    """The population's distinct coded vectors (``codes[d]``: dimension ``d``'s code of each)
    with their ``persons``, and what the certificate records of the table."""

    codes: Mapping[int, FloatArray]
    persons: FloatArray
    #: per categorical dimension, each hierarchy node's first and last leaf rank
    first_leaf: Mapping[int, IntArray]
    arrays: Mapping[int, HierarchyArrays]
    source: TableName
    count: str | None
    records: int

    def certificate(self) -> dict[str, Any]:
        return {
            "table": str(self.source),
            "count": self.count,
            "rows": self.records,
            "persons": float(self.persons.sum()),
        }

    def persons_in(self, lo: Mapping[int, FloatArray], hi: Mapping[int, FloatArray]) -> FloatArray:
        """Per box (``lo[d][i]`` .. ``hi[d][i]`` on every dimension: values, or for a
        categorical one the leaf ranks whose lowest common ancestor is published), the persons
        whose vector the box's labels match; 0 for an empty box (``lo > hi``)."""
        boxes = next(iter(lo.values())).shape[0] if lo else 0
        found = np.zeros(boxes, np.float64)
        if boxes == 0 or self.persons.shape[0] == 0:
            return found
        nonempty = np.ones(boxes, bool)
        for d in lo:
            nonempty &= lo[d] <= hi[d]
        rows = np.nonzero(nonempty)[0]
        low: dict[int, FloatArray] = {}
        high: dict[int, FloatArray] = {}
        for d in lo:
            if d in self.arrays:
                arrays = self.arrays[d]
                node = arrays.lca(lo[d][rows].astype(np.int64), hi[d][rows].astype(np.int64))
                low[d] = self.first_leaf[d][node].astype(np.float64)
                high[d] = arrays.last_leaf[node].astype(np.float64)
            else:
                low[d], high[d] = lo[d][rows], hi[d][rows]
        chunk = max(1, _CELLS // self.persons.shape[0])
        for start in range(0, rows.shape[0], chunk):
            end = min(start + chunk, rows.shape[0])
            inside = np.ones((end - start, self.persons.shape[0]), bool)
            for d, values in self.codes.items():
                inside &= values[None, :] >= low[d][start:end, None]
                inside &= values[None, :] <= high[d][start:end, None]
            found[rows[start:end]] = inside @ self.persons
        return found


def build_points(workspace: Workspace, source: TableName, count: str | None) -> PopulationPoints:
    """The population table's distinct vectors coded through the sample's hierarchies."""
    e = workspace.engine
    dims = workspace.dimensions
    require_population_columns(workspace, source, count)
    leaves = {d.index: workspace.work(f"leaves{d.index}") for d in dims if not d.is_numeric}
    table = e.query_arrow(
        "mondrian/population_points", population=source, dims=dims, leaves=leaves, count=count
    )
    records = arrow.to_numpy(table.column("records")).astype(np.int64)
    codes: dict[int, FloatArray] = {}
    for d in dims:
        column = table.column(d.code)
        _refuse_uncovered(d, source, int(records[_nulls(column)].sum()))
        codes[d.index] = arrow.to_float64(column)
    arrays = {d.index: HierarchyArrays(d.hierarchy) for d in dims if d.hierarchy is not None}
    first_leaf = {
        d.index: np.array([n.first_leaf for n in d.hierarchy.nodes], np.int64)
        for d in dims
        if d.hierarchy is not None
    }
    return PopulationPoints(
        codes=codes,
        persons=arrow.to_float64(table.column("persons")),
        first_leaf=first_leaf,
        arrays=arrays,
        source=source,
        count=count,
        records=int(records.sum()),
    )


def _nulls(column: pa.ChunkedArray) -> np.ndarray[Any, np.dtype[np.bool_]]:
    return np.asarray(arrow.to_numpy(column.is_null()), dtype=bool)


def _refuse_uncovered(d: Dimension, source: TableName, uncovered: int) -> None:
    if not uncovered:
        return
    where = "its hierarchy" if not d.is_numeric else "any number"
    raise SpecError(
        f"privacy.k_map.population.{d.column}",
        f"{uncovered} rows of the population table {source} hold NULL or a value of column "
        f"{d.column!r} outside {where}, so no published class can match them",
        "add a line to the column's hierarchy for every value the population holds"
        if not d.is_numeric
        else "fill or drop the population rows holding NULL in this column",
    )


def population_classes(
    points: PopulationPoints, parts: pa.Table, dims: Sequence[Dimension]
) -> pa.Table:
    """``pid`` and persons ``n`` of every published part of a parts table (``parts_table``:
    ``lo<i>``/``hi<i>`` of numeric dimensions, the published ``node<i>`` of categorical ones)."""
    kept = arrow.filter_table(parts, ~np.asarray(arrow.to_numpy(parts.column("suppressed")), bool))
    lo: dict[int, FloatArray] = {}
    hi: dict[int, FloatArray] = {}
    for d in dims:
        if d.is_numeric:
            lo[d.index] = arrow.to_float64(kept.column(f"lo{d.index}"))
            hi[d.index] = arrow.to_float64(kept.column(f"hi{d.index}"))
        else:
            node = arrow.to_numpy(kept.column(f"node{d.index}")).astype(np.int64)
            lo[d.index] = points.first_leaf[d.index][node].astype(np.float64)
            hi[d.index] = points.arrays[d.index].last_leaf[node].astype(np.float64)
    return arrow.table(
        {
            "pid": arrow.array(arrow.to_numpy(kept.column("pid")).astype(np.int64), pa.int64()),
            "n": arrow.array(points.persons_in(lo, hi), pa.float64()),
        }
    )
