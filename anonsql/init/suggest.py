"""``anonsql init``: a column's first suggested role, and the declaration each role takes.

Roles come from the profile (:mod:`anonsql.init.profile`), the column's values
(:mod:`anonsql.init.identifiers`) and its name: direct identifiers (recognized by their values
or their name, or near-unique) are dropped; a repeated id-like column is the person column;
likely quasi-identifiers (ages, dates, zip-like codes, sex, race, ...) are generalized with a
builder chosen from the data's type and distribution (:func:`qid_declaration`); likely
sensitive columns get a model (:func:`sensitive_model`); every other column is a candidate to
publish unchanged, which :mod:`anonsql.init.propose` keeps only where the publish gate's
measures find no exposure.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from anonsql.engines import Engine, TypeClass
from anonsql.init.identifiers import ValueMatch
from anonsql.init.profile import ColumnProfile, frequencies
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
    r"passport|iban|account|mrn|ip|address|nino)($|_)"
)
#: Names of columns that link the rows of one person, best first.
_PERSON_NAMES = (
    r"(^|_)(patient|person|customer|client|user|member|subject|employee|student|account|"
    r"individual|citizen|mrn)",
    r"(^|_)(id|uuid|guid|key|no|number)$",
)
_SENSITIVE_NAMES = (
    r"diagnos|disease|icd|condition|salary|income|wage|medication|drug|religion|treatment|"
    r"illness|hiv|pregnan"
)
#: Distinct values per non-NULL row from which a column is taken for an identifier.
NEAR_UNIQUE = 0.95
#: A person column has at least this many distinct values per row (fewer: a code, a ward).
PERSON_UNIQUENESS = 0.05
#: The k init proposes.
K = 5
#: Text quasi-identifiers with more distinct values, or this share of them per row, are left
#: out: free text, no grouping follows from the data.
MAX_TEXT_DISTINCT = 1000
MAX_TEXT_UNIQUENESS = 0.5
#: Numbers with more distinct values are left out when exposed (weights, amounts, measures).
MAX_NUMERIC_DISTINCT = 1000
#: The most values a ``frequent`` grouping keeps (the rest is ``other``).
KEEP_LIMIT = 30
#: The largest l proposed (more is rarely satisfiable without suppressing much).
MAX_L = 3

QUASI_IDENTIFIER = "quasi_identifier"
SENSITIVE = "sensitive"
INSENSITIVE = "insensitive"
IDENTIFIER = "identifier"
#: The role of a suggestion that leaves the column out of the spec (written as a comment).
LEFT_OUT = "left_out"
#: The role of the person column (the spec's ``person_id``).
PERSON = "person_id"


@dataclass(frozen=True)
class Suggestion:
    """One column's suggested declaration and why."""

    column: str
    role: str
    declaration: dict[str, Any]
    reasons: tuple[str, ...]

    def but(self, role: str, declaration: dict[str, Any], *reasons: str) -> Suggestion:
        """The same column with another role, its first reason (the profile) kept."""
        return Suggestion(self.column, role, declaration, (self.reasons[0], *reasons))


@dataclass(frozen=True)
class Table:
    """What the suggestions read of the table: its rows, its columns' profiles, the person
    column (when one was found), its persons and the persons over whose rows each column
    varies."""

    engine: Engine
    name: TableName
    rows: int
    profiles: dict[str, ColumnProfile]
    person: str | None = None
    persons: int = 0
    varying: dict[str, int] | None = None

    @property
    def unit(self) -> str:
        return "persons" if self.person else "rows"

    @property
    def individuals(self) -> int:
        return self.persons if self.person else self.rows


def facts(p: ColumnProfile) -> str:
    return (
        f"{p.data_type}, {p.distinct:,} distinct, {100 * p.null_share:.1f} % NULL, "
        f"uniqueness {p.uniqueness:.2f}"
    )


def qid_reason(name: str) -> str | None:
    lowered = name.lower()
    for what, pattern in _QID_NAMES.items():
        if re.search(pattern, lowered):
            return f"its name suggests {what}, which others may know"
    return None


