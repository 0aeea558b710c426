"""What a full-domain search returns, and how its decision is handed to the publishing path."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from anonsql import arrow
from anonsql.algorithms.full_domain.frequency import NodeEvaluator
from anonsql.sql import TableName


@dataclass(frozen=True)
class SearchStats:
    """How the search went.

    ``checked`` nodes were evaluated in the engine; ``tagged_anonymous`` and
    ``tagged_not_anonymous`` nodes were classified by predictive tagging alone (never
    evaluated); ``evaluated`` nodes had the objective computed; ``pruned`` anonymous nodes were
    skipped because a lower bound showed they could not win; ``profiles`` extra statements read
    the suppressed classes. ``privacy_monotonicity`` is ``full`` (anonymity is monotone, with the
    suppression budget), ``partial`` (only nodes without suppressed rows pass anonymity upwards)
    or ``none``.
    """

    algorithm: str
    lattice_nodes: int
    checked: int
    tagged_anonymous: int
    tagged_not_anonymous: int
    anonymous_nodes: int
    evaluated: int
    pruned: int
    profiles: int
    statements: int
    sql_seconds: float
    seconds: float
    privacy_monotonicity: str
    objective_monotone: bool


@dataclass(frozen=True)
class FullDomainResult:
    """The optimal full-domain generalization found.

    ``levels[i]`` is the generalization level of quasi-identifier ``qids[i]`` (0 = unchanged,
    ``heights[i]`` = its root). ``value`` is the objective at that node (lowest over all
    anonymous nodes; ties go to the node with the lowest sum of levels, as in ARX) and
    ``per_qid`` its per-attribute terms. Rows of classes that fail a privacy model are
    suppressed: ``suppressed_rows`` of them, within ``budget``.
    """

    qids: tuple[str, ...]
    heights: tuple[int, ...]
    levels: tuple[int, ...]
    objective: str
    objective_parameters: tuple[tuple[str, Any], ...]
    value: float
    per_qid: tuple[float, ...]
    models: tuple[str, ...]
    suppression_limit: float
    budget: int
    rows: int
    classes: int
    suppressed_rows: int
    suppressed_classes: int
    stats: SearchStats

    def certificate(self) -> dict[str, Any]:
        """The chosen node and the search statistics, for the run's certificate (JSON-ready)."""
        return {
            "algorithm": "full_domain",
            "search": self.stats.algorithm,
            "node": dict(zip(self.qids, self.levels, strict=True)),
            "heights": dict(zip(self.qids, self.heights, strict=True)),
            "objective": {
                "name": self.objective,
                **dict(self.objective_parameters),
                "value": self.value,
                "per_attribute": dict(zip(self.qids, self.per_qid, strict=False)),
            },
            "models": list(self.models),
            "suppression_limit": self.suppression_limit,
            "suppression_budget_rows": self.budget,
            "rows": self.rows,
            "classes": self.classes,
            "suppressed_rows": self.suppressed_rows,
            "suppressed_classes": self.suppressed_classes,
            "statistics": asdict(self.stats),
        }


def write_decisions(
    evaluator: NodeEvaluator, result: FullDomainResult, *, parts: TableName, vectors: TableName
) -> int:
    """Leave the decision where the common publishing path reads it; return the class count.

    ``parts`` gets one row per equivalence class: ``pid`` (1, 2, ...), ``n`` (rows),
    ``suppressed`` and ``node<i>``, the hierarchy node id each quasi-identifier publishes (as
    every algorithm's parts table holds categorical dimensions), and ``code<i>``, its level
    code. ``vectors`` maps every distinct coded vector of the source, ``q<i>`` = leaf rank per
    quasi-identifier, to its ``pid``; join the coded rows to it to give every row its class.
    """
    engine = evaluator.engine
    table = evaluator.classes(result.levels)
    count = len(table.counts)
    order = np.lexsort(table.nodes.T[::-1]) if count else np.zeros(0, dtype=np.int64)
    columns: dict[str, pa.Array] = {
        "pid": arrow.array(np.arange(1, count + 1, dtype=np.int64), pa.int64()),
        "n": arrow.array(table.counts[order], pa.int64()),
        "suppressed": arrow.array(table.suppressed[order], pa.bool_()),
    }
    for i in range(table.nodes.shape[1]):
        columns[f"node{i}"] = arrow.array(table.nodes[order, i].astype(np.int32), pa.int32())
        columns[f"code{i}"] = arrow.array(table.codes[order, i], pa.int64())
    engine.drop(parts)
    engine.load_arrow(parts, arrow.table(columns))
    engine.drop(vectors)
    engine.run(
        "full_domain/vector_map",
        target=vectors,
        parts=parts,
        **evaluator.frequency_plan(result.levels),
    )
    return count
