"""Utility and risk of identity-reserved releases, in SQL over a published relation with a small
Python finish (Wang et al., KAIS 2019, §4.1 and §5).

* :func:`information_loss` — the normalized information loss ``NLoss`` (Eqs. 11-15) read from
  the published text form; suppressed records (absent from the release) cost ``|QI|`` each;
* :func:`count_query_workload` and :func:`query_error` — the relative error of count queries
  (Eq. 19) on a seeded workload;
* :func:`vulnerable_share` — the share of a release's classes that satisfy an IR model but not
  its EIR counterpart (``v = Num_vec / Num_ec``);
* :func:`release_metrics` — the three of a published ``danonyir``/``geneir`` release, on
  demand (:class:`IdentityReservedMeasure`: ``anonsql.api.identity_reserved_metrics``,
  ``anonsql metrics --identity-reserved``).

The published relation holds rows of persons: the person column (a pseudonym), each
quasi-identifier in the text form of
:mod:`anonsql.algorithms.identity_reserved.generalization`, and the sensitive column.

Workload (the paper leaves it open; this is the procedure, seeded): each query anchors on one
(individual, sensitive value) pair drawn uniformly; its sensitive predicate is that value; it
constrains ``λ`` quasi-identifiers drawn uniformly without replacement — a categorical one to the
anchor's value, a numeric one to an integer range of width ``w`` uniform in
``[0, ceil(spread · (U - L))]`` placed uniformly among the positions that contain the anchor's
value (clipped to the domain). Every query thus matches at least the anchor (``prec >= 1``);
queries with ``prec = 0`` would be skipped. ``prec`` and the estimate's ``num`` both count
individuals (equal to records when no individual repeats a value). The numeric overlap counts
integers, ``|[a, b]| = b - a + 1`` (digest decision D6).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pyarrow as pa

from anonsql import arrow
from anonsql.algorithms.identity_reserved.encoding import (
    CategoricalDomain,
    Individuals,
    NumericDomain,
    fetch_individuals,
)
from anonsql.algorithms.identity_reserved.generalization import (
    Clustering,
    assignment_table,
    class_table,
)
from anonsql.arrays import FloatArray, IntArray
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.metrics.base import OnDemandMeasure
from anonsql.privacy.base import EPSILON, PrivacyModel
from anonsql.privacy.identity_reserved import REFERENCE, IRAlphaBetaAnonymity, IRKLAnonymity
from anonsql.sql import Relation, TableName

if TYPE_CHECKING:
    from anonsql.release.reader import PublishedRelease


@dataclass(frozen=True)
class LossReport:
    """``loss`` = Eq. 14 (published records plus ``|QI|`` per suppressed record),
    ``nloss`` = Eq. 15."""

    records: int
    suppressed_records: int
    loss: float
    nloss: float


def information_loss(
    engine: Engine,
    published: Relation,
    *,
    source_records: int,
    numeric: Sequence[NumericDomain],
    categorical: Sequence[CategoricalDomain],
) -> LossReport:
    """``NLoss`` of a published relation whose source held ``source_records`` records."""
    return _loss(
        engine,
        published,
        source_records=source_records,
        numeric=[{"name": d.name, "span": float(d.span)} for d in numeric],
        categorical=[{"name": d.name, "size": d.size} for d in categorical],
    )


def _loss(
    engine: Engine,
    published: Relation,
    *,
    source_records: int,
    numeric: Sequence[dict[str, Any]],
    categorical: Sequence[dict[str, Any]],
) -> LossReport:
    records, loss = engine.query(
        "identity_reserved/loss",
        relation=published,
        numeric=list(numeric),
        categorical=list(categorical),
    )[0]
    qids = len(numeric) + len(categorical)
    suppressed = source_records - int(records)
    total = float(loss) + suppressed * qids
    denominator = source_records * qids
    return LossReport(
        records=int(records),
        suppressed_records=suppressed,
        loss=total,
        nloss=total / denominator if denominator else 0.0,
    )


def count_query_workload(
    individuals: Individuals,
    *,
    queries: int = 1000,
    lam: int = 1,
    seed: int = 0,
    spread: float = 0.1,
) -> pa.Table:
    """A seeded workload of count queries (see the module docstring), as a table to load:
    ``query``, ``sa``, and per numeric quasi-identifier ``lo<i>``/``hi<i>``, per categorical
    one ``v<i>`` (NULL when the query does not constrain it)."""
    qids = individuals.qid_count
    if not 1 <= lam <= qids:
        raise ValueError(f"lambda must be between 1 and the {qids} quasi-identifiers")
    rng = np.random.default_rng(seed)
    pairs = individuals.sa_codes.shape[0]
    anchor = rng.integers(pairs, size=queries)
    owner = np.repeat(np.arange(len(individuals)), individuals.set_sizes())[anchor]
    chosen = np.argsort(rng.random((queries, qids)), axis=1)[:, :lam]
    used = np.zeros((queries, qids), dtype=bool)
    used[np.arange(queries)[:, None], chosen] = True
    sa_labels = np.empty(len(individuals.sa_values), dtype=object)
    sa_labels[:] = list(individuals.sa_values)
    columns: dict[str, pa.Array] = {
        "query": arrow.array(np.arange(queries, dtype=np.int64)),
        "sa": arrow.array(list(sa_labels[individuals.sa_codes[anchor]])),
    }
    for a, domain in enumerate(individuals.numeric):
        value = individuals.low[owner, a]
        limit = math.ceil(spread * domain.span)
        width = rng.integers(0, limit + 1, size=queries).astype(np.float64)
        shift = np.floor(rng.random(queries) * (width + 1))
        low = np.maximum(value - shift, domain.low)
        high = np.minimum(value - shift + width, domain.high)
        mask = ~used[:, a]
        columns[f"lo{a}"] = pa.array(low, mask=mask)
        columns[f"hi{a}"] = pa.array(high, mask=mask)
    offset = len(individuals.numeric)
    for c, cat in enumerate(individuals.categorical):
        labels = np.asarray(cat.values, dtype=object)[individuals.codes[owner, c]]
        columns[f"v{c}"] = pa.array(list(labels), type=pa.string(), mask=~used[:, offset + c])
    return arrow.table(columns)


@dataclass(frozen=True)
class QueryError:
    """Per query ``prec`` and ``est``; ``relative_error`` = mean of ``|est - prec| / prec`` over
    the queries with ``prec > 0`` (``skipped`` counts the others)."""

    prec: IntArray
    est: FloatArray
    relative_error: float
    skipped: int


def query_error(
    engine: Engine,
    *,
    source: Relation,
    published: Relation,
    workload: TableName,
    person: str,
    sensitive: str,
    numeric: Sequence[str],
    categorical: Sequence[str],
) -> QueryError:
    """Eq. 19's relative error of the loaded ``workload`` (:func:`count_query_workload`)."""
    rows = engine.query(
        "identity_reserved/query_error",
        source=source,
        published=published,
        workload=workload,
        person=person,
        sensitive=sensitive,
        numeric=list(numeric),
        categorical=list(categorical),
    )
    prec = np.array([r[1] for r in rows], dtype=np.int64)
    est = np.array([r[2] for r in rows], dtype=np.float64)
    valid = prec > 0
    error = np.abs(est[valid] - prec[valid]) / prec[valid]
    return QueryError(
        prec=prec,
        est=est,
        relative_error=float(error.mean()) if error.size else 0.0,
        skipped=int((~valid).sum()),
    )


