"""The names anonsql's own SQL gives its columns and CTEs: every ``AS name`` and ``name AS (``
in the shared templates and the engines' overrides. A user column named like one of them must
neither break a run nor be read in its place (tests/pipeline/test_internal_names.py)."""

from __future__ import annotations

import re
from functools import cache

from paths import ROOT

_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_ALIAS = re.compile(r"\bAS\s+([A-Za-z_][A-Za-z0-9_]*)", re.I)
_CTE = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s+AS\s*(?:MATERIALIZED\s*)?\(", re.I)
#: words after AS that are types or keywords, not names
_NOT_NAMES = {
    "bigint", "boolean", "date", "decimal", "double", "float", "integer", "materialized",
    "not", "numeric", "real", "select", "table", "text", "timestamp", "varchar", "with",
}  # fmt: skip


@cache
def template_names() -> tuple[str, ...]:
    folders = [ROOT / "sql_templates", *(ROOT / "anonsql" / "engines").glob("*/templates")]
    found: set[str] = set()
    for folder in folders:
        for path in folder.rglob("*.sql"):
            text = _JINJA.sub(" ", path.read_text(encoding="utf-8"))
            found |= {m.lower() for m in _ALIAS.findall(text)}
            found |= {m.lower() for m in _CTE.findall(text)}
    return tuple(sorted(found - _NOT_NAMES))
