"""The attack step: every registered attack on a release being published (the gate: a release
an attack breaks is refused inside the swap, so nothing is published) or on one read back
(``anonsql attack``), and the results as the certificate records them."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from anonsql.attacks.base import AttackContext, AttackResult, RecoverySource
from anonsql.attacks.registry import run_attacks
from anonsql.engines import Engine
from anonsql.errors import AnonsqlError
from anonsql.layouts import LAYOUTS
from anonsql.measure.exposure import linked_exposure
from anonsql.measure.linkage import CoveredQid
from anonsql.publish import BuiltRelease
from anonsql.release import PublishedRelease
from anonsql.spec import Role
from anonsql.sql import TableName

#: The certificate's field holding the results (a JSON list of :meth:`AttackResult.as_dict`).
CERTIFICATE_FIELD = "attacks"


@dataclass(frozen=True)
class Attacks:
    """The attacks' results on one release."""

    results: tuple[AttackResult, ...]

    @property
    def broken(self) -> tuple[AttackResult, ...]:
        return tuple(r for r in self.results if r.breaks)

    @property
    def unbounded(self) -> tuple[AttackResult, ...]:
        """Measured results the certified models promise nothing about."""
        return tuple(r for r in self.results if r.measured and r.bound is None)

    def as_json(self) -> str:
        return json.dumps([r.as_dict() for r in self.results], sort_keys=True)


class AttackRefused(AnonsqlError):
    """An attack beats the bound the certified models promise; nothing was published."""

    exit_code = 4

    def __init__(self, broken: Sequence[AttackResult]) -> None:
        self.broken = tuple(broken)
        parts = []
        for r in self.broken:
            on = f" on {r.attribute}" if r.attribute else ""
            parts.append(
                f"{r.attack}{on} knowing {', '.join(r.knows)}: {r.worst:.4g} > {r.bound:.4g}"
                f" (the bound the certified models promise)"
            )
        super().__init__(
            "attacks break the release (" + "; ".join(parts) + "); nothing was published and the "
            "previous output was left intact. Fix: leave the acknowledged linked columns out "
            "(role: identifier) or declare them quasi-identifiers, or strengthen the models"
        )


def attack(release: BuiltRelease) -> Attacks:
    """Run every attack on the release being published; raise :class:`AttackRefused` when one
    beats the bound the certified models promise."""
    found = Attacks(run_attacks(publish_context(release)))
    if found.broken:
        raise AttackRefused(found.broken)
    return found


def publish_context(release: BuiltRelease) -> AttackContext:
    """The attacks' view of a release being published: its measured rows before the guard
    (:meth:`~anonsql.layouts.base.Layout.unguarded`), or their grouping by the publish step."""
    e, built, layout = release.engine, release.built, release.layout
    resolved, ws = release.staged.resolved, release.staged.workspace
    measured = layout.measured(built)
    grouping = release.grouping if measured == built.main else None
    counted = grouping is not None
    relation = grouping.relation if grouping else layout.unguarded(built, release.kind)
    return _context(
        e,
        relation,
        counted,
        grouped_by=grouping.columns if grouping else frozenset(),
        qids=[d.column for d in ws.dimensions],
        linked=[c.column for c in resolved.linked],
        # every sensitive column, whether or not a model reads it: what the release protects
        sensitive=list(
            dict.fromkeys(
                [*resolved.sensitive_columns, *resolved.spec.columns_with(Role.SENSITIVE)]
            )
        ),
        passthrough=list(resolved.passthrough),
        models=ws.models,
        individuals=layout.individuals(),
        unit="persons" if ws.person is not None else "rows",
        recovery=RecoverySource(
            built.source,
            built.hierarchy_nodes,
            tuple(CoveredQid(d.column, d.is_numeric) for d in ws.dimensions),
            tuple(c for c, col in resolved.spec.columns.items() if col.acknowledge_linked),
            release.recovered,
            ws.counted,
        )
        if layout.name == RECOVERED_LAYOUT
        else None,
    )


#: The layout whose attacked rows the recovery measure reads as they are (one row per
#: individual, every column a value); the other layouts' rows hold lists or buckets (1:M
#: fingerprints, personalized groups), so their linkage attack is "not measured" (the linkage
#: gate at publish still reads their released rows).
RECOVERED_LAYOUT = "record"


def release_context(engine: Engine, release: PublishedRelease) -> AttackContext:
    """The attacks' view of a published release: what analysts query (the guarded relation
    with one row per individual)."""
    relation = LAYOUTS.get(release.layout).measured(release.names)
    exposure = linked_exposure(release.certificate)
    # acknowledged columns that determine a quasi-identifier, as the resolve step found them
    acknowledged = [a.column for a in exposure.acknowledged if a.determines]
    # sensitive columns published unchanged: an analyst does not know their values
    unread = list(exposure.columns.sensitive)
    columns = [c.name for c in engine.columns(relation) or []]
    passthrough = [c for c in columns if c not in release.qids and c != release.person_column]
    return _context(
        engine,
        relation,
        False,
        qids=list(release.qids),
        linked=acknowledged,
        sensitive=list(dict.fromkeys([*release.sensitive, *unread])),
        passthrough=passthrough,
        models=release.models,
        individuals=release.individuals,
        unit="persons" if release.person is not None else "rows",
        recovery=_recovery_source(engine, release),
    )


def _recovery_source(engine: Engine, release: PublishedRelease) -> RecoverySource | None:
    names = release.names
    if release.layout != RECOVERED_LAYOUT or not engine.exists(names.source):
        return None
    kinds = {a["attribute"]: a["kind"] for a in release.attributes(engine)}
    nodes = names.hierarchy_nodes if engine.exists(names.hierarchy_nodes) else None
    qids = tuple(CoveredQid(q, kinds.get(q) == "numeric") for q in release.qids)
    return RecoverySource(
        names.source,
        nodes,
        qids if nodes is not None else tuple(q for q in qids if q.numeric),
        linked_exposure(release.certificate).columns.acknowledged,
    )


def _context(
    engine: Engine,
    relation: TableName,
    counted: bool,
    *,
    qids: Sequence[str],
    linked: Sequence[str],
    sensitive: Sequence[str],
    passthrough: Sequence[str],
    models: Sequence[Any],
    individuals: int,
    unit: str,
    recovery: RecoverySource | None = None,
    grouped_by: frozenset[str] = frozenset(),
) -> AttackContext:
    present = {c.name for c in engine.columns(relation) or []}
    sensitive = [c for c in sensitive if c in present]
    linked = [c for c in linked if c in present and c not in sensitive]
    return AttackContext(
        engine=engine,
        relation=relation,
        counted=counted,
        qids=tuple(q for q in qids if q in present),
        linked=tuple(linked),
        insensitive=tuple(
            c for c in passthrough if c in present and c not in sensitive and c not in linked
        ),
        sensitive=tuple(sensitive),
        models=tuple(models),
        individuals=individuals,
        unit=unit,
        recovery=recovery,
        grouped_by=grouped_by,
    )


def attack_results(certificate: Mapping[str, Any]) -> tuple[AttackResult, ...]:
    """The attack results a certificate records (none for releases certified before attacks
    were recorded)."""
    value = certificate.get(CERTIFICATE_FIELD)
    if not value:
        return ()
    return tuple(AttackResult.from_dict(d) for d in json.loads(str(value)))
