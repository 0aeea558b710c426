"""What a run publishes: the shape of the release and how it is verified.

* :class:`RecordLayout` (one row per individual): the anonymized view joins the source to the
  recoding map (distinct quasi-identifier vectors -> published values).
* :class:`PersonLayout` (1:M data, ``person_id`` in the spec): a row-level view (every source
  row with its person's pseudonym and generalized quasi-identifiers, and its sensitive item
  generalized to the node of the person's fingerprint covering it) and a person-level view
  (one row per person, the generalized fingerprint as a list), both verified.

The publisher runs the shared steps (one transaction, companions, classes, metrics,
certificate, grants) and asks the layout for the rest.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from anonsql.algorithms.base import PartitionSummary
from anonsql.engines import Engine
from anonsql.errors import VerificationError
from anonsql.pipeline.job import Job, PersonLink
from anonsql.pipeline.prepare import GENERALIZED_SUFFIX
from anonsql.privacy.base import PrivacyModel
from anonsql.privacy.check import CheckResult, check_relation
from anonsql.privacy.one_to_many import PersonConsistency
from anonsql.publish.names import OutputNames
from anonsql.sql import TableName

#: Companions every layout publishes (the main relation aside).
SHARED_GRANTED = ("classes", "certificate", "metrics", "attributes", "hierarchy_nodes")


class Layout(ABC):
    """Base of release shapes."""

    #: Companions copied from the run's working schema into the output schema.
    copied: tuple[str, ...]
    #: Companions granted with the main relation (never the ones holding source values).
    granted: tuple[str, ...]

    def __init__(self, job: Job) -> None:
        self.job = job

    @property
    def qids(self) -> list[str]:
        return [d.column for d in self.job.dimensions]

    @abstractmethod
    def stage(self) -> None:
        """Build the layout's companions in the working schema."""

    @abstractmethod
    def create(self, names: OutputNames, kind: str) -> None:
        """Create the released relation(s) under their final names."""

    @abstractmethod
    def verify(self, names: OutputNames, summary: PartitionSummary) -> tuple[CheckResult, int]:
        """Re-check the release; raise :class:`VerificationError` on any violation or missing
        row. Returns the check and the rows of the main relation."""

    @abstractmethod
    def measured(self, names: OutputNames) -> TableName:
        """The relation with one row per individual, which class metrics measure."""

    @abstractmethod
    def individuals(self) -> int:
        """Individuals of the source: rows, or persons."""

    def class_sensitive(self) -> list[str]:
        """Sensitive columns whose distinct values ``__classes`` counts."""
        return [s.column for s in self.job.sensitive]

    def certificate_fields(self) -> dict[str, Any]:
        return {"person_level": json.dumps(None)}


class RecordLayout(Layout):
    """One row per individual: a view over the source joined to the recoding map."""

    copied = ("recoding", "attributes", "hierarchy_nodes")
    granted = SHARED_GRANTED

    def stage(self) -> None:
        job = self.job
        leaves = {d.index: job.work(f"leaves{d.index}") for d in job.dimensions if not d.is_numeric}
        job.engine.run(
            "publish/recoding",
            target=job.work("recoding"),
            rows=job.work("rows"),
            generalized=job.work("generalized"),
            dims=job.dimensions,
            leaves=leaves,
            suffix=GENERALIZED_SUFFIX,
        )

    def create(self, names: OutputNames, kind: str) -> None:
        job = self.job
        passthrough = set(job.passthrough)
        columns = [
            {"name": c.name, "qid": c.name in self.qids}
            for c in job.catalog
            if c.name in passthrough or c.name in self.qids
        ]
        job.engine.run(
            "publish/anonymized",
            kind=kind,
            target=names.main,
            source=job.source,
            recoding=names.recoding,
            columns=columns,
            dims=job.dimensions,
            suffix=GENERALIZED_SUFFIX,
        )

    def verify(self, names: OutputNames, summary: PartitionSummary) -> tuple[CheckResult, int]:
        e = self.job.engine
        check = check_relation(e, names.main, self.qids, self.job.models)
        published = e.count_rows(names.main)
        expected = self.job.rows - summary.suppressed_rows
        if not check.holds:
            raise VerificationError(check.violations)
        if published != expected:
            raise VerificationError({"rows accounted for": abs(published - expected)})
        return check, published

    def measured(self, names: OutputNames) -> TableName:
        return names.main

    def individuals(self) -> int:
        return self.job.rows


