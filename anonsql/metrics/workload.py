"""The error of the analysts' own queries (the spec's ``workload:``), measured in the engine on
every release that declares them.

K. LeFevre, D. J. DeWitt, R. Ramakrishnan, "Workload-aware anonymization", KDD 2006, measure a
release by the queries it will serve; anonsql answers each workload query exactly on the source
and estimates it on the release, in one SQL statement per query
(``sql_templates/workload/error.sql``), with the estimator of :mod:`anonsql.metrics.olap`:

* **Estimate.** Each published row stands for the points of its generalized values, each point
  equally likely: the integers of ``[lo, hi]`` for an integer-typed quasi-identifier, the
  distinct source values in ``[lo, hi]`` for any other numeric one, the hierarchy leaves under
  the published node for a categorical one (a value published as itself is one point). A row
  adds ``f = f_1 * ... * f_m`` of itself to a group, ``f_i`` being the share of its points on
  quasi-identifier ``i`` that pass the query's conditions on ``i`` and (when ``i`` is grouped)
  equal the group's value. COUNT(*) adds ``f`` per row, SUM(col) ``f * col``; AVG(col) is the
  estimated SUM over the estimated count of non-NULL ``col``. Conditions on other columns
  filter the published rows exactly. Rows the release suppressed are not in it: the estimate
  lacks them.
* **Truth.** The query on the source rows, every row counted.
* **Groups compared.** COUNT and SUM: every group of the truth or of the estimate (the other
  side 0 where it has none); AVG: the groups of the truth (an estimate without rows is 0). A
  query without GROUP BY is one group.
* **Figures** (one :class:`QueryError` per query): ``mean_relative_error``, the mean over the
  groups of ``|est - true| / max(|true|, FLOOR)``; ``total_error``, ``sum |est - true| /
  max(sum |true|, FLOOR)`` over the groups; ``groups``. ``FLOOR`` is 1 (row, or unit of the
  aggregated column): a group with no or few true rows is charged its absolute error.

The metric :class:`WorkloadError` records them in ``__metrics`` (``workload_error`` per query
and over all queries, ``workload_total_error`` and ``workload_groups`` per query) and the
certify step as the certificate's ``workload_error`` field (a JSON list of
:meth:`QueryError.as_json`, with each query's name and SQL, which is how ``anonsql metrics``
finds the workload again).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from anonsql.engines import Engine
from anonsql.metrics.base import Metric, MetricContext, MetricInput, MetricValue
from anonsql.spec.model import WorkloadQuery
from anonsql.spec.workload import Condition, ParsedQuery, parse_query
from anonsql.sql import Relation, TableName

if TYPE_CHECKING:
    from anonsql.publish import BuiltRelease
    from anonsql.release.reader import PublishedRelease

REFERENCE = "K. LeFevre, D. J. DeWitt, R. Ramakrishnan, Workload-aware anonymization, KDD 2006"
#: The least denominator of a relative error (one row, or one unit of the aggregated column).
FLOOR = 1.0
#: The certificate field (and ``__metrics`` name) of the workload's errors.
FIELD = "workload_error"

Kind = Literal["integer", "real", "categorical"]


@dataclass(frozen=True)
class QidKind:
    """How a quasi-identifier's published values spread: over integers, distinct source values
    or hierarchy leaves; ``low``/``high``: the source's range (numeric ones, for the record)."""

    column: str
    kind: Kind
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class QueryError:
    """The error of one workload query on a release (see the module doc)."""

    name: str
    sql: str
    groups: int
    mean_relative_error: float
    total_error: float

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "sql": self.sql,
            "groups": self.groups,
            "mean_relative_error": self.mean_relative_error,
            "total_error": self.total_error,
        }


