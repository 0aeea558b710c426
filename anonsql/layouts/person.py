"""1:M data (``person_id`` in the spec): a row-level view (every source row with its person's
pseudonym and generalized quasi-identifiers, and its sensitive item generalized to the node of
the person's fingerprint covering it) and a person-level view (one row per person, the
generalized fingerprint as a list), both verified, over a private person map."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from anonsql.algorithms.facts import PersonFacts
from anonsql.algorithms.workspace import PersonLink
from anonsql.engines import Engine
from anonsql.layouts.base import SHARED_GRANTED, CheckedRelations, Coverage, Layout
from anonsql.privacy.base import PrivacyModel
from anonsql.privacy.check import PlannedCheck
from anonsql.privacy.one_to_many import PersonConsistency, PersonConsistencyParams
from anonsql.spec.output import OutputNames
from anonsql.sql import TableName

if TYPE_CHECKING:
    from anonsql.release.reader import PublishedRelease


class PersonLayout(Layout[PersonFacts]):
    """The row-level and person-level views of a 1:M release."""

    name = "person"
    Facts = PersonFacts
    copied = ("person_map", "item_map", "fingerprints", "attributes", "hierarchy_nodes")
    granted = (*SHARED_GRANTED, "by_person", "fingerprints")

    @property
    def link(self) -> PersonLink:
        assert self.workspace.person is not None
        return self.workspace.person

    def stage(self) -> None:
        ws, e = self.workspace, self.workspace.engine
        fingerprint = self.link.sensitive
        e.run(
            "publish/person_map",
            target=ws.work("person_map"),
            rows=ws.work("rows"),
            persons=ws.work("persons"),
            generalized=ws.work("generalized"),
            dims=ws.dimensions,
            fingerprints=fingerprint is not None,
        )
        if fingerprint is not None:
            e.run(
                "publish/item_map",
                target=ws.work("item_map"),
                items=ws.work("items"),
                person_buckets=ws.work("person_buckets"),
                nodes=ws.work("sa_nodes"),
                leaves=ws.work("sa_leaves"),
            )
            e.run(
                "publish/fingerprints",
                target=ws.work("fingerprints_pub"),
                items=ws.work("items"),
                person_buckets=ws.work("person_buckets"),
                fingerprints=ws.work("fingerprints"),
                nodes=ws.work("sa_nodes"),
            )
            e.drop(ws.work("fingerprints"))
            e.run("rename_table", source=ws.work("fingerprints_pub"), target_name="fingerprints")
        else:
            e.run(
                "publish/no_fingerprints",
                fingerprints=ws.work("fingerprints"),
                item_map=ws.work("item_map"),
            )

    def create(self, names: OutputNames, kind: str) -> None:
        ws, link = self.workspace, self.link
        passthrough = set(self.resolved.passthrough) - {link.sensitive}
        index = {d.column: d.index for d in ws.dimensions}
        columns: list[dict[str, Any]] = []
        for c in self.resolved.catalog:
            if c.name == link.column:
                columns.append({"name": c.name, "role": "person"})
            elif c.name in index:
                columns.append({"name": c.name, "role": "qid", "index": index[c.name]})
            elif c.name == link.sensitive:
                columns.append({"name": c.name, "role": "fingerprint"})
            elif c.name in passthrough:
                columns.append({"name": c.name, "role": "other"})
        common = {
            "person_map": names.person_map,
            "fingerprints": names.fingerprints,
            "item_map": names.item_map,
            "fingerprint": link.sensitive,
        }
        e = ws.engine
        e.run("publish/source_view", target=names.source, source=self.resolved.source)
        e.run(
            "publish/person_rows",
            target=names.released,
            source=self.resolved.source,
            columns=columns,
            person=link.column,
            **common,
        )
        rows_check, persons_check = self.planned_checks(
            names, self.qids, ws.models, link.column, relations="released"
        )
        self.publish_guarded(names.main, names.released, kind, rows_check.models, link.column)
        # the person-level view lists the persons the row-level release shows now
        e.run(
            "publish/by_person",
            target=names.released_by_person,
            person=link.column,
            dims=ws.dimensions,
            present=names.main,
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
        """Every person-level model on both views, plus consistency on the rows: the row-level
        view as rows of persons (fingerprints built in the engine), the person-level view as
        one row per person (its fingerprint column a list)."""
        assert person is not None
        on_rows = list(models)
        if not any(m.name == PersonConsistency.name for m in models):
            on_rows.append(PersonConsistency(PersonConsistencyParams()))
        published = relations == "published"
        rows = names.main if published else names.released
        persons = names.by_person if published else names.released_by_person
        return [
            PlannedCheck(rows, tuple(qids), tuple(on_rows), person=person),
            PlannedCheck(
                persons,
                tuple(qids),
                tuple(m for m in models if not m.needs_person),
                label=names.by_person.name,
            ),
        ]

    def expected_rows(self, names: OutputNames) -> dict[str, tuple[TableName, int]]:
        return {
            "rows accounted for": (names.main, self.resolved.rows),
            "persons accounted for": (names.by_person, self.link.persons),
        }

    @classmethod
    def coverage(cls, engine: Engine, release: PublishedRelease) -> Coverage:
        # a source row is covered when its person and item are in the release's maps
        names = release.names
        return Coverage(engine.count_rows(names.source), engine.count_rows(names.released))

    @classmethod
    def measured(cls, names: OutputNames) -> TableName:
        return names.by_person

    def individuals(self) -> int:
        return self.link.persons

    def class_sensitive(self) -> list[str]:
        return [self.link.sensitive] if self.link.sensitive else []

    def certificate_fields(self) -> dict[str, Any]:
        link = self.link
        return {
            "person_level": json.dumps(
                {
                    "person_id": link.column,
                    "fingerprint_column": link.sensitive,
                    "persons": link.persons,
                    "fingerprint_buckets": self.facts.fingerprint_buckets,
                    "varying_qids": self.resolved.spec.varying_qids,
                    "persons_with_varying_qids": link.varying,
                }
            )
        }
