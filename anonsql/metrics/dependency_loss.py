"""Dependency loss of a release (H. Gorla, "Dependency-Preserving Generalization for Data
Publishing", MSc thesis, McMaster University, 2019, Def. 8 and Eq. 3.4), for every algorithm.

``Δ = Σ_{p ∈ Γ} min_{t' ∈ R'} d(p, t')`` over the dependency instances Γ of the declared
functional dependencies (distinct projections of the source on each FD's ``X ∪ Y``), ``d`` being
the mean over ``X ∪ Y`` of the value distance: the entropy penalty ``NE`` of the published value
when it covers the instance's value (categorical: its hierarchy node; numeric: ``[lo, hi]``),
else 1; an unchanged column 0 when equal, else 1. One SQL query
(:func:`anonsql.dependency.release_loss.release_loss`) compares the source with the published
relation through the release's ``hierarchy_nodes``; only sums leave the engine.

Reported values: ``dependency_loss`` (Δ / |Γ| in percent, 0 when every instance is published
exactly), ``dependency_loss_sum`` (Δ), ``dependency_instances`` (|Γ|), and per FD group
(attribute: the group's dependencies) its percentage. Nothing when no FD is declared.
"""

from __future__ import annotations

from anonsql.dependency.encoding import Quasi
from anonsql.dependency.release_loss import release_loss
from anonsql.metrics.base import Metric, MetricContext, MetricValue


class DependencyLossMetric(Metric):
    """Gorla's dependency loss (Def. 8) of the published relation, in percent of |Γ|."""

    name = "dependency_loss"
    reference = "Gorla, Dependency-Preserving Generalization for Data Publishing, MSc, 2019"
    zero_when_exact = ("dependency_loss", "dependency_loss_sum")

    def compute(self, ctx: MetricContext) -> list[MetricValue]:
        fds = ctx.functional_dependencies
        if not fds or ctx.source is None:
            return []
        quasis = [Quasi(q.column) for q in ctx.qids]
        loss = release_loss(
            ctx.engine,
            ctx.source,
            ctx.relation,
            fds,
            quasis,
            {},
            {},
            companion=ctx.hierarchy_nodes,
            categorical_columns={q.column for q in ctx.qids if q.kind == "categorical"},
        )
        values = [
            MetricValue("dependency_loss", None, 100.0 * loss.normalized),
            MetricValue("dependency_loss_sum", None, loss.loss),
            MetricValue("dependency_instances", None, float(loss.instances)),
        ]
        for group in loss.groups:
            share = group.loss / group.instances if group.instances else 0.0
            values.append(MetricValue("dependency_loss", "; ".join(group.fds), 100.0 * share))
        return values
