"""``anonsql init``: propose a spec for a table, check it with the pipeline, and write it.

1. **Profile and first roles** (:mod:`anonsql.init.suggest`): identifiers by values and names,
   the person column, quasi-identifiers with builders, sensitive columns with a model.
2. **Exact links**: a candidate that alone determines a quasi-identifier
   (:func:`anonsql.resolve.linked.linked_columns`, the resolve step's early refusal) is left
   out.
3. **Exposure**: a trial run (:mod:`anonsql.init.trial`) publishes every candidate with
   ``acknowledge_linked: true``, so the measure step records what each one exposes with the
   gate's own measures (:func:`anonsql.measure.exposure.acknowledged_exposure`: rows whose
   generalized quasi-identifier it recovers, rows in classes below k with it). An exposed
   column becomes a quasi-identifier when a builder fits it, else it is left out; the comment
   gives the figure.
4. **The spec as written**: trial runs of the proposal without acknowledgement, at most
   :data:`MAX_ROUNDS`; when the linkage gate refuses, the columns its findings name become
   quasi-identifiers or are left out, and the spec is run again. The verdict (passes, or
   exactly why not) heads the spec.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from anonsql.engines import Engine, TypeClass
from anonsql.errors import SpecError
from anonsql.init.identifiers import detect_identifiers
from anonsql.init.profile import ColumnProfile, SourceRisk, profile_table, source_risk, varying
from anonsql.init.suggest import (
    INSENSITIVE,
    LEFT_OUT,
    PERSON,
    QUASI_IDENTIFIER,
    SENSITIVE,
    K,
    Suggestion,
    Table,
    fingerprint_model,
    first_suggestion,
    person_column,
    qid_declaration,
    sensitive_model,
)
from anonsql.init.trial import Trial, trial_run
from anonsql.measure.exposure import AcknowledgedExposure, linked_exposure
from anonsql.resolve.linked import LinkageFinding, linked_columns
from anonsql.sql import TableName

#: The most runs of the spec as written (each refusal by the gate changes it once).
MAX_ROUNDS = 4


@dataclass(frozen=True)
class Verdict:
    """Whether the written spec passed its trial run, in words, and the runs it took."""

    passes: bool
    text: str
    runs: int


@dataclass(frozen=True)
class InitResult:
    """The profile, the suggestions, the models, the source's risk, the verdict of the trial
    run (None when not checked) and the spec text."""

    table: TableName
    profiles: tuple[ColumnProfile, ...]
    suggestions: tuple[Suggestion, ...]
    risk: SourceRisk | None
    yaml: str
    privacy: tuple[dict[str, Any], ...] = ()
    person: str | None = None
    verdict: Verdict | None = None

    def summary(self) -> dict[str, Any]:
        """JSON-ready: each column's profile and suggestion, the models, the risk, the verdict
        and the spec text."""
        suggested = {s.column: s for s in self.suggestions}
        risk = self.risk
        return {
            "table": str(self.table),
            "columns": [
                {
                    "name": p.name,
                    "type": p.data_type,
                    "rows": p.rows,
                    "distinct": p.distinct,
                    "null_share": p.null_share,
                    "uniqueness": p.uniqueness,
                    "role": suggested[p.name].role,
                    "declaration": suggested[p.name].declaration,
                    "reasons": list(suggested[p.name].reasons),
                }
                for p in self.profiles
            ],
            "person_id": self.person,
            "privacy": list(self.privacy),
            "risk": None
            if risk is None
            else {**asdict(risk), "highest": risk.highest, "average": risk.average},
            "verdict": None if self.verdict is None else asdict(self.verdict),
            "spec": self.yaml,
        }


@dataclass(frozen=True)
class Proposal:
    """A spec being proposed: each column's suggestion and the models with their reasons."""

    table: Table
    suggestions: tuple[Suggestion, ...]

    def of(self, role: str) -> list[str]:
        return [s.column for s in self.suggestions if s.role == role]

    def get(self, column: str) -> Suggestion:
        return next(s for s in self.suggestions if s.column == column)

    def changed(self, new: Suggestion) -> Proposal:
        return replace(
            self,
            suggestions=tuple(new if s.column == new.column else s for s in self.suggestions),
        )

    def models(self) -> list[tuple[dict[str, Any], str]]:
        """The privacy entries and why each."""
        k_model = "person_k_anonymity" if self.table.person else "k_anonymity"
        counted = "persons" if self.table.person else "rows"
        found = [
            (
                {k_model: {"k": K}},
                f"every class of equal quasi-identifiers holds at least k = {K} {counted}",
            )
        ]
        sensitive = self.of(SENSITIVE)
        if self.table.person:
            found += [fingerprint_model(c) for c in sensitive[:1]]
        else:
            found += [sensitive_model(self.table, c) for c in sensitive]
        return found

    def spec(self, *, acknowledged: Sequence[str] = ()) -> dict[str, Any]:
        """The spec as a mapping (``acknowledged``: columns published with
        ``acknowledge_linked: true``, for the exposure trial)."""
        name = self.table.name
        columns = {}
        for s in self.suggestions:
            if s.role in (LEFT_OUT, PERSON):
                continue
            declared = dict(s.declaration)
            if s.column in acknowledged:
                declared["acknowledge_linked"] = True
            columns[s.column] = declared
        found: dict[str, Any] = {
            "source": f"{name.schema or 'main'}.{name.name}",
            "output": {"schema": "anon", "name": name.name},
        }
        if self.table.person:
            found["person_id"] = self.table.person
        found |= {
            "columns": columns,
            "privacy": [m for m, _ in self.models()],
            "algorithm": "one_to_many" if self.table.person else "mondrian",
            "suppression_limit": 0.0,
            "seed": 0,
        }
        return found


