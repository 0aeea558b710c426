"""``anonsql init``: a spec skeleton for a table, with a comment explaining each suggestion.

Roles are suggested from the profile and the column names: likely identifiers (unique or
near-unique columns, names such as ``id``, ``email``, ``ssn``), likely quasi-identifiers (ages,
dates, zip-like codes, sex, race, ...), likely sensitive columns (diagnoses, income, ...); a
column that would be published unchanged but determines a suggested quasi-identifier is
flagged and left out. Hierarchies are builders: numbers stay ``type: numeric`` (Mondrian
publishes intervals), dates go to month / year / decade, zip-like codes are masked from the end,
other text is grouped in order (a placeholder to replace with a meaningful hierarchy).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from anonsql.engines import Engine, TypeClass
from anonsql.init.profile import ColumnProfile, SourceRisk, profile_table, source_risk
from anonsql.resolve.linked import linked_columns
from anonsql.sql import TableName

_QID_NAMES = {
    "an age": r"(^|_)age($|_|s)",
    "a date (of birth, of an event)": r"birth|dob|born|date|_dt$|day",
    "a zip or postal code": r"zip|postcode|postal|plz",
    "sex or gender": r"(^|_)(sex|gender)($|_)",
    "race or ethnicity": r"race|ethnic",
    "a marital status": r"marital",
    "a place (country, city, region)": r"country|nationality|city|region|county|state$",
    "education": r"education",
}
_IDENTIFIER_NAMES = (
    r"(^|_)(id|uuid|guid|ssn|email|e_?mail|phone|mobile|name|first_?name|last_?name|surname|"
    r"passport|iban|account|mrn|ip|address)($|_)"
)
_SENSITIVE_NAMES = (
    r"diagnos|disease|icd|condition|salary|income|wage|medication|drug|religion|treatment|"
    r"illness|hiv|pregnan"
)
#: Distinct values per non-NULL row from which a column is taken for an identifier.
NEAR_UNIQUE = 0.95


#: The role of a suggestion that leaves the column out of the spec (written as a comment).
LEFT_OUT = "left_out"


@dataclass(frozen=True)
class Suggestion:
    """One column's suggested declaration and why."""

    column: str
    role: str
    declaration: dict[str, Any]
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class InitResult:
    """The profile, the suggestions, the source's risk and the spec text."""

    table: TableName
    profiles: tuple[ColumnProfile, ...]
    suggestions: tuple[Suggestion, ...]
    risk: SourceRisk | None
    yaml: str

    def summary(self) -> dict[str, Any]:
        """JSON-ready: each column's profile and suggestion, the risk, the spec text."""
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
            "risk": None
            if risk is None
            else {**asdict(risk), "highest": risk.highest, "average": risk.average},
            "spec": self.yaml,
        }


def _qid_reason(name: str) -> str | None:
    lowered = name.lower()
    for what, pattern in _QID_NAMES.items():
        if re.search(pattern, lowered):
            return f"its name suggests {what}, which others may know"
    return None


def _hierarchy(p: ColumnProfile) -> tuple[dict[str, Any], str]:
    """The declaration of a quasi-identifier and why it generalizes that way."""
    named_code = re.search(_QID_NAMES["a zip or postal code"], p.name.lower()) is not None
    if p.zip_like or (named_code and p.type_class is TypeClass.INTEGER):
        builder: dict[str, Any] = {"builder": "mask", "char": "*"}
        if p.type_class is TypeClass.INTEGER:
            builder["pad"] = "0"
        return (
            {"hierarchy": builder},
            "zip-like codes: masked from the end (0213*, 021**, ...)",
        )
    if p.type_class is TypeClass.TEMPORAL:
        return (
            {"hierarchy": {"builder": "date", "levels": ["month", "year", "decade"]}},
            "a date: generalized to month, year, decade",
        )
    if p.type_class in (TypeClass.INTEGER, TypeClass.REAL):
        return (
            {"type": "numeric"},
            "a number: published as an interval [lo, hi] (or give a hierarchy, e.g. "
            "{builder: interval, width: 5, levels: 3})",
        )
    group = max(2, math.ceil(math.sqrt(p.distinct)))
    return (
        {"hierarchy": {"builder": "ordered", "group_sizes": [group]}},
        f"text with {p.distinct} values: grouped {group} at a time in sorted order, a "
        "placeholder (replace it with a hierarchy file that groups values meaningfully)",
    )


