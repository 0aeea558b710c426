"""Metrics of a personalized release, as SQL aggregates with a small Python finish.

Reddy, Raju, Valli Kumari (IJET 2018) §3.2-3.4 and digest 002 §4, with its decisions:

* transformation ratio (eq. 1): transformed cells over published rows, and over source rows
  (the paper's |Dataset| is ambiguous, M5); categorical: cells published with an ancestor;
  numeric: cells published with a weight below 1;
* privacy gain: categorical eq. 3 (descendants of the published node over N_T - 1, leaf 0,
  root 1); numeric 1 - weight; QIDs 1 - 1/|G| (the candidate for A_(t[QI]));
* utility gain: categorical eq. 4 read with depths (1 for an unchanged leaf, depth / (H_T - 1)
  for an ancestor, M4); numeric the weight; QIDs 1 (published exactly, as multisets);
  the overall gains average the attributes (QIDs, categorical and numeric alike);
* NCP: QIDs read as the smallest generalization covering each group's multiset; categorical
  sensitive labels by the leaves below them;
* adversary confidence per sensitive attribute: the largest posterior of one leaf value or term
  for a target whose QID group is known, with the tuple-level links and with the group-bucket
  counts only (see :mod:`anonsql.layouts.personalized.checks`);
* count-query error: queries over one QID predicate and ``d`` sensitive attributes, actual
  counts against the estimate from the published relations, relative error
  ``|actual - estimate| / max(actual, sanity)`` with sanity = 0.1 % of the rows (at least 1).

:class:`PersonalizedMetric` records them for every personalized release as it is published
(:func:`release_metrics`); they read the run's working tables, so a release read back reports
none of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np
import pyarrow as pa
from typing_extensions import Self

from anonsql import arrow
from anonsql.algorithms.personalized.config import REFERENCE, CategoricalSA
from anonsql.engines.base import Engine
from anonsql.metrics.base import Metric, MetricContext, MetricInput, MetricValue

if TYPE_CHECKING:
    from anonsql.algorithms.personalized.decisions import Decisions
    from anonsql.publish import BuiltRelease


@dataclass(frozen=True)
class SensitiveMetrics:
    """Metrics of one sensitive attribute. ``bound`` is what the profile declares on an
    adversary's confidence (1.0 for paper_compat, which declares none)."""

    attribute: str
    kind: Literal["categorical", "numeric"]
    transformed: int
    transformation_ratio: float
    transformation_ratio_source: float
    utility_gain: float
    privacy_gain: float
    ncp: float | None
    confidence_links: float
    confidence_published: float
    bound: float


@dataclass(frozen=True)
class QueryError:
    """Relative error of ``queries`` count queries over ``sensitive`` sensitive attributes."""

    sensitive: int
    queries: int
    mean: float
    median: float


@dataclass(frozen=True)
class PersonalizedMetrics:
    """Every metric of a release (see the module docstring)."""

    rows: int
    source_rows: int
    suppression_ratio: float
    groups: int
    qid_ncp: tuple[tuple[str, float], ...]
    qid_privacy_gain: float
    sensitive: tuple[SensitiveMetrics, ...]
    utility_gain: float
    privacy_gain: float
    query_error: tuple[QueryError, ...]

    @property
    def ncp(self) -> float:
        """Average QID NCP."""
        return float(np.mean([v for _, v in self.qid_ncp])) if self.qid_ncp else 0.0

    def confidence(self, attribute: str) -> float:
        """The adversary's largest confidence through what the profile publishes."""
        return next(s.confidence_published for s in self.sensitive if s.attribute == attribute)


def _per_attr(rows: Sequence[tuple[object, ...]]) -> dict[int, tuple[object, ...]]:
    return {int(str(r[0])): r for r in rows}


def _fraction(part: float, whole: int) -> float:
    return part / whole if whole else 0.0


