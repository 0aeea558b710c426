"""Direct identifiers recognized by their values, for ``anonsql init``.

A bounded sample of the table (:data:`SAMPLE_ROWS` rows) is read in SQL
(``sql_templates/init/values.sql``); per text column, only the number of non-NULL values and
the number matching each pattern leave the engine, never a value. A column is taken for a
direct identifier when at least :data:`SHARE` of its sampled values match one pattern (names:
:data:`NAME_SHARE`). The patterns, most specific first:

* ``email``: an address ``local@domain.tld`` (RFC 5322's common subset);
* ``phone``: an E.164 number (``+`` and 7 to 15 digits), or 2 to 5 groups of digits separated
  by spaces, dots or hyphens, optionally with a ``+country`` prefix and an area code in
  parentheses (ISO dates excluded);
* ``us_ssn``: a US Social Security number ``AAA-GG-SSSS`` with the area, group and serial the
  SSA never assigns excluded (area 000, 666 or 900-999, group 00, serial 0000);
* ``uk_nino``: a UK National Insurance number (two prefix letters as HMRC allocates them,
  without the prefixes BG, GB, NK, KN, TN, NT, ZZ; six digits; a suffix A-D; spaces allowed);
* ``iban``: an International Bank Account Number (ISO 13616: country, two check digits and
  11 to 30 letters or digits, spaces allowed) whose mod-97 checksum is 1, computed in SQL;
* ``person_name``: a value whose first word (or the whole value) is a common given name or
  surname (:mod:`anonsql.init.names`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from anonsql.engines import Engine
from anonsql.init.names import NAMES
from anonsql.sql import TableName

#: Rows of the table the value patterns read (the first ones the engine returns).
SAMPLE_ROWS = 10_000
#: Share of a column's sampled non-NULL values that must match a pattern.
SHARE = 0.8
#: The same for names (a list of common names misses rare ones).
NAME_SHARE = 0.5


@dataclass(frozen=True)
class Pattern:
    """A kind of direct identifier and how its values are recognized."""

    name: str
    what: str
    kind: str  # regex, iban or words
    regex: str = ""
    words: tuple[str, ...] = ()
    share: float = SHARE


PATTERNS = (
    Pattern("iban", "IBANs (checksum verified)", "iban", r"^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$"),
    Pattern("us_ssn", "US Social Security numbers", "regex", r"^[0-8][0-9]{2}-[0-9]{2}-[0-9]{4}$"),
    Pattern(
        "uk_nino",
        "UK National Insurance numbers",
        "regex",
        r"^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?[0-9]{2} ?[0-9]{2} ?[0-9]{2} ?[A-D]$",
    ),
    Pattern(
        "email", "e-mail addresses", "regex", r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$"
    ),
    Pattern(
        "phone",
        "phone numbers",
        "regex",
        r"^(\+[0-9]{7,15}|(\+[0-9]{1,3}[ .-]?)?(\([0-9]{1,4}\)[ .-]?)?"
        r"[0-9]{2,5}([ .-][0-9]{2,5}){1,4})$",
    ),
    Pattern("person_name", "person names", "words", words=NAMES, share=NAME_SHARE),
)


@dataclass(frozen=True)
class ValueMatch:
    """A column whose sampled values are mostly of one kind of direct identifier."""

    column: str
    pattern: Pattern
    matched: int
    sampled: int

    def describe(self) -> str:
        return (
            f"its values are {self.pattern.what}: {self.matched:,} of {self.sampled:,} sampled "
            "values match"
        )


def detect_identifiers(
    engine: Engine, table: TableName, columns: Sequence[str], *, sample: int = SAMPLE_ROWS
) -> dict[str, ValueMatch]:
    """The columns among ``columns`` (text ones) whose sampled values are direct identifiers,
    with the first pattern of :data:`PATTERNS` they match (the most specific first: an SSN also
    looks like a phone number; one query, counts only)."""
    if not columns:
        return {}
    row = engine.query(
        "init/values",
        relation=table,
        columns=list(columns),
        patterns=[_params(p) for p in PATTERNS],
        sample=sample,
    )[0]
    found: dict[str, ValueMatch] = {}
    width = 1 + len(PATTERNS)
    for i, column in enumerate(columns):
        present = int(row[1 + i * width] or 0)
        if not present:
            continue
        for j, pattern in enumerate(PATTERNS):
            matched = int(row[2 + i * width + j] or 0)
            if matched >= pattern.share * present:
                found[column] = ValueMatch(column, pattern, matched, present)
                break
    return found


def _params(p: Pattern) -> Mapping[str, Any]:
    return {"name": p.name, "kind": p.kind, "regex": p.regex, "words": list(p.words)}
