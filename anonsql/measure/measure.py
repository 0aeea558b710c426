"""The measure step: every registered metric of the release's layout (``__metrics``) computed by
SQL on the release (class-based ones from its ``__classes``, built by the publish step from the
same relation); and the one builder of a :class:`~anonsql.metrics.base.MetricContext`, for a
release being published or one read back, with the inputs its metrics read
(:class:`~anonsql.metrics.base.MetricInput`: each found where it lives)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from anonsql import arrow
from anonsql.engines import Engine
from anonsql.layouts import LAYOUTS
from anonsql.measure.exposure import LinkedExposure, acknowledged_exposure
from anonsql.measure.linkage import built_target
from anonsql.metrics.base import MetricContext, MetricInput, MetricValue, QidInfo
from anonsql.metrics.registry import compute_all, metrics_for
from anonsql.metrics.risk import RiskSettings, population_table, risk_settings, source_figures
from anonsql.privacy import PrivacyModel, largest_k
from anonsql.spec.output import OutputNames

if TYPE_CHECKING:
    from anonsql.publish import BuiltRelease
    from anonsql.release import PublishedRelease


@dataclass(frozen=True)
class Measurement:
    """The metrics of a release, what its acknowledged columns expose
    (:mod:`anonsql.measure.exposure`), the re-identification risk of its source and how risk
    was measured (:mod:`anonsql.metrics.risk`), for the certificate."""

    metrics: tuple[MetricValue, ...]
    linked: LinkedExposure = field(default_factory=LinkedExposure)
    source_risk: Mapping[str, float] = field(default_factory=dict)
    risk_settings: Mapping[str, Any] = field(default_factory=dict)

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
    inputs: Iterable[MetricInput] = (),
    classes: bool = False,
) -> MetricContext:
    """What the metrics need to measure the release published as ``names`` (``classes``: its
    ``__classes`` table was just built from the measured relation, metrics may read it)."""
    return MetricContext(
        engine=engine,
        relation=LAYOUTS.get(layout).measured(names),
        qids=list(qids),
        hierarchy_nodes=names.hierarchy_nodes,
        source_rows=individuals,
        k=largest_k(models),
        classes=names.classes if classes else None,
        layout=layout,
        inputs=tuple(inputs),
    )


def metric_inputs(
    layout: str,
    find: Callable[[type[MetricInput]], MetricInput | None],
    given: Iterable[MetricInput] = (),
) -> tuple[MetricInput, ...]:
    """The inputs the metrics of ``layout`` read: ``given`` (those the caller holds already),
    then each other one ``find`` finds (once per type; None: the release has none)."""
    found = list(given)
    tried = {type(i) for i in found}
    for metric in metrics_for(layout):
        for kind in metric.reads:
            if kind in tried:
                continue
            tried.add(kind)
            value = find(kind)
            if value is not None:
                found.append(value)
    return tuple(found)


def release_context(engine: Engine, release: PublishedRelease) -> MetricContext:
    """The metric context of a release read back from the database."""
    qids = [
        QidInfo(a["attribute"], a["kind"], a["min_value"], a["max_value"], a["leaf_count"])
        for a in release.attributes(engine)
    ]
    inputs = metric_inputs(release.layout, lambda kind: kind.of_release(engine, release))
    return metric_context(
        engine, release.names, release.layout, qids, release.models, release.individuals, inputs
    )


def measure(release: BuiltRelease) -> Measurement:
    """Write ``__metrics`` beside the release (class-based metrics read the ``__classes`` the
    publish step built); return the metrics."""
    e, built, layout = release.engine, release.built, release.layout
    dims = release.staged.workspace.dimensions
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
    ws, resolved = release.staged.workspace, release.staged.resolved
    settings = risk_settings(resolved.spec, e)
    inputs = metric_inputs(
        layout.name, lambda kind: kind.at_publish(release), given=[RiskSettings(settings)]
    )
    ctx = metric_context(
        e, built, layout.name, qids, ws.models, layout.individuals(), inputs, classes=True
    )
    metrics = compute_all(ctx)
    e.load_arrow(built.metrics, metrics_table(metrics))
    codes = [d.code for d in dims]
    if ws.person is not None:
        # persons: their coded QIDs group them as their source values do
        source = source_figures(e, ws.work("persons"), codes, settings, with_population=False)
    elif release.staged.partitioning.rows_weight is not None and population_table(settings) is None:
        # Mondrian left the working rows grouped, one weighted row per distinct vector, every
        # row of the source counted (suppressed ones too); their coded QIDs group them as the
        # source values do (prepare counted them: every value is a leaf). A fraction of
        # grouping the source (at 1e7 rows on Spark 6.8 s). Other algorithms' working rows
        # need not hold every source row at this point (full-domain's suppression), so their
        # source is grouped.
        source = source_figures(
            e,
            ws.work("rows"),
            codes,
            settings,
            with_population=False,
            counted=release.staged.partitioning.rows_weight,
            classes_are_rows=release.staged.partitioning.rows_are_vectors(ws),
        )
    else:
        source = source_figures(e, resolved.source, resolved.qids, settings, with_population=True)
    return Measurement(tuple(metrics), measure_exposure(release), source, settings)


def measure_exposure(release: BuiltRelease) -> LinkedExposure:
    """What each acknowledged column exposes (two queries each; none for the others, which the
    linkage gate proved expose nothing), counted in the release's individuals."""
    ws = release.staged.workspace
    models = ws.models
    k = largest_k(models) or max([m.min_rows() for m in models] + [1])
    person = ws.person.column if ws.person is not None else None
    return acknowledged_exposure(
        built_target(release), k, person=person, determined=release.staged.resolved.linked
    )


def metrics_table(metrics: Sequence[MetricValue]) -> pa.Table:
    return arrow.table(
        {
            "metric": arrow.array([m.name for m in metrics], pa.string()),
            "attribute": arrow.array([m.attribute for m in metrics], pa.string()),
            "value": arrow.array([m.value for m in metrics], pa.float64()),
        }
    )