def sensitive_metrics(engine: Engine, decisions: Decisions) -> tuple[SensitiveMetrics, ...]:
    """Per sensitive attribute: transformation, gains, NCP and adversary confidences."""
    config, work = decisions.config, decisions.work
    cells = work.slots
    base = _per_attr(
        engine.query("personalized/metrics_sensitive", cells=cells, labels=work.labels)
    )
    links = _per_attr(
        engine.query(
            "personalized/adversary_groups",
            cells=cells,
            cell_leaves=work.cell_leaves,
            members=work.members,
        )
    )
    mapped = _per_attr(
        engine.query(
            "personalized/adversary_mapping",
            cells=cells,
            cell_leaves=work.cell_leaves,
            members=work.members,
        )
    )
    rows = decisions.consent.consenting_rows
    source = decisions.consent.source_rows
    out = []
    for attr, sa in enumerate(config.sensitive):
        b = base.get(attr, (attr, 0, 0, 0.0, 0.0, None))
        transformed = int(str(b[2]))
        link = float(str(links[attr][1])) if attr in links else 0.0
        published = (
            link
            if config.profile == "paper_compat"
            else (float(str(mapped[attr][1])) if attr in mapped else 0.0)
        )
        categorical = isinstance(sa, CategoricalSA)
        out.append(
            SensitiveMetrics(
                attribute=sa.column,
                kind="categorical" if categorical else "numeric",
                transformed=transformed,
                transformation_ratio=_fraction(transformed, rows),
                transformation_ratio_source=_fraction(transformed, source),
                utility_gain=_fraction(float(str(b[3] or 0)), rows),
                privacy_gain=_fraction(float(str(b[4] or 0)), rows),
                ncp=_fraction(float(str(b[5])), rows) if categorical and b[5] is not None else None,
                confidence_links=link,
                confidence_published=published,
                bound=config.bound(attr) if config.profile == "safe" else 1.0,
            )
        )
    return tuple(out)


def qid_ncp(engine: Engine, decisions: Decisions) -> tuple[tuple[str, float], ...]:
    """Average NCP of every quasi-identifier's published multisets (categorical ones by their
    distinct values, with no hierarchy; a release of the spine measures its generalized
    quasi-identifiers with the registered ``ncp`` metric instead)."""
    config, work = decisions.config, decisions.work
    rows = decisions.consent.consenting_rows
    if rows == 0:
        return tuple((q, 0.0) for q in config.quasi_identifiers)
    info = engine.columns(work.rows) or []
    numeric = {c.name: c.is_numeric for c in info}
    qids = [
        {"index": i, "numeric": numeric.get(f"q{i}", False)}
        for i in range(len(config.quasi_identifiers))
    ]
    result = _per_attr(
        engine.query("personalized/metrics_qids", rows=work.rows, members=work.members, qids=qids)
    )
    return tuple(
        (q, float(str(result[i][1] or 0)) / rows) for i, q in enumerate(config.quasi_identifiers)
    )