def init_spec(
    engine: Engine,
    table: TableName,
    *,
    engine_name: str | None = None,
    database: str | None = None,
    check: bool = True,
) -> InitResult:
    """Profile ``table``, propose a spec that protects what the profile detects, and (with
    ``check``) run it into scratch schemas until the publish gate accepts it or
    :data:`MAX_ROUNDS` runs are spent."""
    profiles = profile_table(engine, table)
    rows = profiles[0].rows if profiles else 0
    by_name = {p.name: p for p in profiles}
    text = [p.name for p in profiles if p.type_class is TypeClass.TEXT]
    matches = detect_identifiers(engine, table, text)
    shape = Table(engine, table, rows, by_name)
    person = person_column([p for p in profiles if p.name not in matches])
    if person is not None:
        others = [p.name for p in profiles if p.name != person.name]
        persons, varies = varying(engine, table, person.name, others)
        shape = replace(shape, person=person.name, persons=persons, varying=varies)
    proposal = Proposal(
        shape, tuple(first_suggestion(shape, p, matches.get(p.name)) for p in profiles)
    )
    proposal = _one_fingerprint(_exact_links(proposal))
    verdict = None
    if check and proposal.of(QUASI_IDENTIFIER):
        proposal = _exposure(proposal)
        proposal, verdict = _as_written(proposal)
    risk = source_risk(engine, table, proposal.of(QUASI_IDENTIFIER))
    yaml = render_yaml(proposal, engine_name or engine.name, database, risk, verdict)
    return InitResult(
        table,
        tuple(profiles),
        proposal.suggestions,
        risk,
        yaml,
        tuple(m for m, _ in proposal.models()),
        shape.person,
        verdict,
    )


def _one_fingerprint(proposal: Proposal) -> Proposal:
    """With a person column, the fingerprint models protect one sensitive column: the others
    are left out."""
    if not proposal.table.person:
        return proposal
    for column in proposal.of(SENSITIVE)[1:]:
        proposal = proposal.changed(
            proposal.get(column).but(
                LEFT_OUT,
                {},
                "left out: a sensitive column, and with several rows per person the fingerprint "
                f"models protect one sensitive column ({proposal.of(SENSITIVE)[0]})",
            )
        )
    return proposal


def _published(proposal: Proposal) -> list[str]:
    return [s.column for s in proposal.suggestions if s.role in (SENSITIVE, INSENSITIVE)]


