"""1:M data: the person-level working tables the 1:M algorithm starts from.

A person's quasi-identifiers are assumed constant over their rows (Gong et al. 2017, A1). When
they vary, the run refuses by default, naming how many persons are affected and never a value;
``varying_qids: most_frequent`` lets each person's most frequent vector stand for all their
rows (the published rows of a person then all carry its generalization).
"""

from __future__ import annotations

from collections.abc import Mapping

from anonsql.algorithms.workspace import Workspace
from anonsql.errors import SpecError
from anonsql.sql import TableName


def build_person_tables(
    job: Workspace,
    leaves: Mapping[int, TableName],
    sa_leaves: TableName | None,
    varying_qids: str,
    seed: int,
) -> int:
    """Create ``persons`` and (with a fingerprint column) ``items``; return how many persons
    had varying quasi-identifiers."""
    e, link = job.engine, job.person
    assert link is not None
    vectors = job.work("person_vectors")
    e.run(
        "persons/vectors",
        target=vectors,
        source=job.source,
        person=link.column,
        dims=job.dimensions,
        leaves=leaves,
    )
    varying = int(e.query("persons/varying", vectors=vectors)[0][0])
    if varying and varying_qids == "refuse":
        raise SpecError(
            "person_id",
            f"{varying} persons have rows with different quasi-identifier values (a person's "
            "quasi-identifiers must be the same on all their rows)",
            "correct the data, or set `varying_qids: most_frequent` to let each person's most "
            "frequent values stand for all their rows",
        )
    e.run(
        "persons/create_persons",
        target=job.work("persons"),
        vectors=vectors,
        dims=job.dimensions,
        salt=f"anonsql:{seed}:",
    )
    if sa_leaves is not None:
        e.run(
            "persons/create_items",
            target=job.work("items"),
            source=job.source,
            persons=job.work("persons"),
            leaves=sa_leaves,
            person=link.column,
            column=link.sensitive,
            root=0,
        )
    e.drop(vectors)
    return varying
