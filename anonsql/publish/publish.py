"""The publish step: the staged release copied and created under the names the swap gives
(the final names inside a transaction, or versioned names), not yet verified; and its class
table (``__classes``), grouped once from the rows analysts read (taken before the guard, which
withholds nothing from a verified release: :meth:`~anonsql.layouts.base.Layout.unguarded`),
which verify and measure sum instead of grouping that relation again."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from anonsql.engines import Engine
from anonsql.layouts import Layout
from anonsql.privacy.check import Grouping
from anonsql.spec.output import OutputNames
from anonsql.stage import Staged, exposure_columns


@dataclass(frozen=True)
class BuiltRelease:
    """A release created in the database, before it is verified and certified.

    ``names`` are the names analysts will query; ``built`` the names it was created under
    (the same inside a transaction; versioned where the engine has no transactional DDL).
    ``built.classes`` holds the equivalence classes of the measured relation
    (``layout.measured(built)``: QID columns, ``class_size``, distinct sensitive values).
    """

    staged: Staged
    names: OutputNames
    built: OutputNames
    #: ``VIEW`` or ``TABLE``.
    kind: str
    #: The main relation's rows (read before its guard, which withholds nothing from a
    #: verified release: :meth:`Layout.unguarded`) grouped by its quasi-identifiers, the
    #: :func:`exposure_columns` and the sensitive columns (``__anonsql_rows`` rows each), when
    #: the publish step grouped them once for the class table, the gate's weighted checks and
    #: the linked-column exposure; None when it did not.
    grouping: Grouping | None = None
    #: The grouping that serves the gate's weighted checks and the linkage gate's refined
    #: checks (:meth:`Layout.check_grouping`): ``grouping``, or a later version's groups of the
    #: classes it changes.
    checked_grouping: Grouping | None = None
    #: The linkage recovery figures read of this release, by query
    #: (:func:`anonsql.measure.linkage.recovered_rows`): its relations do not change until it
    #: is published, so the attacks and the measures ask each question once.
    recovered: dict[str, dict[str, int]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def engine(self) -> Engine:
        return self.staged.workspace.engine

    @property
    def layout(self) -> Layout[Any]:
        return self.staged.layout


def publish(staged: Staged, built: OutputNames) -> BuiltRelease:
    """Copy the staged companions, create the released relations as ``built`` and group the
    measured one into its class table."""
    ws, layout = staged.workspace, staged.layout
    e = ws.engine
    for companion in layout.copied:
        e.run("publish/copy_table", target=built.companion(companion), source=ws.work(companion))
        e.analyze(built.companion(companion))
    kind = release_kind(staged)
    layout.create(built, kind)
    qids = [d.column for d in ws.dimensions]
    sensitive = layout.class_sensitive()
    columns = exposure_columns(staged)
    grouping = None
    if columns and layout.measured(built) == built.main:
        # one pass over the rows analysts read (taken before the guard: Layout.unguarded)
        # serves the classes, the gate's weighted checks and every column's exposure
        grouped = [*qids, *(c for c in dict.fromkeys([*columns, *sensitive]) if c not in qids)]
        grouping = layout.grouped(built, kind, grouped)
    e.run(
        "publish/classes",
        target=built.classes,
        relation=grouping.relation if grouping else layout.unguarded(built, kind),
        qids=qids,
        sensitive=sensitive,
        refined=grouping is not None,
    )
    names = OutputNames(staged.resolved.output, staged.resolved.spec.output.private_schema)
    return BuiltRelease(
        staged=staged,
        names=names,
        built=built,
        kind=kind,
        grouping=grouping,
        checked_grouping=layout.check_grouping(built, kind, grouping),
    )


def release_kind(staged: Staged) -> str:
    """``VIEW`` for a live view (``materialize: live``) and a versioned release's view of its
    version (``materialize: view``, :mod:`anonsql.versions`); ``TABLE`` otherwise (a layout
    that is not versioned publishes a frozen table for ``view`` too: never a live view unless
    asked)."""
    materialize = staged.resolved.spec.output.materialize
    versioned = getattr(staged.layout, "delta", None) is not None
    return "VIEW" if materialize == "live" or (materialize == "view" and versioned) else "TABLE"