def _exact_links(proposal: Proposal) -> Proposal:
    """A candidate that alone exactly determines a quasi-identifier is left out."""
    qids, published = proposal.of(QUASI_IDENTIFIER), _published(proposal)
    if not qids or not published:
        return proposal
    table = proposal.table
    boolean = [q for q in qids if table.profiles[q].type_class is TypeClass.BOOLEAN]
    for linked in linked_columns(table.engine, table.name, published, qids, boolean=boolean):
        determined = ", ".join(linked.determines)
        # left out rather than generalized: as a quasi-identifier it would still pin
        # {determined} down inside every class, for any column published beside it
        proposal = proposal.changed(
            proposal.get(linked.column).but(
                LEFT_OUT,
                {},
                f"left out: each of its values occurs with a single value of {determined}: "
                f"published it would give {determined} away on every row published generalized",
            )
        )
    return proposal


def _fix(proposal: Proposal, column: str, why: str) -> Suggestion:
    """``column`` exposes something (``why``): a quasi-identifier when it is insensitive and a
    builder fits it, else left out."""
    s = proposal.get(column)
    if s.role == INSENSITIVE:
        declared = qid_declaration(proposal.table, proposal.table.profiles[column])
        if not isinstance(declared, str):
            declaration, how = declared
            return s.but(
                QUASI_IDENTIFIER,
                {"role": QUASI_IDENTIFIER, **declaration},
                f"made a quasi-identifier: {why}",
                how,
            )
        return s.but(LEFT_OUT, {}, f"left out: {why}; and it cannot be generalized: {declared}")
    return s.but(LEFT_OUT, {}, f"left out: {why}")


def _exposure(proposal: Proposal) -> Proposal:
    """The exposure trial: every candidate acknowledged, each one's exposure read from the
    certificate the measure step wrote; the exposed ones fixed (:func:`_fix`)."""
    candidates = _published(proposal)
    if not candidates:
        return proposal
    trial = trial_run(proposal.table.engine, proposal.spec(acknowledged=candidates))
    if trial.result is None:
        return proposal  # the runs of the spec as written say why
    exposure = linked_exposure(trial.result.certificate)
    for found in exposure.acknowledged:
        said = _exposure_words(proposal.table, found)
        if said:
            proposal = proposal.changed(_fix(proposal, found.column, said))
    return proposal


def _exposure_words(table: Table, found: AcknowledgedExposure) -> str:
    parts = []
    if found.small_class_rows:
        # rows, in classes of fewer than k individuals (persons where k counts persons)
        parts.append(
            f"alone it puts {found.small_class_rows:,} of {table.rows:,} rows in classes of "
            f"fewer than k = {K} {table.unit}"
        )
    for qid, n in found.recovered_rows.items():
        if n:
            rows = "row" if n == 1 else "rows"
            parts.append(f"it gives {qid} away for {n:,} {rows} published generalized")
    return "; ".join(parts)


def _as_written(proposal: Proposal) -> tuple[Proposal, Verdict]:
    """Run the spec as written; fix what the gate names and run again, at most
    :data:`MAX_ROUNDS` times."""
    for run in range(1, MAX_ROUNDS + 1):
        trial = trial_run(proposal.table.engine, proposal.spec())
        if trial.passes:
            return proposal, Verdict(True, _passes(trial), run)
        refused = trial.linkage
        if refused is None or run == MAX_ROUNDS:
            return proposal, Verdict(False, _fails(trial), run)
        for finding in refused.findings:
            column = _culprit(proposal, finding)
            if column is not None:
                proposal = proposal.changed(
                    _fix(proposal, column, f"the publish gate found: {finding.describe()}")
                )
    raise AssertionError("unreachable")


def _culprit(proposal: Proposal, finding: LinkageFinding) -> str | None:
    """The column of a finding to fix: the one published unchanged with the most distinct
    values (the others may be innocent in the combination)."""
    published = [c for c in finding.columns if proposal.get(c).role in (SENSITIVE, INSENSITIVE)]
    if not published:
        return None
    return max(published, key=lambda c: proposal.table.profiles[c].distinct)