@dataclass(frozen=True)
class VulnerableShare:
    """``share = vulnerable / classes`` (the paper's ``v``); ``ir_classes`` satisfy the IR
    model (all of them in an IR release)."""

    classes: int
    ir_classes: int
    vulnerable: int

    @property
    def share(self) -> float:
        return self.vulnerable / self.classes if self.classes else 0.0


def vulnerable_share(
    engine: Engine,
    published: Relation,
    qids: Sequence[str],
    *,
    person: str,
    sensitive: str,
    k: int | None = None,
    ell: int | None = None,
    alpha: float | None = None,
    beta: float | None = None,
    record_counts: bool = False,
) -> VulnerableShare:
    """Vulnerable classes of a release: IR (k,l) but not EIR l (give ``k`` and ``ell``), or
    IR (α,β) but not EIR (α,β) (give ``alpha`` and ``beta``); with ``record_counts`` over the
    count-refined classes."""
    if (k is None) == (alpha is None) or (k is None) != (ell is None):
        raise ValueError("give either k and ell, or alpha and beta")
    if alpha is not None and beta is None:
        raise ValueError("give either k and ell, or alpha and beta")
    classes, ir_classes, vulnerable = engine.query(
        "identity_reserved/vulnerable",
        relation=published,
        qids=list(qids),
        person=person,
        column=sensitive,
        pair="kl" if k is not None else "alpha_beta",
        k=k,
        l=ell,
        alpha=alpha,
        beta=beta,
        epsilon=EPSILON,
        by_count=record_counts,
    )[0]
    return VulnerableShare(int(classes), int(ir_classes), int(vulnerable))


