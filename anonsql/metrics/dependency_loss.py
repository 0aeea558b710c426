"""Dependency loss of a release (H. Gorla, "Dependency-Preserving Generalization for Data
Publishing", MSc thesis, McMaster University, 2019, Def. 8 and Eq. 3.4), for every algorithm.

``Δ = Σ_{p ∈ Γ} min_{t' ∈ R'} d(p, t')`` over the dependency instances Γ of the declared
functional dependencies (distinct projections of the source on each FD's ``X ∪ Y``), ``d`` being
the mean over ``X ∪ Y`` of the value distance: the entropy penalty ``NE`` of the published value
when it covers the instance's value (categorical: its hierarchy node; numeric: ``[lo, hi]``),
else 1; an unchanged column 0 when equal, else 1. One SQL query
(:func:`release_loss`) compares the source with the published
relation through the release's ``hierarchy_nodes``; only sums leave the engine.

Reported values: ``dependency_loss`` (Δ / |Γ| in percent, 0 when every instance is published
exactly), ``dependency_loss_sum`` (Δ), ``dependency_instances`` (|Γ|), and per FD group
(attribute: the group's dependencies) its percentage. Nothing when no FD is declared.

The module also gives the entropy penalties of hierarchy nodes on the original data (Eq. 3.1)
and value distances (Eq. 3.2), in SQL (:func:`node_entropies`, :func:`value_distances`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from typing_extensions import Self

from anonsql.engines.base import Engine
from anonsql.errors import SpecError
from anonsql.metrics.base import Metric, MetricContext, MetricInput, MetricValue
from anonsql.spec.dependencies import FunctionalDependency, instance_groups
from anonsql.sql import Relation, TableName

if TYPE_CHECKING:
    from anonsql.algorithms.dependency.encoding import Quasi
    from anonsql.algorithms.dependency.loss import DependencyLoss
    from anonsql.publish import BuiltRelease


@dataclass(frozen=True)
class FunctionalDependencies(MetricInput):
    """The spec's functional dependencies and the source relation (original values) they are
    measured against. Only at publish: a published release does not record them."""

    dependencies: tuple[FunctionalDependency, ...]
    source: TableName

    @classmethod
    def at_publish(cls, release: BuiltRelease) -> Self | None:
        fds = release.staged.workspace.functional_dependencies
        return cls(tuple(fds), release.built.source) if fds else None


class DependencyLossMetric(Metric):
    """Gorla's dependency loss (Def. 8) of the published relation, in percent of |Γ|."""

    name = "dependency_loss"
    reference = "Gorla, Dependency-Preserving Generalization for Data Publishing, MSc, 2019"
    zero_when_exact = ("dependency_loss", "dependency_loss_sum")
    reads = (FunctionalDependencies,)

    def compute(self, ctx: MetricContext) -> list[MetricValue]:
        # the algorithm family's modules load when a release declares dependencies only
        from anonsql.algorithms.dependency.encoding import Quasi

        declared = ctx.get(FunctionalDependencies)
        quasis = [Quasi(q.column) for q in ctx.qids]
        loss = release_loss(
            ctx.engine,
            declared.source,
            ctx.relation,
            declared.dependencies,
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


@dataclass(frozen=True)
class _Attr:
    j: int
    column: str
    kind: str
    key: int
    leaves: TableName | None = None
    nodes: TableName | None = None
    #: A release's ``hierarchy_nodes`` companion, read instead of ``leaves``/``nodes``.
    companion: TableName | None = None


@dataclass(frozen=True)
class NodeEntropy:
    """A hierarchy node's entropy penalty on the source: ``E`` in nats and ``NE = E / H``."""

    node_id: int
    label: str
    first_leaf: int
    last_leaf: int
    entropy: float
    ne: float


def node_entropies(
    engine: Engine,
    source: Relation | TableName,
    column: str,
    leaves: TableName,
    nodes: TableName,
) -> list[NodeEntropy]:
    """``E``/``NE`` of every node of ``column``'s hierarchy (``leaves`` and ``nodes`` as
    :func:`anonsql.hierarchies.materialize` creates them), on the values of ``source``."""
    rows = engine.query(
        "dependency/node_entropy", source=source, column=column, leaves=leaves, nodes=nodes
    )
    return [
        NodeEntropy(int(r[0]), str(r[1]), int(r[2]), int(r[3]), float(r[4]), float(r[5]))
        for r in rows
    ]


def value_distances(
    engine: Engine,
    source: Relation | TableName,
    column: str,
    leaves: TableName,
    nodes: TableName,
    pairs: Sequence[tuple[str, str]],
) -> list[float]:
    """δ of pairs of node labels of ``column``'s hierarchy, on the values of ``source``."""
    if not pairs:
        return []
    rows = engine.query(
        "dependency/value_distances",
        source=source,
        column=column,
        leaves=leaves,
        nodes=nodes,
        pairs=[(i, a, b) for i, (a, b) in enumerate(pairs)],
    )
    found = {int(r[0]): float(r[1]) for r in rows}
    missing = [i for i in range(len(pairs)) if i not in found]
    if missing:
        raise SpecError(
            column, f"pair {missing[0]} names a label that is not a node", "use node labels"
        )
    return [found[i] for i in range(len(pairs))]


def release_loss(
    engine: Engine,
    source: Relation | TableName,
    published: TableName,
    fds: Sequence[FunctionalDependency],
    quasis: Sequence[Quasi],
    leaves: Mapping[str, TableName],
    nodes: Mapping[str, TableName],
    *,
    companion: TableName | None = None,
    categorical_columns: Collection[str] = (),
) -> DependencyLoss:
    """Δ of ``published`` against ``source`` for ``fds`` (one query). ``quasis`` names the
    generalized columns (categorical ones need their ``leaves`` and ``nodes`` tables, or a
    release's ``hierarchy_nodes`` ``companion`` table: attribute, label, depth, first_leaf,
    last_leaf); other FD columns are compared by equality, and count 1 when the release does
    not have them. ``categorical_columns`` marks quasi-identifiers categorical whose
    ``Quasi`` has no hierarchy (the companion holds their nodes)."""
    from anonsql.algorithms.dependency.loss import DependencyLoss, GroupLoss

    catalog = engine.columns(published)
    if catalog is None:
        raise SpecError("output", f"{published} does not exist", "publish it first")
    present = {c.name for c in catalog}
    by_name = {q.column: q for q in quasis}
    keys: dict[str, int] = {}
    categorical: list[_Attr] = []
    numeric: list[_Attr] = []
    groups = []
    for members in instance_groups(fds):
        columns = list(fds[members[0]].attributes)
        attrs = []
        for j, column in enumerate(columns):
            q = by_name.get(column)
            kind = (
                "kept"
                if q is None
                else "categorical"
                if q.hierarchy is not None or column in categorical_columns
                else "numeric"
            )
            if column not in present:
                kind = "dropped"
            new = column not in keys
            key = keys.setdefault(column, len(keys))
            attr = _Attr(j, column, kind, key)
            if kind == "categorical" and companion is not None:
                attr = _Attr(j, column, kind, key, companion=companion)
                if new:
                    categorical.append(attr)
            elif kind == "categorical":
                if column not in leaves or column not in nodes:
                    raise SpecError(
                        column,
                        "no leaves/nodes lookup tables were given",
                        "materialize its hierarchy first",
                    )
                attr = _Attr(j, column, kind, key, leaves[column], nodes[column])
                if new:
                    categorical.append(attr)
            elif kind == "numeric" and new:
                numeric.append(attr)
            attrs.append(attr)
        groups.append(
            {
                "columns": columns,
                "attributes": attrs,
                "present": any(a.kind != "dropped" for a in attrs),
                "fds": tuple(str(fds[i]) for i in members),
            }
        )
    if not groups:
        return DependencyLoss(0.0, 0, ())
    rows = engine.query(
        "dependency/loss",
        source=source,
        published=published,
        groups=groups,
        categorical=categorical,
        numeric=numeric,
    )
    parts = []
    for r in rows:
        g = groups[int(r[0])]
        fd_names = g["fds"]
        assert isinstance(fd_names, tuple)
        parts.append(GroupLoss(fd_names, int(r[1]), float(r[2] or 0.0)))
    return DependencyLoss(sum(p.loss for p in parts), sum(p.instances for p in parts), tuple(parts))
