"""Identity-reserved releases (Wang, Du, Luo, Li, KAIS 2019): every record of every published
individual, linked by a pseudonymous number (the paper's ``Id_num``), with its class's
generalized quasi-identifiers; and one row per published individual.

* the main relation: every source row of a published individual, the person column holding
  the individual's pseudonym (a per-run random number), each quasi-identifier its class's
  published text (DAnonyIR's set generalization ``{a, b}`` and ``[lo, hi]``, GeneIR's taxonomy
  labels; :mod:`anonsql.algorithms.identity_reserved.generalization`), the other declared
  columns unchanged — the sensitive column included, one value per record;
* ``__by_person``: one row per published individual (pseudonym, quasi-identifiers), which the
  class metrics measure;
* ``__person_map`` (source id -> pseudonym, class, labels) holds source ids: it lives in the
  private schema (:class:`~anonsql.spec.output.OutputNames`) and is never granted.

Both are guarded live views over private ``__released`` / ``__released_by_person`` views
(:meth:`Layout.publish_guarded`), like the ``person`` layout's.

Individuals the algorithm suppressed (Handle) are left out of both and counted in the
certificate (``person_level``: ``suppressed_individuals``; ``suppressed_rows``: their records).
The verify step re-checks every model on the main relation with the person column (and the
consistency of every individual's records), and accounts for every record and individual.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from anonsql.algorithms.facts import IdentityReservedFacts
from anonsql.algorithms.workspace import PersonLink
from anonsql.engines import Engine
from anonsql.layouts.base import SHARED_GRANTED, CheckedRelations, Coverage, Layout
from anonsql.layouts.person import PersonLayout
from anonsql.privacy.base import PrivacyModel
from anonsql.privacy.check import PlannedCheck
from anonsql.spec.output import OutputNames
from anonsql.sql import TableName

if TYPE_CHECKING:
    from anonsql.release.reader import PublishedRelease


class IdentityReservedLayout(Layout[IdentityReservedFacts]):
    """The records of the published individuals, linked by pseudonym, and one row per
    individual (see the module docstring)."""

    name = "identity_reserved"
    Facts = IdentityReservedFacts
    copied = ("person_map", "attributes", "hierarchy_nodes")
    granted = (*SHARED_GRANTED, "by_person")

    @property
    def link(self) -> PersonLink:
        assert self.workspace.person is not None
        return self.workspace.person

    @property
    def suppressed_individuals(self) -> int:
        return self.facts.suppressed_individuals

    def stage(self) -> None:
        ws = self.workspace
        ws.engine.run(
            "identity_reserved/person_map",
            target=ws.work("person_map"),
            rows=ws.work("rows"),
            persons=ws.work("persons"),
            labels=ws.work("class_labels"),
            dims=ws.dimensions,
        )

    def create(self, names: OutputNames, kind: str) -> None:
        ws, link = self.workspace, self.link
        index = {d.column: d.index for d in ws.dimensions}
        passthrough = set(self.resolved.passthrough)
        columns: list[dict[str, Any]] = []
        for c in self.resolved.catalog:
            if c.name == link.column:
                columns.append({"name": c.name, "role": "person"})
            elif c.name in index:
                columns.append({"name": c.name, "role": "qid", "index": index[c.name]})
            elif c.name in passthrough:
                columns.append({"name": c.name, "role": "other"})
        common = {"person_map": names.person_map, "fingerprint": None}
        e = ws.engine
        e.run("publish/source_view", target=names.source, source=self.resolved.source)
        e.run(
            "publish/person_rows",
            target=names.released,
            source=self.resolved.source,
            columns=columns,
            person=link.column,
            fingerprints=None,
            item_map=None,
            **common,
        )
        rows_check, persons_check = self.planned_checks(
            names, self.qids, ws.models, link.column, relations="released"
        )
        self.publish_guarded(names.main, names.released, kind, rows_check.models, link.column)
        # the person-level view lists the individuals the guarded records show now
        e.run(
            "publish/by_person",
            target=names.released_by_person,
            person=link.column,
            dims=ws.dimensions,
            present=names.main,
            fingerprints=None,
            item_map=None,
            **common,
        )
        self.publish_guarded(
            names.by_person, names.released_by_person, kind, persons_check.models, None
        )

    @classmethod
    def planned_checks(
        cls,
        names: OutputNames,
        qids: Sequence[str],
        models: Sequence[PrivacyModel],
        person: str | None,
        *,
        relations: CheckedRelations = "published",
    ) -> list[PlannedCheck]:
        """Every model on the records with the person column, with the consistency of every
        individual's records; the models that need no person column on ``__by_person`` too
        (what analysts query, or the unguarded released relations: ``relations``). The same
        checks as the 1:M layout's, which publishes the same two relations."""
        return PersonLayout.planned_checks(names, qids, models, person, relations=relations)

    def expected_rows(self, names: OutputNames) -> dict[str, tuple[TableName, int]]:
        return {
            "rows accounted for": (
                names.main,
                self.resolved.rows - self.partitioning.suppressed_rows,
            ),
            "persons accounted for": (
                names.by_person,
                self.link.persons - self.suppressed_individuals,
            ),
        }

    @classmethod
    def coverage(cls, engine: Engine, release: PublishedRelease) -> Coverage:
        """A source row is covered when its individual is in the person map; the records of the
        individuals suppressed when certified count as covered and suppressed (their ids are
        not kept, so a suppressed individual's new records count among them too)."""
        names = release.names
        suppressed = int(release.certificate.get("suppressed_rows") or 0)
        released = engine.count_rows(names.released)
        return Coverage(engine.count_rows(names.source), released + suppressed, suppressed)

    @classmethod
    def measured(cls, names: OutputNames) -> TableName:
        return names.by_person

    def individuals(self) -> int:
        return self.link.persons

    def class_sensitive(self) -> list[str]:
        return []

    def certificate_fields(self) -> dict[str, Any]:
        facts = self.facts
        sensitive = sorted({m.sensitive_column for m in self.resolved.models if m.sensitive_column})
        return {
            "layout": self.name,
            "person_level": json.dumps(
                {
                    "person_id": self.link.column,
                    "persons": self.link.persons,
                    "published_persons": self.link.persons - self.suppressed_individuals,
                    "suppressed_individuals": self.suppressed_individuals,
                    "suppressed_records": self.partitioning.suppressed_rows,
                    "sensitive_column": sensitive[0] if sensitive else None,
                    "generalization": facts.generalization,
                    "record_counts": facts.record_counts,
                    "varying_qids": self.resolved.spec.varying_qids,
                    "persons_with_varying_qids": self.link.varying,
                }
            ),
        }