def person_column(profiles: list[ColumnProfile]) -> ColumnProfile | None:
    """A column that looks like an id (by its name) and whose values repeat: the rows of one
    person; person-like names before generic ids, then the most distinct values."""
    for pattern in _PERSON_NAMES:
        found = [
            p
            for p in profiles
            if re.search(pattern, p.name.lower())
            and p.type_class in (TypeClass.INTEGER, TypeClass.TEXT)
            and p.nulls == 0
            and PERSON_UNIQUENESS <= p.uniqueness < 1.0
        ]
        if found:
            return max(found, key=lambda p: p.distinct)
    return None


def qid_declaration(table: Table, p: ColumnProfile) -> tuple[dict[str, Any], str] | str:
    """The declaration of ``p`` as a quasi-identifier and how it generalizes, or why it cannot
    be one (then it is left out): a builder chosen from the column's type and distribution."""
    if table.person and table.varying and table.varying.get(p.name):
        return (
            f"its value varies over the rows of {table.varying[p.name]:,} of the "
            f"{table.persons:,} persons, and a person's quasi-identifiers must be the same on "
            "all their rows"
        )
    if p.nulls:
        return (
            f"{p.nulls:,} rows hold NULL in it and a quasi-identifier may not (fill them, e.g. "
            "in a view with COALESCE, to generalize it)"
        )
    named_code = re.search(_QID_NAMES["a zip or postal code"], p.name.lower()) is not None
    if p.zip_like or (named_code and p.type_class is TypeClass.INTEGER):
        builder: dict[str, Any] = {"builder": "mask", "char": "*"}
        if p.type_class is TypeClass.INTEGER:
            builder["pad"] = "0"
        return {"hierarchy": builder}, "zip-like codes: masked from the end (0213*, 021**, ...)"
    if p.type_class is TypeClass.TEMPORAL:
        return (
            {"hierarchy": {"builder": "date", "levels": ["month", "year", "decade"]}},
            "a date: generalized to month, year, decade",
        )
    if p.type_class in (TypeClass.INTEGER, TypeClass.REAL):
        if p.distinct > MAX_NUMERIC_DISTINCT:
            return (
                f"a number with {p.distinct:,} distinct values (a weight, an amount, a "
                "measure): too fine to be generalized usefully"
            )
        return {"type": "numeric"}, "a number: published as an interval [lo, hi]"
    if p.type_class is TypeClass.BOOLEAN or p.distinct <= 2:
        return (
            {"hierarchy": {"builder": "redact"}},
            f"{p.distinct} values: a class keeps its value or shows * (redaction)",
        )
    if p.type_class is not TypeClass.TEXT or (
        p.distinct > MAX_TEXT_DISTINCT or p.uniqueness >= MAX_TEXT_UNIQUENESS
    ):
        return f"{p.distinct:,} distinct values ({p.data_type}): no grouping follows from the data"
    least = max(2 * K, math.ceil(table.rows / 100))
    found = frequencies(table.engine, table.name, p.name, least=least, limit=KEEP_LIMIT)
    kept = [v for v, _ in found.frequent]
    rare = p.distinct - len(kept)
    if len(kept) < 2 or rare == 0:
        return (
            {"hierarchy": {"builder": "redact"}},
            f"{p.distinct} values with no rare ones to group: a class keeps its value or "
            "shows * (redaction)",
        )
    other = "other"
    while other in kept:
        other = f"({other})"
    return (
        {"hierarchy": {"builder": "frequent", "keep": kept, "other": other}},
        f"{len(kept)} values held by at least {least:,} rows each are kept, the {rare:,} "
        f"rarer ones are grouped as {other!r}, then *",
    )


