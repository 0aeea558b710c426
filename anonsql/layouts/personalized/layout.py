"""Personalized publishing with several sensitive attributes (``algorithm: personalized``; Reddy,
Raju, Valli Kumari, IJET 2018, digest 002): QID groups and per-attribute buckets of sensitive
values, linked per tuple (``paper_compat``) or per group and bucket (``safe``).

Published (all tables: the groups were decided over the consenting rows of one moment, so the
release is a snapshot, whatever ``output.materialize`` says):

* ``anon.t``: one row per published tuple (a consenting row; a frozen copy of the private
  ``anon_private.t__released`` beside the private view ``t__source``), its ``group_id`` and its
  quasi-identifiers generalized to the smallest generalization covering its group (what the
  ``k_anonymity`` check and the registered metrics read); in ``paper_compat`` also its published
  sensitive cells (label, and weight for numeric attributes);
* ``__groups`` (the paper's Table 8: group size and one ``value:count`` multiset per QID),
  ``__group_values`` (the multisets in long form), ``__buckets`` (every attribute's buckets),
  ``__group_buckets`` (rows of each group per bucket) and ``__sa_taxonomy`` (each published
  label with the leaves it stands for).

Verification: the models (``k_anonymity`` on the generalized tuples), the profile's checks over
the run's private working tables (the true links between rows, groups and cells), and checks of
the published relations alone that ``anonsql check`` re-runs (groups of k, buckets of
``bucket_k``, and in ``safe`` the declared bound on an adversary's confidence). Measured: the
registered metrics on ``anon.t``, among them those of this layout
(:class:`anonsql.metrics.personalized.PersonalizedMetric`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from anonsql.algorithms.personalized.algorithm import PersonalizedFacts
from anonsql.algorithms.personalized.config import PersonalizedConfig
from anonsql.algorithms.personalized.decisions import Decisions
from anonsql.algorithms.personalized.names import PublishedTables
from anonsql.engines import Engine
from anonsql.layouts.base import SHARED_GRANTED, CheckedRelations, Coverage, Layout
from anonsql.layouts.personalized.checks import checks_for, run_checks
from anonsql.layouts.personalized.publish import GeneralizedQids, create_published, stage
from anonsql.privacy.base import EPSILON, PrivacyModel
from anonsql.privacy.check import PlannedCheck
from anonsql.spec.output import OutputNames
from anonsql.sql import TableName

if TYPE_CHECKING:
    from anonsql.release.reader import PublishedRelease

#: The companions a personalized release publishes beside ``anon.t``.
PUBLISHED = ("groups", "group_values", "buckets", "group_buckets", "sa_taxonomy")

#: What each check of the published relations verifies.
PUBLISHED_CHECKS = {
    "group_size": "published groups of >= k tuples",
    "bucket_size": "published buckets of >= bucket_k cells",
    "confidence": "confidence through the published relations <= 1/l",
}


def published_tables(names: OutputNames, relations: CheckedRelations) -> PublishedTables:
    """The relations of a release of this layout: the tuples as analysts query them (or as
    released, in the private schema) and the companions beside them."""
    tuples = names.main if relations == "published" else names.released
    return PublishedTables(tuples, *(names.companion(k) for k in PUBLISHED))


def _published_key(name: str) -> str:
    return f"published {name}: {PUBLISHED_CHECKS[name]}"


class PersonalizedLayout(Layout[PersonalizedFacts]):
    """The tuples (``anon.t``), groups and buckets of a personalized release."""

    name = "personalized"
    Facts = PersonalizedFacts
    copied = ("attributes", "hierarchy_nodes")
    granted = (*SHARED_GRANTED, *PUBLISHED)

    @property
    def decisions(self) -> Decisions:
        return self.facts.decisions

    @property
    def config(self) -> PersonalizedConfig:
        return self.decisions.config

    def stage(self) -> None:
        decisions = self.decisions
        stage(
            self.workspace.engine,
            self.config,
            decisions.work,
            decisions.bucketing.cells,
            self.facts.keys,
        )

    def create(self, names: OutputNames, kind: str) -> None:
        """The tuples are built as the private ``__released`` table and published as a frozen
        copy (a snapshot), whatever ``kind`` asks; ``__source`` is the private view of the
        source every release has (``status`` reads it)."""
        ws = self.workspace
        e = ws.engine
        e.run("publish/source_view", target=names.source, source=self.resolved.source)
        generalized = GeneralizedQids(
            ws.work("generalized"), tuple((d.column, f"g{d.index}") for d in ws.dimensions)
        )
        target = published_tables(names, "released")
        create_published(e, self.config, self.decisions.work, target, self.facts.keys, generalized)
        for table in target.all():
            e.analyze(table)
        self.publish_guarded(names.main, names.released, "TABLE", self.workspace.models, None)
        e.analyze(names.main)

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
        """The models (class sizes only) on the generalized tuples."""
        relation = names.main if relations == "published" else names.released
        return [PlannedCheck(relation, tuple(qids), tuple(models))]

    def violations(self, names: OutputNames) -> dict[str, int]:
        """The profile's checks over the private working tables (every row's true group and
        cells), then those of the published relations."""
        engine, config = self.workspace.engine, self.config
        private = run_checks(engine, config, self.decisions.work)
        described = {c.name: c.description for c in checks_for(config)}
        out = {f"{name}: {described[name]}": n for name, n in private.items()}
        out.update(self.release_violations(engine, names, self.certificate_fields()))
        return out

    @classmethod
    def release_violations(
        cls, engine: Engine, names: OutputNames, certificate: Mapping[str, Any]
    ) -> dict[str, int]:
        """Checks of the published relations alone, from the certificate's parameters: groups
        of at least k tuples, buckets of at least ``bucket_k`` cells, and (``safe``) no value
        or term inferred with confidence above the attribute's bound through the group-bucket
        counts and the buckets."""
        facts = json.loads(str(certificate["personalized"]))
        attributes = facts["sensitive"]
        t = published_tables(names, "published")
        sql = engine.sql

        def count(template: str, **params: Any) -> int:
            return engine.count_query_rows(sql.render(f"personalized/{template}", **params))

        out = {
            _published_key("group_size"): count(
                "published_group_size", tuples=t.tuples, k=facts["k"]
            ),
            _published_key("bucket_size"): count(
                "published_bucket_size",
                buckets=t.buckets,
                bucket_k=[(a["column"], a["bucket_k"]) for a in attributes],
            ),
        }
        bounds = [
            (a["column"], a["bound"])
            for a in attributes
            if a["bound"] is not None and a["bound"] < 1.0
        ]
        if bounds:
            out[_published_key("confidence")] = count(
                "published_confidence",
                buckets=t.buckets,
                taxonomy=t.sa_taxonomy,
                group_buckets=t.group_buckets,
                bounds=bounds,
                epsilon=EPSILON,
            )
        return out

    def expected_rows(self, names: OutputNames) -> dict[str, tuple[TableName, int]]:
        decisions = self.decisions
        return {
            "rows accounted for": (names.main, decisions.consent.consenting_rows),
            "groups accounted for": (names.companion("groups"), decisions.grouping.groups),
        }

    @classmethod
    def coverage(cls, engine: Engine, release: PublishedRelease) -> Coverage:
        """The tuples carry no key back to the source (a snapshot of the consenting rows): the
        release covers the rows it was certified with (while the source still has as many),
        and counts the rows without consent it withheld as suppressed; ``status`` tells a
        changed source by its checksum."""
        now = engine.count_rows(release.names.source)
        certified = release.source_rows
        withheld = int(release.certificate.get("withheld_rows") or 0)
        covered = min(now, certified)
        return Coverage(now, covered, min(covered, withheld))

    @classmethod
    def measured(cls, names: OutputNames) -> TableName:
        return names.main

    def unguarded(self, names: OutputNames, kind: str) -> TableName:
        return names.main  # a frozen table whatever ``kind`` asks (:meth:`create`)

    def individuals(self) -> int:
        """The consenting rows (rows without consent are withheld before anonymizing)."""
        return self.decisions.consent.consenting_rows

    def class_sensitive(self) -> list[str]:
        """paper_compat publishes each tuple's sensitive cells; safe publishes none per tuple."""
        return list(self.config.sensitive_columns) if self.config.profile == "paper_compat" else []

    def certificate_fields(self) -> dict[str, Any]:
        decisions, config = self.decisions, self.config
        facts = decisions.certificate()
        bounds = ", ".join(
            f"{a['column']} {a['bound']:.3g}" if a["bound"] is not None else f"{a['column']} none"
            for a in facts["sensitive"]
        )
        consent = decisions.consent
        summary = [
            ("profile", config.profile),
            (
                "consent",
                f"{config.consent_column or '(no column: every row)'}: {consent.consenting_rows} "
                f"of {consent.source_rows} rows, {consent.withheld_rows} withheld",
            ),
            ("QID groups", str(decisions.grouping.groups)),
            ("bound on confidence", bounds),
        ]
        return {
            "layout": self.name,
            "individuals": consent.consenting_rows,
            "withheld_rows": consent.withheld_rows,
            "materialize": "table",
            "sensitive": json.dumps(list(config.sensitive_columns)),
            "person_level": json.dumps(None),
            "personalized": json.dumps(facts),
            "companions": json.dumps(list(PUBLISHED)),
            "summary": json.dumps(summary),
        }
