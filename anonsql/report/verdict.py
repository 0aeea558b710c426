"""The verdict of a release, as the HTML report leads with it: what the release protects (the
certified models, each in words, and what they count) and what it does not (declared sensitive
columns no model reads, published columns that give quasi-identifiers away or split classes
below the bound, changes since certification).

Two inputs are read through one function each, so a change of their record is a change here
only: the exposure of published columns (:func:`exposure_findings`, from the certificate) and
the release's state against its source now (:func:`changes_since_certification`, through
:mod:`anonsql.release.status`).

"Verified" is never said alone over a finding: :attr:`Verdict.level` is ``ok`` only when the
models hold and nothing is left unprotected, measured as missing or changed since.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from anonsql.engines import Engine
from anonsql.errors import AnonsqlError
from anonsql.measure.exposure import linked_exposure
from anonsql.privacy import PRIVACY_MODELS, PrivacyModel, largest_k
from anonsql.release import PublishedRelease
from anonsql.release.status import release_status
from anonsql.report.labels import NOT_MEASURED

Level = Literal["ok", "warn", "bad"]


@dataclass(frozen=True)
class ExposureFinding:
    """What one column published unchanged beside the quasi-identifiers exposes: per
    quasi-identifier the published rows whose generalized value it gives away
    (``recovered_rows``), the rows in classes below the release's bound once an analyst knows
    the column (``below_bound_rows``; None for a sensitive column, which an analyst does not
    know), and the quasi-identifiers the spec acknowledged it determines. None: not measured."""

    column: str
    sensitive: bool
    recovered_rows: Mapping[str, int] | None
    below_bound_rows: int | None
    acknowledged: tuple[str, ...] = ()

    @property
    def measured(self) -> bool:
        return self.recovered_rows is not None and (
            self.sensitive or self.below_bound_rows is not None
        )

    @property
    def recovered(self) -> dict[str, int]:
        return {q: n for q, n in (self.recovered_rows or {}).items() if n}

    @property
    def exposes(self) -> bool:
        """Whether the column leaves rows unprotected (or could: not measured)."""
        return (
            not self.measured
            or bool(self.recovered)
            or bool(self.below_bound_rows)
            or bool(self.acknowledged)
        )


def exposure_findings(certificate: Mapping[str, Any]) -> tuple[ExposureFinding, ...]:
    """The exposure of every column published unchanged, as the certificate records it (its
    ``linked_columns`` field, read by :func:`anonsql.measure.exposure.linked_exposure`). The one
    place the report reads exposure. The columns the linkage gate read expose nothing (the
    release was published, so they passed it); acknowledged ones expose what was measured."""
    exposure = linked_exposure(certificate)
    acknowledged = {a.column: a for a in exposure.acknowledged}
    checked = [c for c in exposure.columns.recovery if c not in acknowledged]
    findings = [
        ExposureFinding(
            column=column,
            sensitive=column not in exposure.columns.classes,
            recovered_rows={},
            below_bound_rows=None if column not in exposure.columns.classes else 0,
        )
        for column in checked
    ]
    findings += [
        ExposureFinding(
            column=a.column,
            sensitive=a.role == "sensitive",
            recovered_rows=dict(a.recovered_rows),
            below_bound_rows=a.small_class_rows,
            acknowledged=a.determines,
        )
        for a in exposure.acknowledged
    ]
    findings += _legacy_findings(certificate, {f.column for f in findings})
    return tuple(sorted(findings, key=lambda f: f.column))


def _legacy_findings(certificate: Mapping[str, Any], seen: set[str]) -> list[ExposureFinding]:
    """A certificate from before the linkage gate recorded every column published unchanged
    (``revealed_rows``, ``small_class_rows``); figures it lacks are not measured."""
    raw = certificate.get("linked_columns")
    try:
        found = json.loads(raw) if isinstance(raw, str) and raw else {}
    except ValueError:
        return []
    if not isinstance(found, dict) or "recovery_columns" in found:
        return []
    findings = []
    for column, facts in sorted(found.items()):
        if column in seen or not isinstance(facts, dict):
            continue
        revealed = facts.get("revealed_rows")
        below = facts.get("small_class_rows")
        findings.append(
            ExposureFinding(
                column=str(column),
                sensitive="small_class_rows" in facts and below is None,
                recovered_rows=(
                    {str(q): int(n or 0) for q, n in revealed.items()}
                    if isinstance(revealed, dict)
                    else None
                ),
                below_bound_rows=None if below is None else int(below),
            )
        )
    return findings


@dataclass(frozen=True)
class Claim:
    """One check the release was certified by: a privacy model (``model``) or a check of the
    layout's own, what it bounds in words, what it counts, and its violations (None: the
    certificate records none for it)."""

    check: str
    words: str
    counts: str
    violations: int | None
    model: PrivacyModel | None = None

    @property
    def holds(self) -> bool:
        return self.violations == 0


@dataclass(frozen=True)
class Counting:
    """What the release's classes count (``unit``: persons or rows) and why, in words."""

    unit: str
    text: str


