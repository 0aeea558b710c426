"""A spec's ``functional_dependencies`` resolved against the catalog and the data.

Gorla (MSc thesis, McMaster, 2019, Ch. 3.1.1) preserves FDs that hold on the relation being
published, so the resolve step checks each declared FD in the engine
(:func:`~anonsql.dependency.fds.require_fds`: violation counts, never values) and refuses one
that does not hold, naming the entry, the counts and the fix. Every column an FD names must be
published: a quasi-identifier, a sensitive or an insensitive column.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from anonsql.dependency.fds import FunctionalDependency, parse_fds, require_fds
from anonsql.engines import ColumnInfo, Engine
from anonsql.errors import SpecError
from anonsql.spec import Role, Spec
from anonsql.sql import Relation

KEY = "functional_dependencies"


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