def publish_clustering(
    engine: Engine,
    *,
    target: TableName,
    source: Relation,
    individuals: Individuals,
    clustering: Clustering,
    person: str,
    sensitive: str,
    salt: str = "anonsql:0:",
) -> None:
    """Write a clustering's release as table ``target`` (tests, benchmarks; the pipeline
    publishes through its own steps): the class table and the assignment are loaded as
    ``<target>__classes`` / ``<target>__assignment`` and joined to the source."""
    classes = target.with_name(target.name + "__classes")
    assignment = target.with_name(target.name + "__assignment")
    engine.load_arrow(classes, class_table(individuals, clustering))
    engine.load_arrow(assignment, assignment_table(individuals, clustering))
    engine.run(
        "identity_reserved/publish_clusters",
        target=target,
        source=source,
        assignment=assignment,
        classes=classes,
        person=person,
        qids=list(individuals.qid_names),
        sensitive=sensitive,
        salt=salt,
    )


# -- on demand, for a published release --------------------------------------------------------


@dataclass(frozen=True)
class ReleaseMetrics:
    """The paper's measures of one published identity-reserved release (§5): ``NLoss``
    (Eq. 15) and the relative error of count queries (Eq. 19), for releases in the set
    generalization form (``None`` for taxonomy labels, which the recorded ``ncp`` measures),
    and per IR model the release claims, the share of its classes that fail the EIR
    counterpart (``v``)."""

    generalization: str
    loss: LossReport | None
    query_error: QueryError | None
    vulnerable: tuple[tuple[str, VulnerableShare], ...]

    def rows(self) -> list[tuple[str, float]]:
        """(name, value) pairs, for printing."""
        out: list[tuple[str, float]] = []
        if self.loss is not None:
            out += [
                ("nloss", self.loss.nloss),
                ("suppressed_records", self.loss.suppressed_records),
            ]
        if self.query_error is not None:
            out += [
                ("relative_error", self.query_error.relative_error),
                ("queries", int(self.query_error.prec.shape[0])),
            ]
        for model, share in self.vulnerable:
            out.append((f"vulnerable_share ({model})", share.share))
        return out


