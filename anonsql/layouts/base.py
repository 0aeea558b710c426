"""Release layouts: the shape of what a run publishes, and what verifies it.

A layout turns an algorithm's decisions (the working ``rows`` and ``parts`` tables) into the
release's companions, creates the released relation(s), and declares the checks and row counts
that verify the release, the relation that class metrics measure, and its certificate fields.
Algorithms name their layout (``Algorithm.layout``); the pipeline's steps (stage, publish,
verify, measure, certify) run the shared work and ask the layout for the rest.

The class methods take only what a published release's certificate records, so the release
reader (``anonsql check``, ``metrics``) plans the same checks as the publish gate.

**Facts.** What a layout reads of the algorithm's run beyond the working tables is a frozen
dataclass it declares (``Facts``, a :class:`~anonsql.algorithms.base.LayoutFacts` defined
beside the layout, and the type argument of ``Layout[...]``); the algorithms that name the
layout fill it in ``Partitioning.facts``, and :meth:`Layout.bound` checks its type once, so a
layout reads ``self.facts`` typed.

**Guarded live views.** Each released relation is first a private view over the live source
(``__released``); what analysts query is that view minus every class, person or (for models
whose verdict depends on the whole table) the whole release that currently violates a certified
model, found by the models' own violation queries (:func:`guard_stages`). The publish gate checks
the unguarded relation and requires the guard to withhold nothing; ``status`` counts what it
withholds later. ``materialize: table`` publishes a frozen copy instead.

A layout whose guarantees are not all privacy models over equivalence classes adds its own
violation counts (:meth:`Layout.violations` at publish, :meth:`Layout.release_violations` on a
published release); the defaults add none. Metrics of a layout's own are registered with the
others (:mod:`anonsql.metrics`), declaring the layouts they measure.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar, cast

from anonsql.algorithms.base import LayoutFacts, Partitioning
from anonsql.algorithms.workspace import Workspace
from anonsql.engines import Engine
from anonsql.engines.types import TypeClass
from anonsql.privacy.base import PrivacyModel
from anonsql.privacy.check import Grouping, PlannedCheck
from anonsql.resolve import Resolved
from anonsql.resolve.linked import linkage_columns, refinable
from anonsql.spec.output import OutputNames
from anonsql.sql import SqlRenderer, TableName
from anonsql.sql.quoting import TEMPLATE_DIALECT

if TYPE_CHECKING:
    from anonsql.release.reader import PublishedRelease

#: Which relations a check reads: what analysts query, or the unguarded released rows.
CheckedRelations = Literal["published", "released"]
#: The order of the guard's stages (see :attr:`PrivacyModel.guard`).
GUARD_ORDER = ("person", "class", "table")


def guard_stages(
    renderer: SqlRenderer,
    models: Sequence[PrivacyModel],
    qids: Sequence[str],
    person: str | None,
    known: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """The guard's stages: per kind of key, the models' violation queries (in the templates'
    dialect) over the previous stage (``stage_<i>``), and for a class stage the columns keying
    its classes. With ``known`` (the insensitive columns published unchanged, which an
    adversary may know: :mod:`anonsql.measure.linkage`), the class-keyed models are also run
    on the classes refined by them, first: a class whose refined classes all hold holds too
    (the models are union-closed), so the later stages undo nothing of it."""
    stages: list[dict[str, Any]] = []
    for key in GUARD_ORDER:
        group = [m for m in models if m.guard == key]
        refined = [m for m in group if refinable(m)] if key == "class" and known else []
        for columns, chosen in ((([*qids, *known]), refined), (list(qids), group)):
            if not chosen:
                continue
            relation = TableName(f"stage_{len(stages)}")
            queries = [m.violations_sql(renderer, relation, columns, person=person) for m in chosen]
            stages.append({"key": key, "columns": columns, "queries": queries})
    return stages


@dataclass(frozen=True)
class Coverage:
    """Source rows now, those a release covers (their quasi-identifier vector, person or item
    is in its maps) and those of them it suppressed."""

    source_rows: int
    covered_rows: int
    suppressed_rows: int = 0


#: The facts type a layout reads (``Layout.Facts``).
F = TypeVar("F", bound=LayoutFacts)

#: Companions every layout publishes and grants (the main relation aside).
SHARED_GRANTED = ("classes", "certificate", "metrics")


#: A value of each type class that ``COALESCE`` can stand in for NULL (compared with the
#: type's own ``=``, so e.g. numeric 5.0 and 5.00 still match as they do in a GROUP BY).
_NULL_STAND_INS: dict[TypeClass, str | int | bool] = {
    TypeClass.TEXT: "",
    TypeClass.INTEGER: 0,
    TypeClass.REAL: 0,
    TypeClass.BOOLEAN: False,
}


def null_stand_ins(engine: Engine, relation: TableName, columns: Sequence[str]) -> dict[str, Any]:
    """For an engine that cannot hash ``IS NOT DISTINCT FROM``: per key column of ``relation``
    whose type has a stand-in, the value ``COALESCE`` replaces NULL with; the guard then joins
    on ``COALESCE(a, v) = COALESCE(b, v) AND (a IS NULL) = (b IS NULL)``, which holds exactly
    when ``a IS NOT DISTINCT FROM b`` and hashes. Columns of other types keep the operator."""
    types = {c.name: c.type_class for c in engine.columns(relation) or []}
    return {c: _NULL_STAND_INS[types[c]] for c in columns if types.get(c) in _NULL_STAND_INS}


def guard_params(
    engine: Engine,
    released: TableName,
    models: Sequence[PrivacyModel],
    qids: Sequence[str],
    person: str | None,
    known: Sequence[str] = (),
) -> dict[str, Any]:
    """The parameters of the ``publish/guarded_rows`` query over ``released`` (its ``released``
    aside); ``known``: the columns refining the classes."""
    renderer = SqlRenderer(TEMPLATE_DIALECT, engine.sql.defaults)
    keys = [*qids, *known, *([person] if person else [])]
    return {
        "stages": guard_stages(renderer, models, qids, person, known),
        "qids": qids,
        "person": person,
        "hashed": {} if engine.hashes_null_safe_joins else null_stand_ins(engine, released, keys),
    }


def create_guarded_view(
    engine: Engine,
    target: TableName,
    released: TableName,
    models: Sequence[PrivacyModel],
    qids: Sequence[str],
    person: str | None,
    known: Sequence[str] = (),
) -> None:
    """Create ``target``: ``released`` minus what violates ``models`` now (:func:`guard_stages`;
    ``known``: the columns refining the classes), fenced where the engine's planner would
    otherwise evaluate an analyst's predicates below the guard (:meth:`Engine.create_guarded`),
    a security barrier where the engine has them."""
    params = guard_params(engine, released, models, qids, person, known)
    engine.create_guarded(target, released, **params)
    if engine.security_barrier_views:
        engine.run("publish/security_barrier", relation=target)


@dataclass(frozen=True)
class Layout(ABC, Generic[F]):
    """Base of release shapes, bound to one run's resolved spec, workspace, partitioning and
    the facts the algorithm left for it (``Facts``, also the type argument ``F``)."""

    #: The layout's name (what ``Algorithm.layout`` names).
    name: ClassVar[str]
    #: Companions copied from the run's working schema into the output schema.
    copied: ClassVar[tuple[str, ...]]
    #: Companions granted with the main relation (never the ones holding source values).
    granted: ClassVar[tuple[str, ...]]
    #: Whether the layout reads the working ``rows`` table only as a set of (partition, coded
    #: values) rows, so an algorithm may leave it weighted (``Partitioning.rows_weight``).
    weighted_rows: ClassVar[bool] = False
    #: The frozen dataclass the layout reads of the algorithm's run (``Partitioning.facts``).
    Facts: ClassVar[type[LayoutFacts]] = LayoutFacts

    resolved: Resolved
    workspace: Workspace
    partitioning: Partitioning
    facts: F

    @classmethod
    def bound(
        cls, resolved: Resolved, workspace: Workspace, partitioning: Partitioning
    ) -> Layout[Any]:
        """The layout of one run, with the facts the algorithm left (``Facts()`` when it left
        none); an algorithm that left another type is a programming error."""
        facts = partitioning.facts if partitioning.facts is not None else cls.Facts()
        if not isinstance(facts, cls.Facts):
            raise AssertionError(
                f"{resolved.algorithm.name} left {type(facts).__name__}; the {cls.name} layout "
                f"reads {cls.Facts.__name__}"
            )
        # ``Facts`` is the class's ``F``, which a ClassVar cannot name for the type checker
        return cls(resolved, workspace, partitioning, cast(Any, facts))

    @property
    def qids(self) -> list[str]:
        return [d.column for d in self.workspace.dimensions]

    @abstractmethod
    def stage(self) -> None:
        """Build the layout's companions in the working schema."""

    @abstractmethod
    def create(self, names: OutputNames, kind: str) -> None:
        """Create the released relation(s) as ``names`` (a view or a table: ``kind``)."""

    def publish_guarded(
        self,
        target: TableName,
        released: TableName,
        kind: str,
        models: Sequence[PrivacyModel],
        person: str | None,
    ) -> None:
        """Create what analysts query as ``target``: the guarded view of ``released``, or (for
        ``kind`` TABLE) a frozen copy of it."""
        e = self.workspace.engine
        if kind == "TABLE":
            with e.writing_every_row():
                e.run("publish/frozen", target=target, released=released)
            return
        # a model whose statistic SQL cannot compute (a population-uniqueness estimate) is bound
        # to the released rows now; its guard then withholds the release once they change
        models = [m.prepared(e, released, self.qids) for m in models]
        # the columns an adversary may know refine the classes, where ``released`` holds them
        held = {c.name for c in e.columns(released) or []}
        known = [
            c
            for c in linkage_columns(self.resolved.spec, self.resolved.passthrough).classes
            if c in held
        ]
        create_guarded_view(e, target, released, models, self.qids, person, known)

    @classmethod
    @abstractmethod
    def planned_checks(
        cls,
        names: OutputNames,
        qids: Sequence[str],
        models: Sequence[PrivacyModel],
        person: str | None,
        *,
        relations: CheckedRelations = "published",
    ) -> list[PlannedCheck]:
        """The privacy checks of a release of this layout, on what analysts query or on the
        unguarded released rows."""

    def checks(self, names: OutputNames, kind: str = "VIEW") -> list[PlannedCheck]:
        """The publish gate's checks: on the unguarded released rows. A release published as
        tables (``kind`` TABLE) has no guard: what analysts query is a copy of those rows,
        checked as it is, instead of computing the released views' rows again."""
        person = self.workspace.person.column if self.workspace.person else None
        relations: CheckedRelations = "published" if kind == "TABLE" else "released"
        return self.planned_checks(
            names, self.qids, self.workspace.models, person, relations=relations
        )

    def check_grouping(
        self, names: OutputNames, kind: str, grouping: Grouping | None
    ) -> Grouping | None:
        """The grouping that serves the gate's weighted checks (:func:`run_checks`): the
        publish step's (:meth:`grouped`), here."""
        return grouping

    def grouped(self, names: OutputNames, kind: str, columns: Sequence[str]) -> Grouping:
        """The rows of :meth:`unguarded` grouped by ``columns`` (the quasi-identifiers first)
        with ``__anonsql_rows`` rows per group (``publish/refined``), in a working table of the
        publish transaction: the class table, the gate's weighted checks, the recovery measure
        and the attacks read it."""
        e = self.workspace.engine
        refined, working_table = e.transaction_work(self.workspace.work("refined"))
        self.group_whole(names, kind, columns, refined, working_table)
        e.analyze(refined)
        return Grouping(refined, self.unguarded(names, kind), frozenset(columns))

    def group_whole(
        self,
        names: OutputNames,
        kind: str,
        columns: Sequence[str],
        target: TableName,
        working_table: str,
    ) -> None:
        """Create ``target`` (``working_table``: its CREATE's prefix) as every row of
        :meth:`unguarded` grouped by ``columns`` (``publish/refined``)."""
        self.workspace.engine.run(
            "publish/refined",
            target=target,
            relation=self.unguarded(names, kind),
            columns=list(columns),
            working_table=working_table,
        )

    def checked_relation(self, names: OutputNames, kind: str) -> TableName:
        """The relation the publish gate checks the models on, also refined by the published
        columns (:mod:`anonsql.measure.linkage`): the released rows, or a release published
        as tables (``kind`` TABLE) as analysts query it."""
        return names.main if kind == "TABLE" else names.released

    @abstractmethod
    def expected_rows(self, names: OutputNames) -> dict[str, tuple[TableName, int]]:
        """What each released relation must hold: ``{what: (relation, count)}`` (e.g. every
        source row not suppressed), so no row is lost or invented."""

    @classmethod
    @abstractmethod
    def coverage(cls, engine: Engine, release: PublishedRelease) -> Coverage:
        """The source's rows now: how many the release covers, and how many of those in
        classes it suppressed (``status``)."""

    @classmethod
    @abstractmethod
    def measured(cls, names: OutputNames) -> TableName:
        """The relation with one row per individual, which class metrics measure."""

    def unguarded(self, names: OutputNames, kind: str) -> TableName:
        """A relation holding the rows of :meth:`measured` at publish without reading them
        through the guard: the released rows a guarded view (``kind`` VIEW) is created over,
        or the relation itself. The publish gate checks the models on exactly those released
        rows and fails the run otherwise, and the guard withholds nothing from rows that
        satisfy them, so a verified release's rows are the same either way; reading the
        guarded view costs more (its guard groups the rows again, BENCHMARKS.md "What the guard
        costs an analyst")."""
        measured = self.measured(names)
        return names.released if kind == "VIEW" and measured == names.main else measured

    @abstractmethod
    def individuals(self) -> int:
        """Individuals of the source: rows, or persons."""

    def class_sensitive(self) -> list[str]:
        """Sensitive columns whose distinct values ``__classes`` counts."""
        return [s.column for s in self.resolved.sensitive]

    def certificate_fields(self) -> dict[str, Any]:
        return {}

    def violations(self, names: OutputNames) -> dict[str, int]:
        """Violations the layout counts itself on the release built as ``names``, beyond the
        models of :meth:`checks` (e.g. checks over the run's private working tables); the verify
        step refuses the release unless all are 0. Default: :meth:`release_violations`."""
        return self.release_violations(self.workspace.engine, names, self.certificate_fields())

    @classmethod
    def release_violations(
        cls, engine: Engine, names: OutputNames, certificate: Mapping[str, Any]
    ) -> dict[str, int]:
        """Violations the layout counts on a published release from its relations and the
        fields its certificate records (what ``anonsql check`` re-runs). Default: none."""
        return {}
