"""k-map in full-domain search: the population table coded like the sample, and its release.

k-map (Sweeney 2001; El Emam & Dankar, JAMIA 2008; ARX's ``KMap`` with a population table)
asks that every class of the release match at least ``k`` persons of a population table. The
search supplies the model's predicate with each class's population count
(:attr:`~anonsql.privacy.base.PartStats.population`):

* the population is read once (:func:`build_population`): grouped by its quasi-identifier
  values, each value coded through the sample's own coding (a hierarchy's leaf rank, a numeric
  column's rank on its ladder) into the frequency table's path codes, weighted by the model's
  ``count`` column when it names one. A population value the coding does not know (NULL, a value
  outside the hierarchy, a numeric value the sample does not hold) cannot be generalized: a
  :class:`SpecError` names the column and the number of such population rows, never the values;
* at every lattice node the population's frequency table is rolled up by the same shifts as the
  sample's and joined to the sample's classes at that node (``full_domain/node_population``);
  population counts only grow under generalization, so k-map is monotone and Flash's pruning
  stays; classes failing k-map are suppressed within the budget like k-anonymity's;
* the chosen node's population count per class is left as ``population_classes`` (``pid``,
  ``n``) in the working schema and recorded in ``RecordFacts.population``.

**Verification.** k-map's violation query (``privacy/k_map.sql``) matches the population's
values *as they are* to the checked relation's. A release shows generalized labels, so matching
it against the raw population would find no one. The release therefore carries a private
companion, ``<name>__population`` (:class:`~anonsql.spec.output.OutputNames`): per published
class its labels, exactly as the release shows them, and its persons in the population under the
release's recoding (the record layout builds it from ``population_classes`` and the staged
labels). The layout checks and guards k-map through
:meth:`~anonsql.privacy.base.PrivacyModel.on_release`, which points the model at that companion
with its count column: the model's own, unchanged violation SQL then verifies the release, its
guarded view withholds failing classes, and ``anonsql check`` on the release re-runs the same.
This was chosen over re-generalizing the population inside the check (joining it through the
hierarchies at the release's levels) because it keeps one violation query for every relation
and works for numeric ladders, whose groups exist only in the search. The companion is a
snapshot: later changes to the population table do not reach the guard (run the release again).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from anonsql.algorithms.population import require_population_columns
from anonsql.algorithms.workspace import Workspace
from anonsql.errors import SpecError
from anonsql.sql import TableName


@dataclass(frozen=True)
class Population:
    """The population's frequency table in the engine (``table``: path codes ``q<i>`` like the
    sample's, persons ``n``) and what the certificate records of it."""

    table: TableName
    source: TableName
    count: str | None
    #: rows of the population table, and the persons they stand for (the count column's sum)
    records: int
    persons: float

    def certificate(self) -> dict[str, Any]:
        return {
            "table": str(self.source),
            "count": self.count,
            "rows": self.records,
            "persons": self.persons,
        }


def build_population(workspace: Workspace, source: TableName, count: str | None) -> Population:
    """The population's frequency table, coded through the sample's levels (``fd_levels<i>``, left
    by the sample's frequency table) and leaves (``leaves<i>``, or a numeric ladder's
    ``fd_values<i>``), in the working schema."""
    e = workspace.engine
    require_population_columns(workspace, source, count)
    dims = []
    for d in workspace.dimensions:
        if d.hierarchy is not None:
            leaves, leaf = workspace.work(f"leaves{d.index}"), "leaf_rank"
        else:
            leaves, leaf = workspace.work(f"fd_values{d.index}"), "leaf"
        dims.append(
            {
                "index": d.index,
                "column": d.column,
                "hierarchy": d.hierarchy is not None,
                "leaves": leaves,
                "leaf": leaf,
                "codes": workspace.work(f"fd_levels{d.index}"),
            }
        )
    raw = workspace.work("fd_population_raw")
    table = workspace.work("fd_population")
    e.drop(raw)
    e.drop(table)
    e.run("full_domain/population_raw", target=raw, population=source, dims=dims, count=count)
    row = e.query("full_domain/population_uncovered", raw=raw, dims=dims)[0]
    for d, uncovered in zip(workspace.dimensions, row[: len(dims)], strict=True):
        if int(uncovered or 0):
            where = "its hierarchy" if d.hierarchy is not None else "the source's values"
            fix = (
                "add a line to the column's hierarchy for every value the population holds"
                if d.hierarchy is not None
                else "give the column a hierarchy covering the population's values "
                "(e.g. {builder: interval, width: 10, levels: 4})"
            )
            raise SpecError(
                f"privacy.k_map.population.{d.column}",
                f"{int(uncovered)} rows of the population table {source} hold NULL or a value "
                f"of column {d.column!r} outside {where}, so they cannot be generalized",
                fix,
            )
    e.run("full_domain/population_frequency", target=table, raw=raw, dims=dims)
    e.drop(raw)
    e.analyze(table)
    records = int(row[len(dims)] or 0)
    persons = float(row[len(dims) + 1] or 0.0)
    return Population(table=table, source=source, count=count, records=records, persons=persons)


def match_population(
    classes: np.ndarray[Any, np.dtype[np.int64]],
    population: np.ndarray[Any, np.dtype[np.int64]],
    persons: np.ndarray[Any, np.dtype[np.float64]],
) -> np.ndarray[Any, np.dtype[np.float64]]:
    """Per sample class (rows of ``classes``, level codes), the persons of the population classes
    (rows of ``population`` with ``persons``) having the same codes; 0 where there are none."""
    if classes.shape[0] == 0:
        return np.zeros(0, dtype=np.float64)
    if population.shape[0] == 0:
        return np.zeros(classes.shape[0], dtype=np.float64)
    stacked = np.vstack([classes, population])
    _, inverse = np.unique(stacked, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    sample_ids, population_ids = inverse[: classes.shape[0]], inverse[classes.shape[0] :]
    sums = np.bincount(population_ids, weights=persons, minlength=int(inverse.max()) + 1)
    matched: np.ndarray[Any, np.dtype[np.float64]] = sums[sample_ids].astype(np.float64)
    return matched