def sensitive_model(table: Table, column: str) -> tuple[dict[str, Any], str]:
    """A model for a sensitive column that the data can satisfy: entropy l-diversity with the
    largest l up to :data:`MAX_L` that the whole table reaches (one class of every row is the
    coarsest release, so a larger l could not hold), else t-closeness."""
    found = frequencies(table.engine, table.name, column, least=table.rows + 1, limit=1)
    reach = math.exp(found.entropy)
    if reach >= 2:
        ell = min(MAX_L, math.floor(reach))
        return (
            {"entropy_l_diversity": {"column": column, "l": ell}},
            f"{column}: entropy l-diversity, l = {ell}: its {found.distinct:,} values have an "
            f"entropy of ln {reach:.2f} over the table, so l = {ell} is satisfiable; every class "
            f"then holds at least {ell} well-represented values",
        )
    return (
        {"t_closeness": {"column": column, "t": 0.2}},
        f"{column}: t-closeness, t = 0.2: its {found.distinct:,} values are too skewed for "
        f"l-diversity (entropy ln {reach:.2f} over the table, below ln 2), so each class's "
        "distribution is kept within 0.2 of the table's",
    )


def fingerprint_model(column: str) -> tuple[dict[str, Any], str]:
    """The model of a sensitive column with several rows per person (Gong et al. 2017): a
    person's fingerprint (the set of their values) may not dominate a class."""
    return (
        {"fingerprint_l_diversity": {"column": column, "l": 2}},
        f"{column}: fingerprint l-diversity, l = 2: with several rows per person, no "
        f"fingerprint (a person's set of {column} values) accounts for more than half the "
        "persons of a class; fingerprints are generalized to * where needed",
    )


def first_suggestion(table: Table, p: ColumnProfile, matched: ValueMatch | None) -> Suggestion:
    """The role of one column from its profile, values and name (before any exposure is
    measured)."""
    about = facts(p)
    lowered = p.name.lower()
    if p.name == table.person:
        return Suggestion(
            p.name,
            PERSON,
            {},
            (
                about,
                f"its values repeat and it looks like an id: {table.persons:,} persons for "
                f"{table.rows:,} rows, so k counts persons (person_id); published as a "
                "per-run pseudonym",
            ),
        )
    if matched is not None:
        return _identifier(p, about, matched.describe())
    named_qid = qid_reason(p.name)
    if named_qid or (p.zip_like and p.uniqueness < NEAR_UNIQUE):
        why = named_qid or "its values look like zip or postal codes"
        declared = qid_declaration(table, p)
        if isinstance(declared, str):
            return Suggestion(p.name, LEFT_OUT, {}, (about, why, f"left out: {declared}"))
        declaration, how = declared
        return Suggestion(
            p.name,
            QUASI_IDENTIFIER,
            {"role": QUASI_IDENTIFIER, **declaration},
            (
                about,
                why,
                how,
            ),
        )
    if re.search(_IDENTIFIER_NAMES, lowered):
        return _identifier(p, about, "its name suggests a direct identifier")
    if p.uniqueness >= NEAR_UNIQUE and p.distinct > 1:
        return _identifier(
            p,
            about,
            f"near-unique ({100 * p.uniqueness:.0f} % of its values occur once or so): it "
            "points at one person",
        )
    if re.search(_SENSITIVE_NAMES, lowered):
        # with a person column, fingerprints are generalized along a hierarchy
        fingerprint: dict[str, Any] = {"hierarchy": {"builder": "redact"}} if table.person else {}
        return Suggestion(
            p.name,
            SENSITIVE,
            {"role": SENSITIVE, **fingerprint},
            (
                about,
                "its name suggests a sensitive attribute: published unchanged, protected "
                "by the model named below",
            ),
        )
    return Suggestion(
        p.name,
        INSENSITIVE,
        {"role": INSENSITIVE},
        (about, "published unchanged: no measure found it exposing anyone"),
    )


def _identifier(p: ColumnProfile, about: str, why: str) -> Suggestion:
    # a column whose values repeat is left out rather than declared an identifier: `role:
    # identifier` says it identifies persons, and repeated values would then mean several
    # rows per person
    if p.nulls == 0 and p.distinct == p.rows:
        return Suggestion(
            p.name, IDENTIFIER, {"role": IDENTIFIER}, (about, why, "dropped from the release")
        )
    return Suggestion(p.name, LEFT_OUT, {}, (about, why, "left out of the release"))