@dataclass(frozen=True)
class Changes:
    """The release against its source now: (label, value) facts, and the findings among them in
    words (``measured`` False when the status could not be read)."""

    facts: tuple[tuple[str, str], ...]
    findings: tuple[str, ...]
    measured: bool = True


_ROLE = re.compile(r":\w+:`~?([\w.]+)`")


def model_words(model: type[PrivacyModel]) -> str:
    """What a model bounds, in words: the first sentence of its docstring (which cites the
    paper), with its markup removed."""
    doc = inspect.cleandoc(model.__doc__ or "")
    paragraph = " ".join(doc.split("\n\n")[0].split())
    paragraph = _ROLE.sub(lambda m: m.group(1).rsplit(".", 1)[-1], paragraph).replace("``", "")
    depth = 0
    for i, char in enumerate(paragraph):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "." and depth == 0 and (i + 1 == len(paragraph) or paragraph[i + 1] == " "):
            return paragraph[: i + 1]
    return paragraph or model.name


def _parameters(model: PrivacyModel) -> str:
    return ", ".join(f"{k} = {v}" for k, v in model.parameters().items() if v is not None)


def claims(release: PublishedRelease) -> tuple[Claim, ...]:
    """Every check the certificate records, models first (in the spec's order)."""
    raw = release.certificate.get("violations")
    violations: dict[str, int] = json.loads(raw) if isinstance(raw, str) and raw else {}
    out = []
    seen = set()
    for model in release.models:
        key = model.describe()
        seen.add(key)
        counts = "persons" if model.counts_persons else "rows"
        out.append(
            Claim(
                check=f"{model.name} ({_parameters(model)})" if _parameters(model) else model.name,
                words=model_words(type(model)),
                counts=counts,
                violations=violations.get(key),
                model=model,
            )
        )
    for key, count in violations.items():
        if key in seen:
            continue
        name = key.split("(", 1)[0]
        # a model the layout checks besides (person consistency, the by-person relation) or a
        # check of the layout's own ("group_size: QID groups of >= k rows")
        if name in PRIVACY_MODELS:
            words = model_words(PRIVACY_MODELS.get(name))
            counts = "persons" if PRIVACY_MODELS.get(name).counts_persons else "rows"
        else:
            words = key.split(": ", 1)[1] if ": " in key else key
            counts = "rows"
            key = key.split(": ", 1)[0]
        out.append(Claim(check=key, words=words, counts=counts, violations=int(count)))
    return tuple(out)


def protected_sensitive(release: PublishedRelease) -> set[str]:
    """Sensitive columns a model or the layout's checks read."""
    read = set(release.sensitive)
    read |= {m.sensitive_column for m in release.models if m.sensitive_column}
    person = release.person or {}
    for key in ("fingerprint_column", "sensitive_column"):
        if person.get(key):
            read.add(str(person[key]))
    return read


def counting(release: PublishedRelease) -> Counting:
    """What k counts: the certificate's ``counts`` when it records one, else persons (a person
    column declared) or rows."""
    recorded = release.certificate.get("counts")
    if recorded:
        try:
            value = json.loads(recorded) if isinstance(recorded, str) else recorded
        except ValueError:
            value = recorded
        if isinstance(value, dict) and value.get("unit") in ("persons", "rows"):
            return _recorded_counting(release, value)
        return Counting("rows", str(value))
    if release.person is not None and release.person.get("person_id"):
        persons = release.person.get("persons")
        return Counting(
            "persons",
            f"persons: classes count distinct persons (person column "
            f"{release.person['person_id']}"
            + (f"; {persons} persons in {release.source_rows} source rows)" if persons else ")"),
        )
    return Counting(
        "rows",
        "rows: each published row is counted as one person; no person column (person_id) is "
        "declared, so a person with several rows would count several times",
    )


def _recorded_counting(release: PublishedRelease, counts: Mapping[str, Any]) -> Counting:
    """The certificate's ``counts`` (:class:`anonsql.resolve.persons.Counting`) in words."""
    why = str(counts.get("why") or "")
    if counts["unit"] == "persons":
        persons = (release.person or {}).get("persons")
        return Counting(
            "persons",
            f"persons: classes count distinct persons (person column {counts.get('column')}"
            + (f"; {persons} persons in {release.source_rows} source rows)" if persons else ")"),
        )
    if counts.get("acknowledged"):
        return Counting(
            "rows",
            f"rows, acknowledged: {counts.get('column')} repeats, so a person may own several "
            f"rows and a class of k rows may hold fewer than k persons ({why})",
        )
    return Counting(
        "rows",
        "rows: each published row is counted as one person; no person column (person_id) is "
        f"declared ({why})",
    )


_STATUS_LABELS = {
    "stale": "source changed since certification",
    "certified_source_rows": "source rows when certified",
    "source_rows": "source rows now",
    "certified_rows": "rows certified",
    "released_rows": "rows released",
    "published_rows": "rows analysts can query now",
    "withheld_rows": "rows withheld by the guard",
    "uncovered_rows": "source rows the release does not cover",
    "suppressed_rows": "rows suppressed",
    "hidden_rows": "source rows analysts cannot see",
}
_STATUS_FINDINGS = {
    "withheld_rows": "{n} rows withheld by the guard (their class now violates a model)",
    "uncovered_rows": "{n} source rows not in the release (new since certification)",
}
_STATUS_SKIPPED = {"output", "materialize", "hidden_share"}