def suggest(p: ColumnProfile) -> Suggestion:
    """The role of one column, from its profile and name."""
    facts = (
        f"{p.data_type}, {p.distinct} distinct, {100 * p.null_share:.1f} % NULL, "
        f"uniqueness {p.uniqueness:.2f}"
    )
    lowered = p.name.lower()
    named_qid = _qid_reason(p.name)
    if named_qid or (p.zip_like and p.uniqueness < NEAR_UNIQUE):
        declaration, how = _hierarchy(p)
        why = named_qid or "its values look like zip or postal codes"
        return Suggestion(
            p.name,
            "quasi_identifier",
            {"role": "quasi_identifier", **declaration},
            (facts, why, how),
        )
    if re.search(_IDENTIFIER_NAMES, lowered) or (p.uniqueness >= NEAR_UNIQUE and p.distinct > 1):
        why = (
            f"near-unique ({100 * p.uniqueness:.0f} % of its values occur once or so): it "
            "points at one person"
            if p.uniqueness >= NEAR_UNIQUE
            else "its name suggests a direct identifier"
        )
        return Suggestion(
            p.name, "identifier", {"role": "identifier"}, (facts, why, "dropped from the release")
        )
    if re.search(_SENSITIVE_NAMES, lowered):
        return Suggestion(
            p.name,
            "sensitive",
            {"role": "sensitive"},
            (
                facts,
                "its name suggests a sensitive attribute: published unchanged, protect it "
                "with l-diversity or t-closeness (see privacy below)",
            ),
        )
    return Suggestion(
        p.name,
        "insensitive",
        {"role": "insensitive"},
        (
            facts,
            "published unchanged: make it a quasi_identifier if others may know it, or an "
            "identifier to leave it out",
        ),
    )


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else json.dumps(name)


def _flow(value: Any) -> str:
    """A YAML flow value (JSON is YAML; plain words unquoted)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
        return value
    return json.dumps(value)


def _risk_lines(risk: SourceRisk | None) -> list[str]:
    if risk is None:
        return ["# No quasi-identifier suggested: declare some before running."]
    share = 100 * risk.unique_rows / (risk.rows or 1)
    return [
        f"# Re-identification risk of the source over the suggested quasi-identifiers "
        f"({', '.join(risk.qids)}):",
        f"#   {risk.unique_rows} of {risk.rows} rows ({share:.1f} %) are unique, "
        f"{risk.below_5} are in classes of fewer than 5 rows, {risk.below_10} of fewer than 10;",
        f"#   {risk.classes} classes, highest probability {100 * risk.highest:.0f} %, "
        f"average {100 * risk.average:.1f} %. anonsql run brings the highest to 1/k.",
    ]


def render_yaml(
    table: TableName,
    engine_name: str,
    database: str | None,
    suggestions: Sequence[Suggestion],
    risk: SourceRisk | None,
) -> str:
    lines = [
        f"# anonsql spec skeleton for {table}, written by `anonsql init`.",
        "# Check every role below (the comments say why each was suggested), then run:",
        "#   anonsql run --dry-run THIS_FILE   and   anonsql run THIS_FILE",
        *_risk_lines(risk),
        f"engine: {_flow(engine_name)}",
    ]
    if database is not None:
        lines.append(f"database: {_flow(database)}")
    schema = table.schema or "main"
    lines += [
        f"source: {_flow(f'{schema}.{table.name}')}",
        f"output: {{schema: anon, name: {_flow(table.name)}}}",
        "columns:",
    ]
    for s in suggestions:
        for reason in s.reasons:
            lines.append(f"  # {reason}")
        if s.role == LEFT_OUT:
            lines.append(f"  # {_key(s.column)}: left out (undeclared columns are dropped)")
        else:
            lines.append(f"  {_key(s.column)}: {_flow(s.declaration)}")
    sensitive = [s.column for s in suggestions if s.role == "sensitive"]
    lines += [
        "privacy:",
        "  # every class of equal quasi-identifiers holds at least k rows",
        "  - k_anonymity: {k: 5}",
    ]
    for column in sensitive:
        lines.append(f"  # - distinct_l_diversity: {{column: {_flow(column)}, l: 2}}")
    lines += [
        "algorithm: mondrian",
        "suppression_limit: 0.0   # share of rows that may be left out to keep more detail",
        "seed: 0",
    ]
    return "\n".join(lines) + "\n"


def init_spec(
    engine: Engine,
    table: TableName,
    *,
    engine_name: str | None = None,
    database: str | None = None,
) -> InitResult:
    """Profile ``table`` and write a commented spec skeleton for it."""
    profiles = profile_table(engine, table)
    suggestions = [suggest(p) for p in profiles]
    qids = [s.column for s in suggestions if s.role == "quasi_identifier"]
    published = [s.column for s in suggestions if s.role in ("sensitive", "insensitive")]
    if qids and published:
        boolean = [p.name for p in profiles if p.type_class is TypeClass.BOOLEAN]
        for linked in linked_columns(engine, table, published, qids, boolean=boolean):
            i = next(i for i, s in enumerate(suggestions) if s.column == linked.column)
            old = suggestions[i]
            determined = ", ".join(linked.determines)
            # left out, not declared: `role: identifier` says the column identifies persons,
            # and its repeated values would then mean several rows per person
            suggestions[i] = Suggestion(
                old.column,
                LEFT_OUT,
                {},
                (
                    old.reasons[0],
                    f"FLAGGED: each of its values occurs with one value of {determined}, so "
                    "publishing it unchanged would undo their generalization: left out (make "
                    "it a quasi_identifier, or publish it with acknowledge_linked: true)",
                ),
            )
    risk = source_risk(engine, table, qids)
    text = render_yaml(table, engine_name or engine.name, database, suggestions, risk)
    return InitResult(table, tuple(profiles), tuple(suggestions), risk, text)