class PersonLayout(Layout):
    """1:M data: a row-level and a person-level view over a private person map."""

    copied = ("person_map", "item_map", "fingerprints", "attributes", "hierarchy_nodes")
    granted = (*SHARED_GRANTED, "by_person", "fingerprints")

    @property
    def link(self) -> PersonLink:
        assert self.job.person is not None
        return self.job.person

    def stage(self) -> None:
        job, e = self.job, self.job.engine
        fingerprint = self.link.sensitive
        e.run(
            "publish/person_map",
            target=job.work("person_map"),
            rows=job.work("rows"),
            persons=job.work("persons"),
            generalized=job.work("generalized"),
            dims=job.dimensions,
            fingerprints=fingerprint is not None,
        )
        if fingerprint is not None:
            e.run(
                "publish/item_map",
                target=job.work("item_map"),
                items=job.work("items"),
                person_buckets=job.work("person_buckets"),
                nodes=job.work("sa_nodes"),
                leaves=job.work("sa_leaves"),
            )
            e.run(
                "publish/fingerprints",
                target=job.work("fingerprints_pub"),
                items=job.work("items"),
                person_buckets=job.work("person_buckets"),
                fingerprints=job.work("fingerprints"),
                nodes=job.work("sa_nodes"),
            )
            e.drop(job.work("fingerprints"))
            e.run(
                "rename_table",
                source=job.work("fingerprints_pub"),
                target_name="fingerprints",
            )
        else:
            e.run(
                "publish/no_fingerprints",
                fingerprints=job.work("fingerprints"),
                item_map=job.work("item_map"),
            )

    def create(self, names: OutputNames, kind: str) -> None:
        job, link = self.job, self.link
        passthrough = set(job.passthrough) - {link.sensitive}
        index = {d.column: d.index for d in job.dimensions}
        columns: list[dict[str, Any]] = []
        for c in job.catalog:
            if c.name == link.column:
                columns.append({"name": c.name, "role": "person"})
            elif c.name in index:
                columns.append({"name": c.name, "role": "qid", "index": index[c.name]})
            elif c.name == link.sensitive:
                columns.append({"name": c.name, "role": "fingerprint"})
            elif c.name in passthrough:
                columns.append({"name": c.name, "role": "other"})
        common = {
            "kind": kind,
            "person_map": names.person_map,
            "fingerprints": names.fingerprints,
            "item_map": names.item_map,
            "fingerprint": link.sensitive,
        }
        job.engine.run(
            "publish/person_rows",
            target=names.main,
            source=job.source,
            columns=columns,
            person=link.column,
            **common,
        )
        job.engine.run(
            "publish/by_person",
            target=names.by_person,
            person=link.column,
            dims=job.dimensions,
            **common,
        )

    def verify(self, names: OutputNames, summary: PartitionSummary) -> tuple[CheckResult, int]:
        e = self.job.engine
        check = check_person_release(e, names, self.qids, self.job.models, self.link.column)
        published = e.count_rows(names.main)
        persons = e.count_rows(names.by_person)
        if not check.holds:
            raise VerificationError(check.violations)
        if published != self.job.rows:
            raise VerificationError({"rows accounted for": abs(published - self.job.rows)})
        if persons != self.link.persons:
            raise VerificationError({"persons accounted for": abs(persons - self.link.persons)})
        return check, published

    def measured(self, names: OutputNames) -> TableName:
        return names.by_person

    def individuals(self) -> int:
        return self.link.persons

    def class_sensitive(self) -> list[str]:
        return [self.link.sensitive] if self.link.sensitive else []

    def certificate_fields(self) -> dict[str, Any]:
        link = self.link
        buckets = [s.distinct for s in self.job.sensitive]
        return {
            "person_level": json.dumps(
                {
                    "person_id": link.column,
                    "fingerprint_column": link.sensitive,
                    "persons": link.persons,
                    "fingerprint_buckets": buckets[0] if buckets else None,
                    "varying_qids": self.job.spec.varying_qids,
                    "persons_with_varying_qids": link.varying,
                }
            )
        }


def check_person_release(
    engine: Engine,
    names: OutputNames,
    qids: Sequence[str],
    models: Sequence[PrivacyModel],
    person: str,
) -> CheckResult:
    """Every person-level model on both views, plus consistency on the rows: the row-level view
    as rows of persons (fingerprints built in the engine), the person-level view as one row
    per person (its fingerprint column a list)."""
    on_rows = [*models]
    if not any(isinstance(m, PersonConsistency) for m in models):
        on_rows.append(PersonConsistency(PersonConsistency.Params()))
    rows = check_relation(engine, names.main, qids, on_rows, person=person)
    per_person = check_relation(
        engine, names.by_person, qids, [m for m in models if not m.needs_person]
    )
    violations = dict(rows.violations)
    for model, count in per_person.violations.items():
        violations[f"{model} on {names.by_person.name}"] = count
    return CheckResult(relation=names.main, violations=violations)


def layout_for(job: Job) -> Layout:
    return PersonLayout(job) if job.person is not None else RecordLayout(job)