def _passes(trial: Trial) -> str:
    assert trial.result is not None
    cert = trial.result.certificate
    models = [f"{name} {_params(p)}" for m in json.loads(cert["models"]) for name, p in m.items()]
    attacks = json.loads(str(cert.get("attacks") or "[]"))
    bounded = [a for a in attacks if a.get("bound") is not None]
    text = (
        f"passes: {', '.join(models)} verified on {int(cert['published_rows']):,} published rows "
        f"({int(cert['suppressed_rows']):,} suppressed); the linkage gate found no exposure"
    )
    if bounded:
        text += f"; {len(bounded)} attacks within the bounds the models promise"
    return text


def _params(p: dict[str, Any] | None) -> str:
    return "(" + ", ".join(f"{k} = {v}" for k, v in (p or {}).items()) + ")"


def _fails(trial: Trial) -> str:
    error = trial.error
    if error is None:
        return "does not pass: the run was not verified"
    if isinstance(error, SpecError):
        return f"does not pass: {error.key}: {error.problem}. Fix: {error.fix}"
    return f"does not pass: {error}"


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else json.dumps(name)


#: Plain words YAML reads as something else than text.
_YAML_WORDS = ("true", "false", "yes", "no", "on", "off", "null", "y", "n")


def _flow(value: Any) -> str:
    """A YAML flow value (JSON is YAML; plain words unquoted)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if (
        isinstance(value, str)
        and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value)
        and value.lower() not in _YAML_WORDS
    ):
        return value
    return json.dumps(value)


def _risk_lines(risk: SourceRisk | None) -> list[str]:
    if risk is None:
        return ["# No quasi-identifier suggested: declare some before running."]
    share = 100 * risk.unique_rows / (risk.rows or 1)
    return [
        f"# Re-identification risk of the source over the suggested quasi-identifiers "
        f"({', '.join(risk.qids)}):",
        f"#   {risk.unique_rows:,} of {risk.rows:,} rows ({share:.1f} %) are unique, "
        f"{risk.below_5:,} are in classes of fewer than 5 rows, {risk.below_10:,} of fewer "
        "than 10;",
        f"#   {risk.classes:,} classes, highest probability {100 * risk.highest:.0f} %, "
        f"average {100 * risk.average:.1f} %. anonsql run brings the highest to 1/k.",
    ]


def _verdict_lines(verdict: Verdict | None) -> list[str]:
    if verdict is None:
        return ["# Not checked (--no-check): run `anonsql run --dry-run THIS_FILE` first."]
    runs = f"{verdict.runs} trial run{'s' if verdict.runs > 1 else ''}"
    return [
        f"# init ran this spec as written into scratch schemas it dropped ({runs}):",
        f"#   {verdict.text}",
    ]


def render_yaml(
    proposal: Proposal,
    engine_name: str,
    database: str | None,
    risk: SourceRisk | None,
    verdict: Verdict | None,
) -> str:
    spec = proposal.spec()
    lines = [
        f"# anonsql spec for {proposal.table.name}, written by `anonsql init`.",
        *_verdict_lines(verdict),
        "# Check every role below (the comments say why each was chosen), then run:",
        "#   anonsql run THIS_FILE",
        *_risk_lines(risk),
        f"engine: {_flow(engine_name)}",
    ]
    if database is not None:
        lines.append(f"database: {_flow(database)}")
    lines += [
        f"source: {_flow(spec['source'])}",
        f"output: {_flow(spec['output'])}",
    ]
    for s in proposal.suggestions:
        if s.role == PERSON:
            lines += [f"# {s.column}: {reason}" for reason in s.reasons]
            lines.append(f"person_id: {_flow(s.column)}")
    lines.append("columns:")
    for s in proposal.suggestions:
        if s.role == PERSON:
            continue
        lines += [f"  # {reason}" for reason in s.reasons]
        if s.role == LEFT_OUT:
            lines.append(f"  # {_key(s.column)}: left out (undeclared columns are dropped)")
        else:
            lines.append(f"  {_key(s.column)}: {_flow(s.declaration)}")
    lines.append("privacy:")
    for model, why in proposal.models():
        lines += [f"  # {why}", f"  - {_flow(model)}"]
    lines += [
        f"algorithm: {spec['algorithm']}",
        "suppression_limit: 0.0   # share of rows that may be left out to keep more detail",
        "seed: 0",
    ]
    return "\n".join(lines) + "\n"
