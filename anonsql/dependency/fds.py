"""Functional dependencies: parsing, validation against a relation, dependency instances.

H. Gorla, "Dependency-Preserving Generalization for Data Publishing", MSc thesis, McMaster
University, 2019, Ch. 3.1.1: an FD ``X -> Y`` holds over R iff tuples agreeing on X agree on Y;
the *dependency instances* Γ of a set of FDs are the distinct projections of R on ``X ∪ Y``
(Examples 1.2 and 3.2). FDs with the same attribute set ``X ∪ Y`` have the same instances, which
are counted once (the thesis leaves this open; a distance to an instance depends only on its
attributes).

Validation runs in the engine: one query returns, per FD, the number of X-groups carrying more
than one Y value, the rows of those groups, and the fewest rows whose removal makes it hold
(the g3 measure of Kivinen & Mannila). No value ever leaves the engine.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from anonsql.engines.base import Engine
from anonsql.errors import SpecError
from anonsql.sql import Relation, TableName

ARROW = "->"


@dataclass(frozen=True)
class FunctionalDependency:
    """``lhs -> rhs`` over column names (each side non-empty, no column on both sides)."""

    lhs: tuple[str, ...]
    rhs: tuple[str, ...]

    @property
    def attributes(self) -> tuple[str, ...]:
        """``X ∪ Y`` in declaration order: the columns of the FD's dependency instances."""
        return self.lhs + self.rhs

    def __str__(self) -> str:
        return f"{', '.join(self.lhs)} {ARROW} {', '.join(self.rhs)}"


def _side(text: str, key: str, which: str) -> tuple[str, ...]:
    names = tuple(part.strip() for part in text.split(","))
    if any(not n for n in names):
        raise SpecError(
            key,
            f"the {which} side has an empty column name",
            "separate column names with single commas, e.g. 'zip, city -> province'",
        )
    if len(set(names)) != len(names):
        raise SpecError(key, f"the {which} side names a column twice", "list each column once")
    return names


def parse_fd(text: str, key: str = "functional_dependencies[0]") -> FunctionalDependency:
    """Parse ``"a, b -> c"`` (whitespace free). ``key`` names the spec entry in errors."""
    if not isinstance(text, str):
        raise SpecError(
            key,
            f"expected a string like 'zip -> province', got a {type(text).__name__}",
            "write the dependency as 'lhs columns -> rhs columns'",
        )
    if text.count(ARROW) != 1:
        found = "no" if ARROW not in text else "more than one"
        raise SpecError(
            key,
            f"a functional dependency needs exactly one '{ARROW}', found {found}",
            "write it as 'a, b -> c'",
        )
    left, right = text.split(ARROW)
    if not left.strip() or not right.strip():
        raise SpecError(
            key,
            "a functional dependency needs columns on both sides of '->'",
            "write it as 'a, b -> c'",
        )
    lhs, rhs = _side(left, key, "left"), _side(right, key, "right")
    both = [c for c in rhs if c in lhs]
    if both:
        raise SpecError(
            key,
            f"column {both[0]!r} is on both sides, which makes the dependency trivial",
            "remove it from the right-hand side",
        )
    return FunctionalDependency(lhs, rhs)


def parse_fds(
    texts: Sequence[str],
    *,
    key: str = "functional_dependencies",
    columns: Iterable[str] | None = None,
) -> tuple[FunctionalDependency, ...]:
    """Parse a spec's list of FDs; with ``columns``, every named column must be one of them."""
    known = list(columns) if columns is not None else None
    fds: list[FunctionalDependency] = []
    for i, text in enumerate(texts):
        entry = f"{key}[{i}]"
        fd = parse_fd(text, entry)
        if known is not None:
            for name in fd.attributes:
                if name not in known:
                    close = difflib.get_close_matches(name, known, n=1)
                    hint = f"did you mean {close[0]!r}?" if close else "check the spelling"
                    raise SpecError(entry, f"column {name!r} is not in the source", hint)
        if fd in fds:
            raise SpecError(entry, f"dependency {str(fd)!r} is listed twice", "list it once")
        fds.append(fd)
    return tuple(fds)


