"""SQL snapshots: the statements a run executed on an engine, kept per test and engine under
tests/snapshots/<dialect>/ (and tests/risk/snapshots/) so that changes to generated SQL are
visible in review. ``UPDATE_SNAPSHOTS=1`` rewrites them (a missing file is written too).

DuckDB runs the templates as written, so its files hold the statements byte for byte. Other
dialects run the templates transpiled by sqlglot, one line per statement (up to 5,600
characters): their files hold each executed statement pretty-printed by sqlglot, one after
another, so that a diff shows the clause that changed. A statement is pretty-printed only when
the printed form reads back (sqlglot, same dialect) as exactly the executed statement and differs
from it only in whitespace outside quotes; otherwise it is kept as executed. The comparison
ignores that whitespace on both sides, so no statement is parsed unless the file is written or
differs (parsing a run's statements costs seconds)."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from anonsql.sql.quoting import TEMPLATE_DIALECT

#: A quoted string or identifier (kept), or whitespace outside them (dropped).
_LAYOUT = re.compile(r"""('(?:[^']|'')*'|"(?:[^"]|"")*")|\s+""")


def without_layout(text: str) -> str:
    """``text`` without its whitespace outside quoted strings and identifiers."""
    return _LAYOUT.sub(lambda m: m.group(1) or "", text)


def pretty(statement: str, dialect: str) -> str:
    """The statement as sqlglot pretty-prints it, when that is only a change of layout."""
    import sqlglot

    try:
        printed = sqlglot.parse_one(statement, read=dialect).sql(dialect=dialect, pretty=True)
        again = sqlglot.parse_one(printed, read=dialect).sql(dialect=dialect)
    except sqlglot.errors.SqlglotError:
        return statement
    if again != statement or without_layout(printed) != without_layout(statement):
        return statement
    return printed


def snapshot_text(statements: Sequence[str], dialect: str) -> str:
    """The file's text: statements as executed (the template dialect) or pretty-printed."""
    if dialect == TEMPLATE_DIALECT:
        return "\n".join(s + ";" for s in statements) + "\n"
    return "\n\n".join(pretty(s, dialect) + ";" for s in statements) + "\n"


def compare(path: Path, statements: Sequence[str], dialect: str) -> None:
    """Assert the statements are the snapshot at ``path`` (writing it first when asked)."""
    if os.environ.get("UPDATE_SNAPSHOTS") or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(snapshot_text(statements, dialect), encoding="utf-8")
    kept = path.read_text(encoding="utf-8")
    if dialect == TEMPLATE_DIALECT:
        same = "\n".join(s + ";" for s in statements) + "\n" == kept
    else:
        same = without_layout("".join(s + ";" for s in statements)) == without_layout(kept)
    if not same:  # the text as the file would hold it, for a readable diff
        assert snapshot_text(statements, dialect) == kept, (
            f"generated SQL changed; review and run UPDATE_SNAPSHOTS=1 to accept ({path})"
        )
