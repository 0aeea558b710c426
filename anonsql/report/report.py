"""The report step: what a run published and measured, as one frozen result, with the summary
people read (the CLI prints it; ``anonsql report`` renders more)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from anonsql.algorithms import Partitioning
from anonsql.attacks import attack_results
from anonsql.certify import Certificate
from anonsql.measure.exposure import linked_exposure
from anonsql.measure.measure import Measurement
from anonsql.metrics.base import MetricValue
from anonsql.privacy.check import CheckResult
from anonsql.publish import BuiltRelease
from anonsql.release import counted, counts_facts, person_facts
from anonsql.spec.output import OutputNames
from anonsql.verify import Verification


def metric_json(m: MetricValue) -> dict[str, Any]:
    """One metric value as JSON-ready values."""
    return {"metric": m.name, "attribute": m.attribute, "value": m.value}


@dataclass(frozen=True)
class RunResult:
    """What a run published (``names``), its verification, metrics and certificate, and how
    the search went (``partitioning``)."""

    names: OutputNames
    check: CheckResult
    metrics: tuple[MetricValue, ...]
    certificate: Mapping[str, Any]
    partitioning: Partitioning

    def metric(self, name: str, attribute: str | None = None) -> float:
        return Measurement(self.metrics).value(name, attribute)

    def summary_json(self) -> dict[str, Any]:
        """The result as JSON-ready values (``anonsql run --json``): the certificate with its
        JSON fields parsed, the violations, the metrics and the search's figures."""
        certificate: dict[str, Any] = {}
        for key, value in self.certificate.items():
            if (isinstance(value, str) and value[:1] in "[{") or value == "null":
                with contextlib.suppress(ValueError):
                    value = json.loads(value)
            certificate[key] = value
        return {
            "output": str(self.names.main),
            "verified": bool(self.certificate["verified"]),
            "violations": dict(self.check.violations),
            "certificate": certificate,
            "metrics": [metric_json(m) for m in self.metrics],
            "rounds": self.partitioning.rounds,
            "statements": self.partitioning.statements,
            "rounds_in_memory": self.partitioning.rounds_in_memory,
            "warnings": self.warnings(),
        }

    def warnings(self) -> list[str]:
        """What the release exposes beyond its models, as the spec acknowledged it: one line
        per acknowledged linked column (:meth:`LinkedExposure.warnings`) and record-level
        counting over repeated persons."""
        found = linked_exposure(self.certificate).warnings()
        counts = counts_facts(self.certificate)
        if counts.get("acknowledged"):
            found.append(f"k counts rows, acknowledged: {counts.get('why')}")
        return found

    def summary(self) -> list[tuple[str, str]]:
        """(label, value) lines summing up the run."""
        cert = self.certificate
        lines = [
            ("source", f"{cert['source']} ({cert['source_rows']} rows)"),
            ("models", str(cert["models"])),
            ("verified", "yes: 0 violating classes" if cert["verified"] else "NO"),
            ("published rows", str(cert["published_rows"])),
            ("suppressed rows", str(cert["suppressed_rows"])),
            ("equivalence classes", str(cert["classes"])),
        ]
        person = person_facts(cert)
        if person is None:
            lines.append(("NCP (GCP)", f"{cert['ncp_percent']:.2f} %"))
            also: tuple[str, ...] = ("recoding",)
        else:
            lines.append(("persons", str(person["persons"])))
            if person.get("fingerprint_buckets") is not None:
                lines.append(("SA-fingerprint buckets", str(person["fingerprint_buckets"])))
            if person.get("suppressed_individuals"):
                lines.append(("suppressed individuals", str(person["suppressed_individuals"])))
            lines.append(("QID-NCP (per person)", f"{cert['ncp_percent']:.2f} %"))
            sa_ncp = [m.value for m in self.metrics if m.name == "sa_ncp"]
            if sa_ncp:
                lines.append(("SA-NCP (per item)", f"{sa_ncp[0]:.2f} %"))
            also = (
                ("by_person", "person_map")
                if cert.get("layout") == "identity_reserved"
                else ("by_person", "fingerprints", "person_map")
            )
        counts = counted(cert)
        if counts:
            lines.append(("k counts", counts))
        lines.extend(("warning", w) for w in self.warnings())
        lines.extend(attack_lines(cert))
        # a layout may record lines of its own and the companions it published
        lines.extend((str(a), str(b)) for a, b in json.loads(cert.get("summary") or "[]"))
        also = tuple(json.loads(cert["companions"])) if cert.get("companions") else also
        p = self.partitioning
        in_memory = f" ({p.rounds_in_memory} rounds in memory)" if p.rounds_in_memory else ""
        lines.append(("rounds / statements", f"{p.rounds} / {p.statements}{in_memory}"))
        lines.append(("time", f"{cert['seconds']:.2f} s"))
        companions = (*also, "classes", "certificate", "metrics")
        lines.append(
            ("also published", ", ".join(str(self.names.companion(k)) for k in companions))
        )
        return lines


def attack_lines(certificate: Mapping[str, Any]) -> list[tuple[str, str]]:
    """One summary line per attack result the certificate records, and one saying which
    results the release does not bound."""
    results = attack_results(certificate)
    lines = []
    for r in results:
        on = f" on {r.attribute}" if r.attribute else ""
        who = "" if r.adversary == "certified" else " (knowing every published column)"
        lines.append((f"attack {r.attack}{on}{who}", r.describe()))
    unbounded = sorted({r.attack for r in results if r.measured and r.bound is None})
    if unbounded:
        lines.append(("not bounded by this release", ", ".join(unbounded)))
    return lines


def report(
    release: BuiltRelease,
    verification: Verification,
    measurement: Measurement,
    certificate: Certificate,
) -> RunResult:
    """The run's result, once the release is published."""
    return RunResult(
        names=release.names,
        check=verification.check,
        metrics=measurement.metrics,
        certificate=certificate.fields,
        partitioning=release.staged.partitioning,
    )