def instance_groups(fds: Sequence[FunctionalDependency]) -> list[list[int]]:
    """FD indexes grouped by attribute set ``X ∪ Y`` (first occurrence order): FDs of one group
    share their dependency instances."""
    groups: dict[frozenset[str], list[int]] = {}
    for i, fd in enumerate(fds):
        groups.setdefault(frozenset(fd.attributes), []).append(i)
    return list(groups.values())


@dataclass(frozen=True)
class FdCheck:
    """How far one FD is from holding on a relation (counts only, never values)."""

    fd: FunctionalDependency
    #: X-groups (distinct left-hand values) that carry more than one right-hand value.
    violating_groups: int
    #: Rows in those groups.
    violating_rows: int
    #: Fewest rows to delete for the FD to hold (g3 x |R|).
    excess_rows: int

    @property
    def holds(self) -> bool:
        return self.violating_groups == 0


def _sides(fds: Sequence[FunctionalDependency]) -> list[dict[str, list[str]]]:
    return [{"lhs": list(fd.lhs), "rhs": list(fd.rhs)} for fd in fds]


def check_fds(
    engine: Engine, relation: Relation | TableName, fds: Sequence[FunctionalDependency]
) -> list[FdCheck]:
    """Validate ``fds`` on ``relation`` with one query; one :class:`FdCheck` per FD, in order."""
    if not fds:
        return []
    rows = engine.query("dependency/fd_violations", relation=relation, fds=_sides(fds))
    by_fd = {int(r[0]): (int(r[1]), int(r[2] or 0), int(r[3] or 0)) for r in rows}
    return [FdCheck(fd, *by_fd[i]) for i, fd in enumerate(fds)]


def require_fds(
    engine: Engine,
    relation: Relation | TableName,
    fds: Sequence[FunctionalDependency],
    *,
    key: str = "functional_dependencies",
) -> list[FdCheck]:
    """:func:`check_fds`, raising a :class:`SpecError` naming the first FD that does not hold."""
    checks = check_fds(engine, relation, fds)
    for i, check in enumerate(checks):
        if not check.holds:
            raise SpecError(
                f"{key}[{i}]",
                f"{str(check.fd)!r} does not hold on {relation}: {check.violating_groups} "
                f"left-hand values have several right-hand values ({check.violating_rows} rows; "
                f"removing {check.excess_rows} rows would make it hold)",
                "declare only dependencies that hold on the data, or clean the data",
            )
    return checks


def instance_counts(
    engine: Engine, relation: Relation | TableName, fds: Sequence[FunctionalDependency]
) -> list[int]:
    """|Γ_φ| per FD: distinct projections of ``relation`` on each FD's ``X ∪ Y``."""
    if not fds:
        return []
    rows = engine.query("dependency/instance_counts", relation=relation, fds=_sides(fds))
    by_fd = {int(r[0]): int(r[1]) for r in rows}
    return [by_fd[i] for i in range(len(fds))]


def create_instances(
    engine: Engine,
    relation: Relation | TableName,
    fds: Sequence[FunctionalDependency],
    target: TableName,
) -> int:
    """Create ``target`` holding Γ: column ``fd`` (the first FD of its attribute-set group) and
    one column per attribute of any FD, NULL where the attribute is not in that FD. Returns |Γ|.
    """
    groups = instance_groups(fds)
    columns: list[str] = []
    for fd in fds:
        columns.extend(c for c in fd.attributes if c not in columns)
    parts = [{"fd": g[0], "attributes": list(fds[g[0]].attributes)} for g in groups]
    engine.run(
        "dependency/create_instances",
        relation=relation,
        target=target,
        groups=parts,
        columns=columns,
    )
    return engine.count_rows(target)