@dataclass(frozen=True)
class WorkloadTarget(MetricInput):
    """What the workload metric reads: the parsed queries, the source they are answered on and
    how each quasi-identifier's published values spread."""

    queries: tuple[ParsedQuery, ...]
    source: Relation
    kinds: tuple[QidKind, ...]

    @classmethod
    def at_publish(cls, release: BuiltRelease) -> WorkloadTarget | None:
        resolved = release.staged.resolved
        if not resolved.workload:
            return None
        types = {c.name: c for c in resolved.catalog}
        kinds = tuple(
            QidKind(
                d.column,
                ("integer" if types[d.column].is_integer else "real")
                if d.is_numeric
                else "categorical",
                d.global_min if d.is_numeric else None,
                d.global_max if d.is_numeric else None,
            )
            for d in release.staged.workspace.dimensions
        )
        return cls(resolved.workload, resolved.source, kinds)

    @classmethod
    def of_release(cls, engine: Engine, release: PublishedRelease) -> WorkloadTarget | None:
        raw = release.certificate.get(FIELD)
        records = json.loads(raw) if isinstance(raw, str) else None
        if not records:
            return None
        try:
            source = TableName.parse(str(release.certificate["source"]))
        except ValueError:
            return None  # a join: the certificate names no one table to answer on
        catalog = {c.name: c for c in engine.columns(source) or []}
        if not catalog:
            return None
        main = release.names.main
        queries = tuple(
            parse_query(
                WorkloadQuery(name=r["name"], sql=r["sql"]),
                f"{FIELD}[{i}]",
                main.name,
                main.schema or "",
            )
            for i, r in enumerate(records)
        )
        kinds = []
        for a in release.attributes(engine):
            numeric = a["kind"] == "numeric"
            integer = numeric and catalog[a["attribute"]].is_integer
            kind: Kind = "integer" if integer else "real" if numeric else "categorical"
            kinds.append(QidKind(a["attribute"], kind, a["min_value"], a["max_value"]))
        return cls(queries, source, tuple(kinds))


def measure_workload(
    engine: Engine, relation: TableName, nodes: TableName, target: WorkloadTarget
) -> tuple[QueryError, ...]:
    """The error of each query of ``target`` on the published ``relation`` (whose categorical
    values are nodes of ``nodes``), one statement per query."""
    kinds = {k.column: k for k in target.kinds}
    errors = []
    for query in target.queries:
        params = query_plan(query, kinds)
        ((groups, relative, absolute, truth),) = engine.query(
            "workload/error",
            source=target.source,
            relation=relation,
            nodes=nodes,
            floor=FLOOR,
            **params,
        )
        n = int(groups or 0)
        errors.append(
            QueryError(
                query.name,
                query.sql,
                n,
                float(relative or 0.0) / n if n else 0.0,
                float(absolute or 0.0) / max(float(truth or 0.0), FLOOR),
            )
        )
    return tuple(errors)


def query_plan(query: ParsedQuery, kinds: Mapping[str, QidKind]) -> dict[str, Any]:
    """The template's parameters for ``query``: its quasi-identifiers (``dims``), GROUP BY
    columns, conditions on the other columns and aggregate."""
    qids = [c for c in query.columns if c in kinds and c != query.column]
    dims = [_dim(kinds[q], query) for q in qids]
    groups = [{"column": g, "dim": qids.index(g) if g in qids else None} for g in query.group_by]
    others = [c for c in query.where if c.column not in kinds]
    return {
        "dims": dims,
        "groups": groups,
        "others": others,
        "aggregate": query.aggregate,
        "column": query.column,
    }


def _dim(kind: QidKind, query: ParsedQuery) -> dict[str, Any]:
    conditions = [c for c in query.where if c.column == kind.column]
    if kind.kind == "categorical":
        conditions = [
            Condition(c.column, c.op, tuple(str(v) for v in c.values)) for c in conditions
        ]
    dim: dict[str, Any] = {
        "column": kind.column,
        "kind": kind.kind,
        "grouped": kind.column in query.group_by,
        "conditions": conditions,
    }
    if kind.kind == "integer":
        low, high, points = integer_bounds(conditions)
        dim.update(low=low, high=high, points=points)
    return dim