def make_workload(
    engine: Engine,
    decisions: Decisions,
    *,
    sensitive: int,
    queries: int,
    selectivity: float,
    seed: int,
) -> tuple[pa.Table, pa.Table]:
    """A seeded workload of count queries: (queries, predicates) tables.

    Each query takes a random quasi-identifier with a run of ``selectivity`` of its distinct
    values (in value order), and ``sensitive`` distinct sensitive attributes, each with a leaf
    (or term) drawn in proportion to its frequency. The loop is over queries, not rows.
    """
    config, work = decisions.config, decisions.work
    rng = np.random.default_rng(seed)
    domains = engine.query_arrow(
        "personalized/qid_domains", rows=work.rows, qids=list(config.quasi_identifiers)
    )
    d_attr = arrow.to_numpy(domains.column("attr"))
    d_pos = arrow.to_numpy(domains.column("pos"))
    d_value = np.asarray(domains.column("value").to_pylist(), dtype=object)
    leaves = engine.query_arrow("personalized/leaf_counts", cells=work.slots)
    l_attr = arrow.to_numpy(leaves.column("attr"))
    l_leaf = arrow.to_numpy(leaves.column("leaf"))
    l_n = arrow.to_numpy(leaves.column("n")).astype(np.float64)
    n_sa = len(config.sensitive)
    columns: dict[str, list[int]] = {"query": [], "qattr": []}
    for j in range(sensitive):
        columns[f"a{j}"] = []
        columns[f"v{j}"] = []
    pred_query: list[int] = []
    pred_value: list[str] = []
    for q in range(queries):
        qattr = int(rng.integers(len(config.quasi_identifiers)))
        mask = d_attr == qattr
        values = d_value[mask][np.argsort(d_pos[mask])]
        span = max(1, round(selectivity * len(values)))
        start = int(rng.integers(0, len(values) - span + 1))
        pred_query.extend([q] * span)
        pred_value.extend(str(v) for v in values[start : start + span])
        columns["query"].append(q)
        columns["qattr"].append(qattr)
        for j, attr in enumerate(rng.choice(n_sa, size=sensitive, replace=False)):
            own = l_attr == attr
            weights = l_n[own] / l_n[own].sum()
            columns[f"a{j}"].append(int(attr))
            columns[f"v{j}"].append(int(rng.choice(l_leaf[own], p=weights)))
    table = arrow.table({k: arrow.array(v, pa.int64()) for k, v in columns.items()})
    predicates = arrow.table(
        {
            "query": arrow.array(pred_query, pa.int64()),
            "value": arrow.array(pred_value, pa.string()),
        }
    )
    return table, predicates


def query_error(
    engine: Engine,
    decisions: Decisions,
    *,
    sensitive: int,
    queries: int = 200,
    selectivity: float = 0.1,
    seed: int = 0,
) -> QueryError:
    """Relative error of a seeded workload of count queries over ``sensitive`` sensitive
    attributes, estimated from the profile's published mapping."""
    config, work = decisions.config, decisions.work
    rows = decisions.consent.consenting_rows
    if sensitive > len(config.sensitive) or sensitive < 1:
        raise ValueError("sensitive must be between 1 and the number of sensitive attributes")
    if rows == 0:
        return QueryError(sensitive, 0, 0.0, 0.0)
    table, predicates = make_workload(
        engine,
        decisions,
        sensitive=sensitive,
        queries=queries,
        selectivity=selectivity,
        seed=seed,
    )
    # read-only inputs of one query: scratch tables (DuckDB scans them in place, so a run's
    # publish transaction, which measures the release, writes nothing outside the release)
    queries_table = engine.scratch(work.queries, table)
    predicates_table = engine.scratch(work.predicates, predicates)
    engine.analyze(queries_table)
    engine.analyze(predicates_table)
    result = engine.query_arrow(
        "personalized/query_error",
        cells=work.slots,
        cell_leaves=work.cell_leaves,
        members=work.members,
        row_values=work.row_values,
        queries=queries_table,
        predicates=predicates_table,
        d=sensitive,
        mapping="tuple" if config.profile == "paper_compat" else "group",
    )
    actual = arrow.to_numpy(result.column("actual")).astype(np.float64)
    estimate = arrow.to_numpy(result.column("estimate")).astype(np.float64)
    sanity = max(1.0, 0.001 * rows)
    error = np.abs(actual - estimate) / np.maximum(actual, sanity)
    return QueryError(sensitive, len(error), float(error.mean()), float(np.median(error)))


