"""The measure step: equivalence-class statistics (``__classes``) and every registered metric
(``__metrics``) computed by SQL on the release; and the one builder of a
:class:`~anonsql.metrics.base.MetricContext`, for a release being published or one read back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pyarrow as pa

from anonsql.engines import Engine
from anonsql.layouts import LAYOUTS
from anonsql.metrics.base import MetricContext, MetricValue, QidInfo
from anonsql.metrics.registry import compute_all
from anonsql.privacy import PrivacyModel, largest_k
from anonsql.publish import Release
from anonsql.release import OutputNames, PublishedRelease


@dataclass(frozen=True)
class Measurement:
    """The metrics of a release."""

    metrics: tuple[MetricValue, ...]

    def value(self, name: str, attribute: str | None = None) -> float:
        for m in self.metrics:
            if m.name == name and m.attribute == attribute:
                return m.value
        raise KeyError((name, attribute))


def metric_context(
    engine: Engine,
    names: OutputNames,
    layout: str,
    qids: Sequence[QidInfo],
    models: Sequence[PrivacyModel],
    individuals: int,
) -> MetricContext:
    """What the metrics need to measure the release published as ``names``."""
    return MetricContext(
        engine=engine,
        relation=LAYOUTS.get(layout).measured(names),
        qids=list(qids),
        hierarchy_nodes=names.hierarchy_nodes,
        source_rows=individuals,
        k=largest_k(models),
        fingerprints=names.fingerprints if layout == "person" else None,
    )


def release_context(engine: Engine, release: PublishedRelease) -> MetricContext:
    """The metric context of a release read back from the database."""
    qids = [
        QidInfo(a["attribute"], a["kind"], a["min_value"], a["max_value"], a["leaf_count"])
        for a in release.attributes(engine)
    ]
    return metric_context(
        engine, release.names, release.layout, qids, release.models, release.individuals
    )


def measure(release: Release) -> Measurement:
    """Write ``__classes`` and ``__metrics`` beside the release; return the metrics."""
    e, built, layout = release.engine, release.built, release.layout
    dims = release.staged.workspace.dimensions
    e.run(
        "publish/classes",
        target=built.classes,
        relation=layout.measured(built),
        qids=[d.column for d in dims],
        sensitive=layout.class_sensitive(),
    )
    qids = [
        QidInfo(
            d.column,
            d.kind,
            d.global_min if d.is_numeric else None,
            d.global_max if d.is_numeric else None,
            d.hierarchy.leaf_count if d.hierarchy else None,
        )
        for d in dims
    ]
    ctx = metric_context(
        e, built, layout.name, qids, release.staged.workspace.models, layout.individuals()
    )
    metrics = compute_all(ctx)
    e.load_arrow(built.metrics, metrics_table(metrics))
    return Measurement(tuple(metrics))


def metrics_table(metrics: Sequence[MetricValue]) -> pa.Table:
    return pa.table(
        {
            "metric": pa.array([m.name for m in metrics], pa.string()),
            "attribute": pa.array([m.attribute for m in metrics], pa.string()),
            "value": pa.array([m.value for m in metrics], pa.float64()),
        }
    )
