"""The stage step: the algorithm's partitions turned into the release's companions, in the
run's working schema (nothing the analysts can see yet).

``generalized`` holds each partition's published values (interval text or hierarchy label);
the layout builds what it publishes from it (e.g. the recoding map); ``attributes`` and
``hierarchy_nodes`` hold what the metrics need to be recomputed later.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from anonsql import arrow
from anonsql.algorithms import Partitioning
from anonsql.algorithms.workspace import Workspace
from anonsql.layouts import LAYOUTS, Layout
from anonsql.resolve import Resolved


@dataclass(frozen=True)
class Staged:
    """A release built in the working schema, ready to publish."""

    resolved: Resolved
    workspace: Workspace
    partitioning: Partitioning
    layout: Layout[Any]


def stage(resolved: Resolved, workspace: Workspace, partitioning: Partitioning) -> Staged:
    """Build the release's companions in ``workspace``."""
    e = workspace.engine
    for table in ("rows", "parts"):
        e.analyze(workspace.work(table))
    nodes = {
        d.index: workspace.work(f"nodes{d.index}") for d in workspace.dimensions if not d.is_numeric
    }
    e.run(
        "publish/generalized",
        target=workspace.work("generalized"),
        parts=workspace.work("parts"),
        dims=workspace.dimensions,
        nodes=nodes,
    )
    layout = LAYOUTS.get(resolved.algorithm.layout).bound(resolved, workspace, partitioning)
    if partitioning.rows_weight is not None and not layout.weighted_rows:
        raise AssertionError(
            f"{resolved.algorithm.name} left weighted rows; the {layout.name} layout needs "
            "one row per source row"
        )
    layout.stage()
    e.load_arrow(workspace.work("attributes"), attributes_table(workspace))
    e.load_arrow(workspace.work("hierarchy_nodes"), hierarchy_nodes_table(workspace))
    return Staged(resolved, workspace, partitioning, layout)


def attributes_table(workspace: Workspace) -> pa.Table:
    dims = workspace.dimensions
    return arrow.table(
        {
            "attribute": arrow.array([d.column for d in dims], pa.string()),
            "kind": arrow.array([d.kind for d in dims], pa.string()),
            "min_value": arrow.array(
                [d.global_min if d.is_numeric else None for d in dims], pa.float64()
            ),
            "max_value": arrow.array(
                [d.global_max if d.is_numeric else None for d in dims], pa.float64()
            ),
            "leaf_count": arrow.array(
                [d.hierarchy.leaf_count if d.hierarchy else None for d in dims], pa.int64()
            ),
        }
    )


def hierarchy_nodes_table(workspace: Workspace) -> pa.Table:
    columns: dict[str, list[Any]] = {
        "attribute": [],
        "label": [],
        "depth": [],
        "leaf_count": [],
        "ncp": [],
        "first_leaf": [],
        "last_leaf": [],
    }
    hierarchies = [(d.column, d.hierarchy) for d in workspace.dimensions if d.hierarchy]
    person = workspace.person
    if person is not None and person.sensitive and person.hierarchy:
        hierarchies.append((person.sensitive, person.hierarchy))
    for column, hierarchy in hierarchies:
        for node in hierarchy.nodes:
            columns["attribute"].append(column)
            columns["label"].append(node.label)
            columns["depth"].append(node.depth)
            columns["leaf_count"].append(node.leaf_count)
            columns["ncp"].append(hierarchy.ncp(node))
            columns["first_leaf"].append(node.first_leaf)
            columns["last_leaf"].append(node.last_leaf)
    return arrow.table(
        {
            "attribute": arrow.array(columns["attribute"], pa.string()),
            "label": arrow.array(columns["label"], pa.string()),
            "depth": arrow.array(columns["depth"], pa.int32()),
            "leaf_count": arrow.array(columns["leaf_count"], pa.int64()),
            "ncp": arrow.array(columns["ncp"], pa.float64()),
            "first_leaf": arrow.array(columns["first_leaf"], pa.int32()),
            "last_leaf": arrow.array(columns["last_leaf"], pa.int32()),
        }
    )


def exposure_columns(staged: Staged) -> list[str]:
    """The columns published unchanged whose exposure the measure step reports (all of them
    but a 1:M release's fingerprint column)."""
    ws = staged.workspace
    fingerprint = ws.person.sensitive if ws.person is not None else None
    return [c for c in staged.resolved.passthrough if c != fingerprint]