def integer_bounds(
    conditions: Iterable[Condition],
) -> tuple[int | None, int | None, list[int] | None]:
    """The integers an integer-typed quasi-identifier's conditions let through: ``[low, high]``
    (None: unbounded on that side) and the listed ones (None: all of the range)."""
    low: int | None = None
    high: int | None = None

    def above(bound: int) -> None:
        nonlocal low
        low = bound if low is None else max(low, bound)

    def below(bound: int) -> None:
        nonlocal high
        high = bound if high is None else min(high, bound)

    points: set[int] | None = None
    for c in conditions:
        values = [float(v) for v in c.values]
        if c.op == "between":
            above(math.ceil(values[0]))
            below(math.floor(values[1]))
        elif c.op == "<":
            below(math.ceil(values[0]) - 1)
        elif c.op == "<=":
            below(math.floor(values[0]))
        elif c.op == ">":
            above(math.floor(values[0]) + 1)
        elif c.op == ">=":
            above(math.ceil(values[0]))
        else:  # = and IN: the listed integers
            listed = {int(v) for v in values if v.is_integer()}
            points = listed if points is None else points & listed
    if points is None:
        return low, high, None
    kept = [p for p in sorted(points) if (low is None or p >= low) and (high is None or p <= high)]
    return low, high, kept


def metric_values(errors: Sequence[QueryError]) -> list[MetricValue]:
    """The ``__metrics`` rows of the errors: the mean over queries, then each query's."""
    if not errors:
        return []
    mean = math.fsum(e.mean_relative_error for e in errors) / len(errors)
    values = [MetricValue(FIELD, None, mean)]
    for e in errors:
        values += [
            MetricValue(FIELD, e.name, e.mean_relative_error),
            MetricValue("workload_total_error", e.name, e.total_error),
            MetricValue("workload_groups", e.name, float(e.groups)),
        ]
    return values


def errors_of(
    queries: Sequence[ParsedQuery], metrics: Iterable[MetricValue]
) -> tuple[QueryError, ...]:
    """The errors of ``queries`` recorded in ``metrics`` (:func:`metric_values`)."""
    found = {(m.name, m.attribute): m.value for m in metrics}
    return tuple(
        QueryError(
            q.name,
            q.sql,
            int(found[("workload_groups", q.name)]),
            found[(FIELD, q.name)],
            found[("workload_total_error", q.name)],
        )
        for q in queries
        if (FIELD, q.name) in found
    )


def certificate_field(queries: Sequence[ParsedQuery], metrics: Iterable[MetricValue]) -> str | None:
    """The certificate's ``workload_error`` (None without a workload: the field is left out)."""
    if not queries:
        return None
    return json.dumps([e.as_json() for e in errors_of(queries, metrics)])


class WorkloadError(Metric):
    """The error of the spec's workload queries on the release (LeFevre et al., KDD 2006;
    the estimator of :mod:`anonsql.metrics.olap`, see the module doc)."""

    name: ClassVar[str] = FIELD
    reference: ClassVar[str] = REFERENCE
    reads: ClassVar[tuple[type[MetricInput], ...]] = (WorkloadTarget,)
    layouts: ClassVar[tuple[str, ...]] = ("record",)

    def compute(self, ctx: MetricContext) -> list[MetricValue]:
        if ctx.hierarchy_nodes is None:
            return []
        errors = measure_workload(
            ctx.engine, ctx.relation, ctx.hierarchy_nodes, ctx.get(WorkloadTarget)
        )
        return metric_values(errors)


__all__ = [
    "FLOOR",
    "QidKind",
    "QueryError",
    "WorkloadError",
    "WorkloadTarget",
    "certificate_field",
    "errors_of",
    "integer_bounds",
    "measure_workload",
    "metric_values",
    "query_plan",
]
