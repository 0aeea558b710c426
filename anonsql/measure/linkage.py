"""Linkage through the published columns: two exact measures on a release, the publish gate
built on them, and the search that explains a failure (docs/security.md, "Linkage").

The adversary knows a target's original quasi-identifiers, may know any insensitive published
column of the target, knows which combinations of published-column values occur with which
quasi-identifier values in the population (here: the source), does not know sensitive values
and reads every published column. Two measures follow, both computed in SQL on the release:

* **Recovery** of a quasi-identifier ``q`` through columns ``S``: a published row whose ``q``
  is generalized (its interval or hierarchy node covers two or more values) is recovered when
  exactly one value inside its generalization occurs in the source together with the row's
  values of ``S`` (``sql_templates/linked/recovery.sql``; no confidence threshold). This
  covers a column that determines ``q`` alone or with others, a near-dependency intersected
  with the row's range, and a text holding the value.
* **Refined classes**: the certified models must hold on the classes keyed by the
  quasi-identifiers and the insensitive published columns, counted in persons where the models
  count persons: the models' own violation queries (:class:`~anonsql.privacy.check.PlannedCheck`)
  with those columns added to the class key.

Both are **monotone** in the set of columns considered: adding a column can only shrink a row's
candidates (a recovered row stays recovered) and only split classes. The gate therefore
evaluates the full sets once — **O(1) queries** in the number ``m`` of published columns: one
recovery query covering every quasi-identifier, and the refined-class checks (one query per
model) — and one evaluation proves every subset safe. Refined classes are unions of finer ones,
so a model holding on the finest classes holds on every coarser refinement when it is
:attr:`~anonsql.privacy.base.PrivacyModel.monotonic` (union-closed); the non-monotonic models
(δ-disclosure, population uniqueness) are also checked with every single column and every pair
(``1 + m + m(m-1)/2`` checks each). Models that are not class statistics are not refined: a
person-keyed model (1:M consistency: a person's rows agree on the quasi-identifiers, not on
other columns) and a model reading a population table keyed by the quasi-identifiers (k-map:
the population holds no other column).

Only when the gate fails does :func:`explain` search subsets, to name the smallest combination:
every single column, then pairs for what singles did not explain — at most ``m + m(m-1)/2``
evaluations per measure, and never more than :data:`EXPLANATION_BUDGET`; what is still
unexplained is reported through the full set.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import TYPE_CHECKING

from anonsql.engines import Engine
from anonsql.privacy.check import Grouping, PlannedCheck, run_checks
from anonsql.resolve.linked import LinkageColumns, LinkageFinding, linkage_columns, refinable
from anonsql.sql import CountedRows, Relation, TableName
from anonsql.stage import exposure_columns

if TYPE_CHECKING:
    from anonsql.publish import BuiltRelease
    from anonsql.release.reader import PublishedRelease

#: The most subset evaluations :func:`explain` runs per measure (``m + m(m-1)/2`` for ``m``
#: columns reaches it at m = 15); the rest is reported through the full set.
EXPLANATION_BUDGET = 120


@dataclass(frozen=True)
class CoveredQid:
    """A quasi-identifier as the recovery measure reads its published values: numeric
    (``"[lo, hi]"`` text or the plain value) or categorical (a label of its hierarchy, whose
    nodes are in the release's ``hierarchy_nodes``)."""

    column: str
    numeric: bool


@dataclass(frozen=True)
class LinkageTarget:
    """What the linkage measures read of one release.

    ``relation``: its rows (what analysts query, or the unguarded released rows at publish);
    ``grouping``: the same rows grouped, each group with its row count, read instead of
    ``relation`` by the recovery measure and the refined checks it serves; ``source``: the
    rows with their original values (the adversary's population); ``nodes``: the hierarchy
    nodes of the categorical quasi-identifiers; ``checks``: the release's planned privacy
    checks, of which those on ``relation`` are refined; ``recovered``: the recovery figures
    already read of these relations (:func:`recovered_rows`), shared by the readers of one
    release being published.
    """

    engine: Engine
    relation: TableName
    source: Relation
    nodes: TableName | None
    qids: tuple[CoveredQid, ...]
    checks: tuple[PlannedCheck, ...]
    columns: LinkageColumns
    recovered: MutableMapping[str, dict[str, int]] | None = field(
        default=None, compare=False, repr=False
    )
    #: The relation the refined classes are checked on, when not ``relation``: a later
    #: version's changed classes (:meth:`~anonsql.layouts.base.Layout.checked_relation`).
    checked: TableName | None = None
    #: The same rows grouped (:class:`Grouping`): the recovery measure reads its table
    #: instead of ``relation``, and the refined checks it serves read it too.
    grouping: Grouping | None = None
    #: ``source``'s rows counted (a release being published: the run's
    #: :attr:`~anonsql.algorithms.workspace.Workspace.counted`), read by the recovery measure.
    counted: CountedRows | None = None
    #: What serves the refined checks when not ``grouping``: a later version's groups of the
    #: classes it changes (:meth:`~anonsql.layouts.base.Layout.check_grouping`).
    checked_grouping: Grouping | None = None

    @property
    def classes_grouping(self) -> Grouping | None:
        """The grouping the refined-class checks may read."""
        return self.checked_grouping if self.checked_grouping is not None else self.grouping

    @property
    def grouped(self) -> TableName | None:
        """The grouping's table (its ``__anonsql_rows`` rows per group), or None."""
        return self.grouping.relation if self.grouping is not None else None

    @property
    def classes_relation(self) -> TableName:
        """What the refined-class checks read (``checks`` on it are refined)."""
        return self.checked or self.relation


@dataclass(frozen=True)
class Linkage:
    """The linkage measures of a release over the full sets of columns: rows recovered per
    quasi-identifier (through ``columns.recovery``) and violations per model on the classes
    refined by ``columns.classes`` (and, for non-monotonic models, by each single column and
    pair); ``findings`` explain a failure (:func:`explain`), ``queries`` counts the subset
    evaluations that took."""

    columns: LinkageColumns
    recovered: Mapping[str, int] = field(default_factory=dict)
    refined: Mapping[str, int] = field(default_factory=dict)
    findings: tuple[LinkageFinding, ...] = ()
    queries: int = 0

    @property
    def holds(self) -> bool:
        return not any(self.recovered.values()) and not any(self.refined.values())

    def violations(self) -> dict[str, int]:
        """The failures as violation counts (``anonsql check``): recovered rows per
        quasi-identifier, violating refined classes per model."""
        through = ", ".join(self.columns.recovery)
        found = {
            f"recovery of {q} through ({through}) [rows]": n for q, n in self.recovered.items()
        }
        return {**found, **self.refined}


def recovered_rows(
    engine: Engine,
    relation: Relation,
    source: Relation,
    nodes: TableName | None,
    qids: Sequence[CoveredQid],
    columns: Sequence[str],
    *,
    weighted: bool = False,
    memo: MutableMapping[str, dict[str, int]] | None = None,
    counted: CountedRows | None = None,
) -> dict[str, int]:
    """Per quasi-identifier, the rows of ``relation`` whose generalized value is recovered
    through ``columns`` (one query for every quasi-identifier); ``weighted``: ``relation`` is
    grouped, ``n`` rows per group.

    ``memo`` holds the figures of the queries already run, by their text, for relations that
    do not change while it lives (a release being published: the attack and the exposure
    measure ask the same question of the same relations, a full scan of the source and the
    release each time). ``counted``: ``source``'s rows counted, read instead of it when they
    have every column the query groups by (the query reads distinct combinations only)."""
    if not qids:
        return {}
    grouped = [*columns, *(q.column for q in qids)]
    distinct = False
    if counted is not None and counted.covers(grouped):
        source, distinct = counted.relation, counted.grouped_by(grouped)
    sql = engine.sql.render(
        "linked/recovery",
        release=relation,
        source=source,
        nodes=nodes,
        qids=list(qids),
        columns=list(columns),
        weighted=weighted,
        distinct=distinct,
    )
    if memo is not None and sql in memo:
        return dict(memo[sql])
    found = {q.column: 0 for q in qids}
    for index, recovered in engine.fetchall(sql):
        found[qids[int(index)].column] = int(recovered or 0)
    if memo is not None:
        memo[sql] = dict(found)
    return found


def refined_checks(
    checks: Iterable[PlannedCheck],
    relation: TableName,
    columns: Sequence[str],
    *,
    subsets: bool = True,
) -> list[PlannedCheck]:
    """The checks on ``relation`` with ``columns`` added to their class keys; with ``subsets``,
    the non-monotonic models also with each single column and each pair."""
    if not columns:
        return []
    refined = []
    for check in checks:
        if check.relation != relation:
            continue
        models = tuple(m for m in check.models if refinable(m))
        keys = [tuple(columns)]
        if subsets and len(columns) > 1:
            keys += [*combinations(columns, 1), *combinations(columns, 2)]
        for key in dict.fromkeys(keys):
            full = key == tuple(columns)
            chosen = models if full else tuple(m for m in models if not m.monotonic)
            if chosen:
                refined.append(
                    replace(
                        check,
                        qids=(*check.qids, *(c for c in key if c not in check.qids)),
                        models=chosen,
                        label=refined_label(key),
                    )
                )
    return refined


def refined_label(columns: Sequence[str]) -> str:
    return f"classes refined by ({', '.join(columns)})"


def refined_violations(
    engine: Engine,
    checks: Iterable[PlannedCheck],
    relation: TableName,
    columns: Sequence[str],
    grouping: Grouping | None = None,
) -> dict[str, int]:
    """Violations of the refined checks (:func:`refined_checks`), keyed ``model on classes
    refined by (...)``; those ``grouping`` serves read it."""
    planned = refined_checks(checks, relation, columns)
    if not planned:
        return {}
    return dict(run_checks(engine, relation, planned, grouping).violations)


def measure_linkage(target: LinkageTarget, *, explained: bool = True) -> Linkage:
    """Both measures over the full sets of columns (the gate's evaluation), and when they fail
    and ``explained``, the search for the smallest combinations (:func:`explain`)."""
    columns = target.columns
    recovered = _recovered(target, columns.recovery) if columns.recovery else {}
    refined = refined_violations(
        target.engine,
        target.checks,
        target.classes_relation,
        columns.classes,
        target.classes_grouping,
    )
    linkage = Linkage(columns, recovered, refined)
    if linkage.holds or not explained:
        return linkage
    findings, queries = explain(target, linkage)
    return replace(linkage, findings=findings, queries=queries)


def explain(target: LinkageTarget, linkage: Linkage) -> tuple[tuple[LinkageFinding, ...], int]:
    """The smallest combinations of columns behind a failed :class:`Linkage`, and the subset
    evaluations that took (at most :data:`EXPLANATION_BUDGET` per measure).

    Recovery: every single column that recovers rows of a quasi-identifier; where the best
    single recovers fewer rows than the full set, the pair that recovers the most of them (the
    first one reaching the full set's count ends the search for that quasi-identifier); where
    that is still fewer, the full set. Refined classes: every single column whose classes
    violate a model, else every pair, else the full set.
    """
    findings: list[LinkageFinding] = []
    full = linkage.recovered
    columns = linkage.columns.recovery
    best: dict[str, int] = {q: 0 for q, n in full.items() if n}
    budget, queries = EXPLANATION_BUDGET, 0
    for column in columns:
        if budget == 0:
            break
        budget, queries = budget - 1, queries + 1
        found = _recovered(target, [column])
        for q in best:
            if found.get(q):
                findings.append(LinkageFinding((column,), qid=q, rows=found[q]))
                best[q] = max(best[q], found[q])
    pending = {q for q, n in best.items() if n < full[q]}
    pairs: dict[str, LinkageFinding] = {}
    for pair in combinations(columns, 2):
        if not pending or budget == 0:
            break
        budget, queries = budget - 1, queries + 1
        found = _recovered(target, pair)
        for q in sorted(pending):
            if found.get(q, 0) > max(best[q], pairs[q].rows if q in pairs else 0):
                pairs[q] = LinkageFinding(pair, qid=q, rows=found[q])
            if found.get(q, 0) == full[q]:
                pending.discard(q)
    findings += pairs.values()
    findings += [LinkageFinding(columns, qid=q, rows=full[q]) for q in sorted(pending)]

    violated = {key: n for key, n in linkage.refined.items() if n}
    if violated:
        classes, spent = _explain_classes(target, violated)
        findings += classes
        queries += spent
    return tuple(findings), queries


def _explain_classes(
    target: LinkageTarget, violated: Mapping[str, int]
) -> tuple[list[LinkageFinding], int]:
    """The refined-class half of :func:`explain`."""
    columns = target.columns.classes
    failing = {
        m.describe(): m
        for check in target.checks
        if check.relation == target.classes_relation
        for m in check.models
        if any(key.startswith(m.describe() + " on ") for key in violated)
    }
    findings: list[LinkageFinding] = []
    pending = set(failing)
    budget, queries = EXPLANATION_BUDGET, 0
    for size in (1, 2):
        explained: set[str] = set()
        for subset in combinations(columns, size):
            if not pending or budget == 0:
                break
            budget, queries = budget - 1, queries + 1
            checks = [
                replace(c, models=tuple(m for m in c.models if m.describe() in pending))
                for c in target.checks
            ]
            planned = refined_checks(checks, target.classes_relation, subset, subsets=False)
            if not planned:
                continue
            found = run_checks(
                target.engine, target.classes_relation, planned, target.classes_grouping
            ).violations
            for key, n in found.items():
                model = key.split(" on ", 1)[0]
                if n and model in pending:
                    findings.append(LinkageFinding(tuple(subset), model=model, classes=n))
                    explained.add(model)
        pending -= explained
    for key, n in violated.items():
        model = key.split(" on ", 1)[0]
        if model in pending:
            findings.append(LinkageFinding(tuple(columns), model=model, classes=n))
            pending.discard(model)
    return findings, queries


def _recovered(target: LinkageTarget, columns: Sequence[str]) -> dict[str, int]:
    return recovered_rows(
        target.engine,
        target.grouped or target.relation,
        target.source,
        target.nodes,
        target.qids,
        columns,
        weighted=target.grouped is not None,
        memo=target.recovered,
        counted=target.counted,
    )


def release_target(
    engine: Engine, release: PublishedRelease, *, relations: str = "published"
) -> LinkageTarget:
    """The linkage measures' view of a published release, over the live source: what
    analysts query (``relations="published"``) or the unguarded released rows."""
    from anonsql.layouts import LAYOUTS
    from anonsql.measure.exposure import linked_exposure

    names = release.names
    layout = LAYOUTS.get(release.layout)
    checks = layout.planned_checks(
        names,
        release.qids,
        release.models,
        release.person_column,
        relations="published" if relations == "published" else "released",
    )
    kinds = {a["attribute"]: a["kind"] for a in release.attributes(engine)}
    qids = tuple(CoveredQid(q, kinds.get(q) == "numeric") for q in release.qids)
    relation = names.main if relations == "published" else names.released
    recorded = linked_exposure(release.certificate)
    nodes = names.hierarchy_nodes if engine.exists(names.hierarchy_nodes) else None
    return LinkageTarget(
        engine=engine,
        relation=relation,
        source=names.source,
        nodes=nodes,
        qids=qids if nodes is not None else tuple(q for q in qids if q.numeric),
        checks=tuple(checks),
        columns=recorded.columns,
    )


def release_linkage(
    engine: Engine, release: PublishedRelease, *, explained: bool = False
) -> Linkage:
    """Both linkage measures on a published release as analysts query it now, over the live
    source (``anonsql check``, ``status``, and attacks on a release): what a pass-through that
    changed in the source since publishing gives away."""
    return measure_linkage(release_target(engine, release), explained=explained)


def built_target(release: BuiltRelease) -> LinkageTarget:
    """The linkage measures' view of a release being published: its unguarded released rows
    (grouped once by the publish step where it could, ``release.grouping``; a release published
    as tables is read as its tables, which hold those rows), the source as the run read it,
    the layout's gate checks."""
    staged, built = release.staged, release.built
    columns = linkage_columns(staged.resolved.spec, exposure_columns(staged))
    # the rows the measures read: a frozen table as it is, else the released rows
    relation = built.main if release.kind == "TABLE" else built.released
    return LinkageTarget(
        engine=release.engine,
        relation=relation,
        source=built.source,
        nodes=built.hierarchy_nodes,
        qids=tuple(CoveredQid(d.column, d.is_numeric) for d in staged.workspace.dimensions),
        checks=tuple(release.layout.checks(built, release.kind)),
        columns=columns,
        recovered=release.recovered,
        # the relation the layout's gate checks (Layout.checks) read
        checked=release.layout.checked_relation(built, release.kind),
        grouping=release.grouping,
        checked_grouping=release.checked_grouping,
        counted=staged.workspace.counted,
    )
