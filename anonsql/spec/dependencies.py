"""Functional dependencies, the spec's ``functional_dependencies`` vocabulary: parsing and
dependency instances (checked against the data by :mod:`anonsql.resolve.dependencies`).

H. Gorla, "Dependency-Preserving Generalization for Data Publishing", MSc thesis, McMaster
University, 2019, Ch. 3.1.1: an FD ``X -> Y`` holds over R iff tuples agreeing on X agree on Y;
the *dependency instances* Γ of a set of FDs are the distinct projections of R on ``X ∪ Y``
(Examples 1.2 and 3.2). FDs with the same attribute set ``X ∪ Y`` have the same instances, which
are counted once (the thesis leaves this open; a distance to an instance depends only on its
attributes).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from anonsql.errors import SpecError

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
