"""A spec's ``functional_dependencies`` resolved against the catalog and the data.

Gorla (MSc thesis, McMaster, 2019, Ch. 3.1.1) preserves FDs that hold on the relation being
published, so the resolve step checks each declared FD in the engine
(:func:`require_fds`: violation counts, never values) and refuses one
that does not hold, naming the entry, the counts and the fix. Every column an FD names must be
published: a quasi-identifier, a sensitive or an insensitive column.

Validation runs in the engine: one query returns, per FD, the number of X-groups carrying more
than one Y value, the rows of those groups, and the fewest rows whose removal makes it hold
(the g3 measure of Kivinen & Mannila). No value ever leaves the engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from anonsql.engines import ColumnInfo, Engine
from anonsql.errors import SpecError
from anonsql.spec import Role, Spec
from anonsql.spec.dependencies import FunctionalDependency, parse_fds
from anonsql.sql import Relation, TableName

KEY = "functional_dependencies"


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


def fd_sides(fds: Sequence[FunctionalDependency]) -> list[dict[str, list[str]]]:
    return [{"lhs": list(fd.lhs), "rhs": list(fd.rhs)} for fd in fds]


def check_fds(
    engine: Engine, relation: Relation | TableName, fds: Sequence[FunctionalDependency]
) -> list[FdCheck]:
    """Validate ``fds`` on ``relation`` with one query; one :class:`FdCheck` per FD, in order."""
    if not fds:
        return []
    rows = engine.query("dependency/fd_violations", relation=relation, fds=fd_sides(fds))
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


def resolve_dependencies(
    spec: Spec, engine: Engine, relation: Relation, catalog: Sequence[ColumnInfo]
) -> tuple[FunctionalDependency, ...]:
    """The spec's FDs, parsed, named columns checked against ``catalog`` and the roles, and
    validated on ``relation`` (one query); () when none are declared."""
    if not spec.functional_dependencies:
        return ()
    if spec.person_id is not None:
        raise SpecError(
            KEY,
            "functional dependencies are preserved for one row per individual, not 1:M data",
            "remove functional_dependencies or person_id",
        )
    fds = parse_fds(spec.functional_dependencies, key=KEY, columns=[c.name for c in catalog])
    check_published(fds, {name: col.role for name, col in spec.columns.items()})
    require_fds(engine, relation, fds, key=KEY)
    return fds


def check_published(fds: Sequence[FunctionalDependency], roles: Mapping[str, Role]) -> None:
    """Every FD column is published (a dropped column would lose every instance)."""
    for i, fd in enumerate(fds):
        for column in fd.attributes:
            role = roles.get(column)
            if role is None or role is Role.IDENTIFIER:
                why = "an identifier" if role is Role.IDENTIFIER else "not declared"
                raise SpecError(
                    f"{KEY}[{i}]",
                    f"column {column!r} is {why}, so the release leaves it out",
                    f"declare {column!r} under columns as quasi_identifier, sensitive or "
                    "insensitive, or remove the dependency",
                )