def release_metrics(
    engine: Engine,
    release: PublishedRelease,
    *,
    queries: int = 1000,
    lam: int = 1,
    seed: int = 0,
    spread: float = 0.1,
) -> ReleaseMetrics:
    """:class:`ReleaseMetrics` of a release of the ``identity_reserved`` layout, read back
    from the database (the workload of :func:`count_query_workload` over the private source
    view, loaded into the private schema for the query and dropped after)."""
    facts = release.person or {}
    if release.layout != "identity_reserved" or not facts.get("sensitive_column"):
        raise SpecError(
            "output",
            "this release was not published by danonyir or geneir",
            "measure a release of algorithm: danonyir or geneir",
        )
    person, sensitive = str(facts["person_id"]), str(facts["sensitive_column"])
    generalization = str(facts.get("generalization") or "set")
    names = release.names
    attributes = {a["attribute"]: a for a in release.attributes(engine)}
    qids = list(release.qids)
    numeric = [
        NumericDomain(q, float(attributes[q]["min_value"]), float(attributes[q]["max_value"]))
        for q in qids
        if attributes[q]["kind"] == "numeric"
    ]
    categorical_names = [q for q in qids if attributes[q]["kind"] != "numeric"]
    vulnerable = tuple(
        (m.name, _vulnerable_of(engine, names.main, qids, m, person, sensitive))
        for m in release.models
        if isinstance(m, (IRKLAnonymity, IRAlphaBetaAnonymity))
    )
    if generalization != "set":
        return ReleaseMetrics(generalization, None, None, vulnerable)
    loss = _loss(
        engine,
        names.main,
        source_records=release.source_rows,
        numeric=[{"name": d.name, "span": float(d.span)} for d in numeric],
        categorical=[
            {"name": q, "size": int(attributes[q]["leaf_count"] or 0)} for q in categorical_names
        ],
    )
    individuals = fetch_individuals(
        engine,
        names.source,
        person=person,
        sensitive=sensitive,
        numeric=[d.name for d in numeric],
        categorical=categorical_names,
        domains={d.name: (d.low, d.high) for d in numeric},
    )
    workload = TableName(f"{names.main.name}__ir_workload", names.private)
    engine.drop_any(workload)
    engine.load_arrow(
        workload,
        count_query_workload(individuals, queries=queries, lam=lam, seed=seed, spread=spread),
    )
    try:
        error = query_error(
            engine,
            source=names.source,
            published=names.main,
            workload=workload,
            person=person,
            sensitive=sensitive,
            numeric=[d.name for d in individuals.numeric],
            categorical=[d.name for d in individuals.categorical],
        )
    finally:
        engine.drop(workload)
    return ReleaseMetrics(generalization, loss, error, vulnerable)


def _vulnerable_of(
    engine: Engine,
    published: Relation,
    qids: Sequence[str],
    model: PrivacyModel,
    person: str,
    sensitive: str,
) -> VulnerableShare:
    refined = any(b.kind == "record_count_refinement" for b in model.bounds())
    if isinstance(model, IRKLAnonymity):
        return vulnerable_share(
            engine,
            published,
            qids,
            person=person,
            sensitive=sensitive,
            k=model.k,
            ell=model.ell,
            record_counts=refined,
        )
    assert isinstance(model, IRAlphaBetaAnonymity)
    return vulnerable_share(
        engine,
        published,
        qids,
        person=person,
        sensitive=sensitive,
        alpha=model.alpha,
        beta=model.beta,
        record_counts=refined,
    )


@dataclass(frozen=True)
class IdentityReservedMeasure(OnDemandMeasure[ReleaseMetrics]):
    """The measures of Wang et al. (KAIS 2019, §5) of a ``danonyir``/``geneir`` release
    (:func:`release_metrics`) as an on-demand measure: its fields are the workload's
    parameters."""

    name: ClassVar[str] = "identity_reserved"
    reference: ClassVar[str] = REFERENCE
    layouts: ClassVar[tuple[str, ...]] = ("identity_reserved",)

    queries: int = 1000
    lam: int = 1
    seed: int = 0
    spread: float = 0.1

    def measure(self, engine: Engine, release: PublishedRelease) -> ReleaseMetrics:
        return release_metrics(
            engine, release, queries=self.queries, lam=self.lam, seed=self.seed, spread=self.spread
        )