def changes_since_certification(engine: Engine, release: PublishedRelease) -> Changes:
    """The release against its source now, read through :mod:`anonsql.release.status` (the
    one place the report reads it). Count fields the status gains (rows held back...) are
    listed as they come; a status that cannot be read is "not measured"."""
    try:
        status = release_status(engine, release.names.main).summary()
    except AnonsqlError:
        return Changes((("status", NOT_MEASURED + ": the source could not be read"),), (), False)
    facts, findings = [], []
    for key, value in status.items():
        if key in _STATUS_SKIPPED:
            continue
        label = _STATUS_LABELS.get(key, key.replace("_", " "))
        if isinstance(value, bool):
            facts.append((label, "yes" if value else "no"))
        else:
            facts.append((label, str(value)))
    if status.get("stale"):
        findings.append("the source changed since certification (stale)")
    for key, value in status.items():
        if key in _STATUS_SKIPPED or key == "hidden_rows" or isinstance(value, bool):
            continue
        if key in _STATUS_FINDINGS and value:
            findings.append(_STATUS_FINDINGS[key].format(n=value))
        elif key not in _STATUS_LABELS and isinstance(value, int) and value:
            findings.append(f"{value} {key.replace('_', ' ')}")
    return Changes(tuple(facts), tuple(findings))


@dataclass(frozen=True)
class Verdict:
    """What a release protects and what it does not (module docstring)."""

    verified: bool
    claims: tuple[Claim, ...]
    unprotected_sensitive: tuple[str, ...]
    #: Every column published unchanged, exposing or not.
    exposure: tuple[ExposureFinding, ...]
    counting: Counting
    changes: Changes
    k: int | None
    published_rows: int

    def exposure_phrases(self, finding: ExposureFinding) -> list[str]:
        if not finding.measured:
            return [f"{finding.column}: exposure {NOT_MEASURED}"]
        out = [
            f"{finding.column} gives {qid} away for {n} of {self.published_rows} rows"
            for qid, n in finding.recovered.items()
        ]
        if finding.below_bound_rows:
            bound = f"k = {self.k}" if self.k else "the bound"
            out.append(
                f"{finding.below_bound_rows} of {self.published_rows} rows in classes below "
                f"{bound} to an analyst who knows {finding.column}"
            )
        if finding.acknowledged:
            out.append(
                f"{finding.column} determines {', '.join(finding.acknowledged)} (acknowledged)"
            )
        return out

    @property
    def not_protected(self) -> tuple[str, ...]:
        """Every unprotected finding, in words."""
        out = [
            f"{column} (declared sensitive; no model reads it: published as it is)"
            for column in self.unprotected_sensitive
        ]
        for finding in self.exposure:
            if finding.exposes:
                out += self.exposure_phrases(finding)
        return tuple(out)

    @property
    def level(self) -> Level:
        if not self.verified or any(not c.holds for c in self.claims):
            return "bad"
        if self.not_protected or self.changes.findings or not self.changes.measured:
            return "warn"
        return "ok"

    @property
    def badge(self) -> str:
        """The verdict in one line: what holds, then what is not protected."""
        if self.level == "bad":
            failing = [
                f"{c.check} fails on {c.violations} classes"
                if c.violations
                else f"{c.check}: {NOT_MEASURED}"
                for c in self.claims
                if not c.holds
            ]
            return "NOT verified: " + ("; ".join(failing) or "the certificate says so")
        models = [c.check for c in self.claims if c.model is not None]
        where = (
            "every class"
            if all(c.model.guard == "class" for c in self.claims if c.model is not None)
            else "the published rows"
        )
        verb = "holds" if len(models) == 1 else "hold"
        text = f"verified: {_and(models) or 'the layout checks'} {verb} on {where}"
        if self.not_protected:
            text += "; not protected: " + "; ".join(self.not_protected)
        if self.changes.findings:
            text += "; since certification: " + "; ".join(self.changes.findings)
        elif not self.changes.measured:
            text += "; changes since certification " + NOT_MEASURED
        return text


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def verdict(engine: Engine, release: PublishedRelease) -> Verdict:
    """The verdict of ``release``."""
    exposure = exposure_findings(release.certificate)
    protected = protected_sensitive(release)
    declared = [f.column for f in exposure if f.sensitive]
    declared += [c for c in release.sensitive if c not in declared]
    return Verdict(
        verified=bool(release.certificate["verified"]),
        claims=claims(release),
        unprotected_sensitive=tuple(c for c in declared if c not in protected),
        exposure=exposure,
        counting=counting(release),
        changes=changes_since_certification(engine, release),
        k=largest_k(release.models),
        published_rows=int(release.certificate["published_rows"]),
    )
