"""Dependency instances counted and built in the engine (Gorla 2019, Examples 1.2 and 3.2), the
thesis's figures the tests hold anonsql's encoding and loss to."""

from __future__ import annotations

from collections.abc import Sequence

from anonsql.engines import Engine
from anonsql.resolve.dependencies import fd_sides
from anonsql.spec.dependencies import FunctionalDependency, instance_groups
from anonsql.sql import Relation, TableName


def instance_counts(
    engine: Engine, relation: Relation | TableName, fds: Sequence[FunctionalDependency]
) -> list[int]:
    """|Γ_φ| per FD: distinct projections of ``relation`` on each FD's ``X ∪ Y``."""
    if not fds:
        return []
    rows = engine.query("dependency/instance_counts", relation=relation, fds=fd_sides(fds))
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
