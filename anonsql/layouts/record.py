"""One row per individual: the anonymized view joins the source to the recoding map (distinct
quasi-identifier vectors -> published values).

An algorithm that generalized a population table along with the rows (full-domain k-map) records
it in its facts (:attr:`~anonsql.algorithms.facts.RecordFacts.population`) and leaves each
class's persons as the working table ``population_classes`` (``pid``, ``n``); the release then
carries the population generalized as its own rows, the private ``population`` companion, which
the models read through :meth:`~anonsql.privacy.base.PrivacyModel.on_release` when they check
and guard the release.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from anonsql.algorithms.facts import RecordFacts
from anonsql.engines import Engine
from anonsql.layouts.base import SHARED_GRANTED, CheckedRelations, Coverage, Layout
from anonsql.privacy.base import POPULATION_PERSONS, PrivacyModel
from anonsql.privacy.check import PlannedCheck
from anonsql.spec.output import GENERALIZED_SUFFIX, OutputNames
from anonsql.sql import TableName

if TYPE_CHECKING:
    from anonsql.release.reader import PublishedRelease


class RecordLayout(Layout[RecordFacts]):
    """The view (or table) of the source's rows with generalized quasi-identifiers, suppressed
    rows left out, and ``__recoding``, the map it joins."""

    name = "record"
    Facts = RecordFacts
    # the recoding is not among them: create() builds it under its published name, as copying
    # it from the working schema took as long as building it (BENCHMARKS.md "Working tables in
    # memory, fewer passes at publish, radix-grouped bins")
    copied = ("attributes", "hierarchy_nodes")
    granted = SHARED_GRANTED
    # the recoding reads each distinct vector's partition from ``rows``
    weighted_rows = True

    def stage(self) -> None:
        ws = self.workspace
        if self.facts.population is not None:
            ws.engine.run(
                "publish/population",
                target=ws.work("population"),
                classes=ws.work("population_classes"),
                generalized=ws.work("generalized"),
                dims=ws.dimensions,
                count=POPULATION_PERSONS,
            )

    def create_recoding(
        self,
        names: OutputNames,
        *,
        coded: frozenset[str] = frozenset(),
        labels: TableName | None = None,
    ) -> None:
        """The private recoding map: each distinct quasi-identifier vector and its published
        values (what the published relation joins the source to), with the codes of the
        ``coded`` columns from the label dictionary ``labels`` (a versioned release)."""
        ws = self.workspace
        leaves = {d.index: ws.work(f"leaves{d.index}") for d in ws.dimensions if not d.is_numeric}
        ws.engine.run(
            "publish/recoding",
            target=names.recoding,
            rows=ws.work("rows"),
            generalized=ws.work("generalized"),
            dims=ws.dimensions,
            leaves=leaves,
            suffix=GENERALIZED_SUFFIX,
            coded=sorted(coded),
            labels=labels,
            distinct_rows=self.partitioning.rows_are_vectors(ws),
            working_table="",  # a published companion: logged, unlike the working tables
        )
        ws.engine.analyze(names.recoding)

    def create(self, names: OutputNames, kind: str) -> None:
        e = self.workspace.engine
        self.create_recoding(names)
        passthrough = set(self.resolved.passthrough)
        qids = set(self.qids)
        columns = [
            {"name": c.name, "qid": c.name in qids}
            for c in self.resolved.catalog
            if c.name in passthrough or c.name in qids
        ]
        if self.facts.population is not None:
            population = names.companion("population")
            e.run("publish/copy_table", target=population, source=self.workspace.work("population"))
            e.analyze(population)
        e.run("publish/source_view", target=names.source, source=self.resolved.source)
        e.run(
            "publish/anonymized",
            target=names.released,
            source=self.resolved.source,
            recoding=names.recoding,
            columns=columns,
            dims=self.workspace.dimensions,
            suffix=GENERALIZED_SUFFIX,
        )
        models = [m.on_release(names.companion) for m in self.workspace.models]
        self.publish_guarded(names.main, names.released, kind, models, None)

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
        relation = names.main if relations == "published" else names.released
        released = tuple(m.on_release(names.companion) for m in models)
        return [PlannedCheck(relation, tuple(qids), released)]

    def expected_rows(self, names: OutputNames) -> dict[str, tuple[TableName, int]]:
        published = self.resolved.rows - self.partitioning.suppressed_rows
        return {"rows accounted for": (names.main, published)}

    @classmethod
    def coverage(cls, engine: Engine, release: PublishedRelease) -> Coverage:
        numeric = {a["attribute"]: a["kind"] == "numeric" for a in release.attributes(engine)}
        qids = [{"column": q, "numeric": numeric[q]} for q in release.qids]
        names = release.names
        row = engine.query(
            "status/record_coverage", source=names.source, recoding=names.recoding, qids=qids
        )[0]
        return Coverage(int(row[0]), int(row[1] or 0), int(row[2] or 0))

    @classmethod
    def measured(cls, names: OutputNames) -> TableName:
        return names.main

    def individuals(self) -> int:
        return self.resolved.rows

    def certificate_fields(self) -> dict[str, Any]:
        # ``search``: what the algorithm records of its search (full_domain: the chosen node)
        search = self.facts.search
        return {
            "person_level": json.dumps(None),
            "search": json.dumps(dict(search) if search is not None else None),
        }