def personalized_metrics(
    engine: Engine,
    decisions: Decisions,
    *,
    query_sensitive: Sequence[int] = (1, 2),
    queries: int = 200,
    seed: int = 0,
) -> PersonalizedMetrics:
    """Every metric of a release of ``decisions`` (its working tables must still exist)."""
    config = decisions.config
    rows = decisions.consent.consenting_rows
    sensitive = sensitive_metrics(engine, decisions)
    ncp = qid_ncp(engine, decisions)
    groups = decisions.grouping.groups
    qid_pg = _fraction(rows - groups, rows)
    gains_u = [1.0] * len(config.quasi_identifiers) + [s.utility_gain for s in sensitive]
    gains_p = [qid_pg] * len(config.quasi_identifiers) + [s.privacy_gain for s in sensitive]
    errors = tuple(
        query_error(engine, decisions, sensitive=d, queries=queries, seed=seed)
        for d in query_sensitive
        if d <= len(config.sensitive)
    )
    return PersonalizedMetrics(
        rows=rows,
        source_rows=decisions.consent.source_rows,
        suppression_ratio=decisions.consent.suppression_ratio,
        groups=groups,
        qid_ncp=ncp,
        qid_privacy_gain=qid_pg,
        sensitive=sensitive,
        utility_gain=float(np.mean(gains_u)),
        privacy_gain=float(np.mean(gains_p)),
        query_error=errors,
    )


def release_metrics(
    engine: Engine, decisions: Decisions, *, queries: int, seed: int
) -> list[tuple[str, str | None, float]]:
    """The metrics a release of the spine records beside the registered ones, as
    ``(metric, attribute, value)``: groups, QID privacy gain, overall utility and privacy gain;
    per sensitive attribute its transformation ratio, utility and privacy gain, NCP
    (categorical), the adversary's largest confidence through what is published
    (``adversary_confidence``) and with the true row links (``adversary_confidence_links``);
    and the count-query error over 1 and 2 sensitive attributes (``query_error_d1``, ``_d2``;
    ``queries`` per workload, none when 0)."""
    config = decisions.config
    rows = decisions.consent.consenting_rows
    sensitive = sensitive_metrics(engine, decisions)
    groups = decisions.grouping.groups
    qid_pg = _fraction(rows - groups, rows)
    qids = len(config.quasi_identifiers)
    out: list[tuple[str, str | None, float]] = [
        ("groups", None, float(groups)),
        ("qid_privacy_gain", None, qid_pg),
        ("utility_gain", None, float(np.mean([1.0] * qids + [s.utility_gain for s in sensitive]))),
        (
            "privacy_gain",
            None,
            float(np.mean([qid_pg] * qids + [s.privacy_gain for s in sensitive])),
        ),
    ]
    for s in sensitive:
        out += [
            ("transformation_ratio", s.attribute, s.transformation_ratio),
            ("utility_gain", s.attribute, s.utility_gain),
            ("privacy_gain", s.attribute, s.privacy_gain),
            ("adversary_confidence", s.attribute, s.confidence_published),
            ("adversary_confidence_links", s.attribute, s.confidence_links),
        ]
        if s.ncp is not None:
            out.append(("sensitive_ncp", s.attribute, s.ncp))
    if queries > 0:
        for d in (1, 2):
            if d <= len(config.sensitive):
                error = query_error(engine, decisions, sensitive=d, queries=queries, seed=seed)
                out.append((f"query_error_d{d}", None, error.mean))
    return out


@dataclass(frozen=True)
class PersonalizedRun(MetricInput):
    """What the personalized metrics read of the run being published: its decisions (with
    their working tables) and the count-query workload's size and seed. None on a release read
    back: the working tables are gone."""

    decisions: Decisions
    query_workload: int
    seed: int

    @classmethod
    def at_publish(cls, release: BuiltRelease) -> Self | None:
        # imported here: a run of another layout loads none of the algorithm's modules
        from anonsql.algorithms.personalized.algorithm import PersonalizedFacts

        facts = release.layout.facts
        if not isinstance(facts, PersonalizedFacts):
            return None
        return cls(facts.decisions, facts.query_workload, facts.seed)


class PersonalizedMetric(Metric):
    """The metrics of a personalized release (:func:`release_metrics`)."""

    name = "personalized"
    reference = REFERENCE
    reads = (PersonalizedRun,)
    layouts = ("personalized",)

    def compute(self, ctx: MetricContext) -> list[MetricValue]:
        run = ctx.get(PersonalizedRun)
        found = release_metrics(
            ctx.engine, run.decisions, queries=run.query_workload, seed=run.seed
        )
        return [MetricValue(*m) for m in found]
