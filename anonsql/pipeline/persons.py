"""1:M data (``person_id`` in the spec): checks of the declaration, and the person-level working
tables the 1:M algorithm starts from.

A person's quasi-identifiers are assumed constant over their rows (Gong et al. 2017, A1). When
they vary, the run refuses by default, naming how many persons are affected and never a value;
``varying_qids: most_frequent`` lets each person's most frequent vector stand for all their
rows (the published rows of a person then all carry its generalization).
"""

from __future__ import annotations

from anonsql.engines import ColumnInfo, Engine
from anonsql.errors import SpecError
from anonsql.pipeline.job import Job
from anonsql.privacy.base import PrivacyModel
from anonsql.privacy.one_to_many import FingerprintModel
from anonsql.spec import Role, Spec
from anonsql.sql import Relation, TableName

PERSON_MODEL_NAMES = (
    "person_k_anonymity, fingerprint_k_anonymity, fingerprint_l_diversity, kl_diversity, "
    "person_consistency"
)


def fingerprint_column(spec: Spec, models: list[PrivacyModel]) -> str | None:
    """Check a 1:M declaration; return the sensitive column whose fingerprints are protected."""
    person = spec.person_id
    if person is None:
        for position, model in enumerate(models):
            if model.person_level:
                raise SpecError(
                    f"privacy[{position}].{model.name}",
                    "this model counts persons, but the spec names no person column",
                    "add `person_id: <column linking a person's rows>`",
                )
        return None
    declared = spec.columns.get(person)
    if declared is not None and declared.role is not Role.IDENTIFIER:
        raise SpecError(
            f"columns.{person}",
            f"the person_id column is declared {declared.role.value}",
            "declare it `role: identifier` or leave it out of columns (it is never published)",
        )
    columns: set[str] = set()
    for position, model in enumerate(models):
        key = f"privacy[{position}].{model.name}"
        if not model.person_level:
            raise SpecError(
                key,
                "with person_id, privacy is counted in persons and this model counts rows",
                f"use the person-level models: {PERSON_MODEL_NAMES}",
            )
        if isinstance(model, FingerprintModel):
            columns.add(model.column)
    if len(columns) > 1:
        raise SpecError(
            "privacy",
            f"the fingerprint models name {len(columns)} different sensitive columns",
            "protect the fingerprints of one sensitive column",
        )
    if not columns:
        return None
    column = columns.pop()
    sa = spec.columns[column]
    if sa.hierarchy is None:
        raise SpecError(
            f"columns.{column}.hierarchy",
            "fingerprints are generalized along a hierarchy of the sensitive column",
            "give the column a hierarchy (a file, {table: ...} or {builder: ...})",
        )
    return column


def check_person_column(spec: Spec, columns: list[ColumnInfo]) -> None:
    if spec.person_id not in {c.name for c in columns}:
        raise SpecError(
            "person_id",
            f"{spec.person_id!r} is not a column of the source",
            f"the columns are: {', '.join(c.name for c in columns)}",
        )


def profile_persons(
    engine: Engine, source: Relation, person: str, column: str | None
) -> tuple[int, int]:
    """(persons, distinct sensitive items) of the source; refuses rows without a person id
    or (with a fingerprint column) without an item."""
    persons, null_persons, null_items, items = engine.query(
        "persons/profile", source=source, person=person, column=column or person
    )[0]
    if null_persons:
        raise SpecError(
            "person_id",
            f"{null_persons} rows have NULL in the person column",
            "fill them or exclude those rows (e.g. a view with WHERE ... IS NOT NULL)",
        )
    if column and null_items:
        raise SpecError(
            f"columns.{column}",
            f"{null_items} rows have NULL in the sensitive column whose fingerprints are protected",
            "exclude those rows (a missing item is not part of a fingerprint)",
        )
    return int(persons), int(items)


def build_person_tables(
    job: Job, leaves: dict[int, TableName], sa_leaves: TableName | None, sa_root: int
) -> int:
    """Create ``persons`` and (with a fingerprint column) ``items``; return how many persons
    had varying quasi-identifiers."""
    e, spec, link = job.engine, job.spec, job.person
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
    if varying and spec.varying_qids == "refuse":
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
        salt=f"anonsql:{spec.seed}:",
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
            root=sa_root,
        )
    e.drop(vectors)
    return varying

