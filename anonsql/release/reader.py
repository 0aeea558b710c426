"""The release reader: everything anonsql reads back from a published release (its
certificate, companions, layout, quasi-identifiers and models), in one place used by the
publisher, ``check``, ``status``, ``metrics``, the OLAP metric and reports."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.privacy import PrivacyModel, models_from_entries
from anonsql.spec.output import OutputNames
from anonsql.sql import TableName


def read_certificate(engine: Engine, names: OutputNames) -> dict[str, Any] | None:
    """The certificate of the release published as ``names``, or None."""
    if not engine.exists(names.certificate):
        return None
    rows = engine.query_arrow("select_all", relation=names.certificate).to_pylist()
    return rows[0] if rows else None


def is_published(engine: Engine, names: OutputNames) -> bool:
    """Whether anonsql published ``names.main`` (a certificate stands beside it)."""
    return engine.exists(names.certificate)


@dataclass(frozen=True)
class PublishedRelease:
    """A release as its certificate and companions describe it."""

    names: OutputNames
    certificate: Mapping[str, Any]
    qids: tuple[str, ...]
    sensitive: tuple[str, ...]
    models: tuple[PrivacyModel, ...]
    #: The 1:M facts (person column, persons, fingerprint column...), None for one row per
    #: individual.
    person: Mapping[str, Any] | None

    @property
    def layout(self) -> str:
        """The release layout's name (``anonsql.layouts``): as the certificate records it, else
        ``person`` for 1:M releases and ``record`` otherwise."""
        recorded = self.certificate.get("layout")
        if isinstance(recorded, str):
            return recorded
        return "person" if self.person is not None else "record"

    @property
    def source(self) -> str:
        return str(self.certificate["source"])

    @property
    def source_rows(self) -> int:
        return int(self.certificate["source_rows"])

    @property
    def individuals(self) -> int:
        """Individuals the release was made of: as the certificate records them, else persons
        (1:M) or source rows."""
        recorded = self.certificate.get("individuals")
        if recorded is not None:
            return int(recorded)
        return int(self.person["persons"]) if self.person is not None else self.source_rows

    @property
    def person_column(self) -> str | None:
        return str(self.person["person_id"]) if self.person is not None else None

    def attributes(self, engine: Engine) -> list[dict[str, Any]]:
        """The rows of ``__attributes`` (one per quasi-identifier), in the certificate's order
        of the quasi-identifiers (a table has no order: Spark reads it back in another)."""
        rows: list[dict[str, Any]] = engine.query_arrow(
            "select_all", relation=self.names.attributes
        ).to_pylist()
        position = {qid: i for i, qid in enumerate(self.qids)}
        return sorted(rows, key=lambda row: position.get(row["attribute"], len(position)))


def person_facts(certificate: Mapping[str, Any]) -> dict[str, Any] | None:
    """The 1:M facts a certificate records (None for one row per individual)."""
    value = certificate.get("person_level")
    facts = json.loads(value) if isinstance(value, str) else None
    return facts if isinstance(facts, dict) else None


def counts_facts(certificate: Mapping[str, Any]) -> dict[str, Any]:
    """What a certificate says its models count (``counts``: ``unit``, ``column``, ``why``,
    ``acknowledged``); empty for a certificate written before it did."""
    value = certificate.get("counts")
    facts = json.loads(value) if isinstance(value, str) else None
    return facts if isinstance(facts, dict) else {}


def counted(certificate: Mapping[str, Any]) -> str:
    """What a certificate's models count, in words ("" when it does not say)."""
    facts = counts_facts(certificate)
    if not facts:
        return ""
    if facts.get("unit") == "persons":
        return f"persons (distinct {facts.get('column')})"
    return f"rows: {facts.get('why')}"


def read_release(engine: Engine, output: TableName, *, fix: str) -> PublishedRelease:
    """The release published as ``output``; a SpecError (with ``fix``) if there is none."""
    certificate = read_certificate(engine, OutputNames(output))
    if certificate is None:
        raise SpecError(
            "output",
            f"{output} is not a relation published by anonsql (no certificate beside it)",
            fix,
        )
    private = certificate.get("private_schema")
    return PublishedRelease(
        names=OutputNames(output, str(private) if private else None),
        certificate=certificate,
        qids=tuple(json.loads(certificate["quasi_identifiers"])),
        sensitive=tuple(json.loads(certificate["sensitive"])),
        models=tuple(models_from_entries(json.loads(certificate["models"]))),
        person=person_facts(certificate),
    )
