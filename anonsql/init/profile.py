"""Profiling a table for ``anonsql init``: every column in one SQL scan (counts only), and the
table's re-identification risk over candidate quasi-identifiers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from anonsql.engines import Engine, TypeClass
from anonsql.resolve import table_columns
from anonsql.sql import TableName

#: A value of only digits (zip-like codes, whatever the column's type).
DIGITS = "^[0-9]+$"


@dataclass(frozen=True)
class ColumnProfile:
    """One column: its type, distinct values, NULLs, text lengths, digit-only values."""

    name: str
    data_type: str
    type_class: TypeClass
    rows: int
    distinct: int
    nulls: int
    shortest: int | None
    longest: int | None
    digit_rows: int

    @property
    def null_share(self) -> float:
        return self.nulls / self.rows if self.rows else 0.0

    @property
    def uniqueness(self) -> float:
        """Distinct values per non-NULL row (1.0: every value occurs once)."""
        present = self.rows - self.nulls
        return self.distinct / present if present else 0.0

    @property
    def zip_like(self) -> bool:
        """Text of digits only, of (nearly) one length of 3 to 10, with many distinct values
        (numbers stored as numbers are taken for codes only when their name says so)."""
        present = self.rows - self.nulls
        return (
            present > 0
            and self.digit_rows == present
            and self.type_class is TypeClass.TEXT
            and self.longest is not None
            and self.shortest is not None
            and 3 <= self.longest <= 10
            and self.longest - self.shortest <= 2
            and self.distinct >= 10
        )


@dataclass(frozen=True)
class SourceRisk:
    """Classes of equal quasi-identifier vectors in the source and the rows at risk."""

    qids: tuple[str, ...]
    rows: int
    classes: int
    smallest: int
    unique_rows: int
    below_5: int
    below_10: int

    @property
    def highest(self) -> float:
        """Highest re-identification probability: 1 / the smallest class."""
        return 1.0 / self.smallest if self.smallest else 0.0

    @property
    def average(self) -> float:
        """Average re-identification probability: classes / rows."""
        return self.classes / self.rows if self.rows else 0.0


def profile_table(engine: Engine, table: TableName) -> list[ColumnProfile]:
    """Profile every column of ``table`` in one query."""
    columns = table_columns(engine, table, "table")
    names = [c.name for c in columns]
    row = engine.query_arrow(
        "init/profile", relation=table, columns=names, digits=DIGITS
    ).to_pylist()[0]
    found = []
    for i, column in enumerate(columns):
        shortest, longest = row[f"shortest{i}"], row[f"longest{i}"]
        found.append(
            ColumnProfile(
                name=column.name,
                data_type=column.data_type,
                type_class=column.type_class,
                rows=int(row["rows"]),
                distinct=int(row[f"distinct{i}"]),
                nulls=int(row[f"nulls{i}"]),
                shortest=None if shortest is None else int(shortest),
                longest=None if longest is None else int(longest),
                digit_rows=int(row[f"digits{i}"] or 0),
            )
        )
    return found


def source_risk(engine: Engine, table: TableName, qids: Sequence[str]) -> SourceRisk | None:
    """The source's risk over ``qids`` (None without any)."""
    if not qids:
        return None
    row = engine.query_arrow("init/risk", relation=table, qids=list(qids)).to_pylist()[0]
    return SourceRisk(
        qids=tuple(qids),
        rows=int(row["rows"] or 0),
        classes=int(row["classes"] or 0),
        smallest=int(row["smallest"] or 0),
        unique_rows=int(row["unique_rows"] or 0),
        below_5=int(row["below_5"] or 0),
        below_10=int(row["below_10"] or 0),
    )


@dataclass(frozen=True)
class Frequencies:
    """A column's values held by at least ``least`` rows (most frequent first; the rarer ones
    never leave the engine), its distinct values and its entropy over the table (nats)."""

    least: int
    frequent: tuple[tuple[str, int], ...]
    distinct: int
    entropy: float


def frequencies(
    engine: Engine, table: TableName, column: str, *, least: int, limit: int = 64
) -> Frequencies:
    """The frequent values of ``column`` (at most ``limit``) and its entropy (one query)."""
    rows = engine.query("init/frequencies", relation=table, column=column, least=least, limit=limit)
    if not rows:
        return Frequencies(least, (), 0, 0.0)
    frequent = tuple((str(v), int(n)) for v, n, _, _ in rows if v is not None)
    return Frequencies(least, frequent, int(rows[0][3]), float(rows[0][2] or 0.0))


def varying(
    engine: Engine, table: TableName, person: str, columns: Sequence[str]
) -> tuple[int, dict[str, int]]:
    """(persons, per column the persons holding several values of it over their rows)."""
    row = engine.query("init/varying", relation=table, person=person, columns=list(columns))[0]
    return int(row[0] or 0), {c: int(row[1 + i] or 0) for i, c in enumerate(columns)}
