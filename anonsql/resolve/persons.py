"""1:M data (``person_id`` in the spec): checks of the declaration against the models and the
catalog, and the persons' profile.

A person's quasi-identifiers are assumed constant over their rows (Gong et al. 2017, A1). When
they vary, the run refuses by default, naming how many persons are affected and never a value;
``varying_qids: most_frequent`` lets each person's most frequent vector stand for all their
rows (the published rows of a person then all carry its generalization).
"""

from __future__ import annotations

from collections.abc import Sequence

from anonsql.engines import ColumnInfo, Engine
from anonsql.errors import SpecError
from anonsql.privacy.base import PrivacyModel
from anonsql.privacy.registry import model_names
from anonsql.spec import Role, Spec
from anonsql.sql import Relation


def fingerprint_column(spec: Spec, models: Sequence[PrivacyModel]) -> str | None:
    """Check a 1:M declaration; return the sensitive column whose fingerprints are protected."""
    person = spec.person_id
    if person is None:
        for position, model in enumerate(models):
            if model.counts_persons:
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
        if not model.counts_persons:
            raise SpecError(
                key,
                "with person_id, privacy is counted in persons and this model counts rows",
                f"use the person-level models: {', '.join(model_names(counts_persons=True))}",
            )
        if model.reads_fingerprints and model.sensitive_column is not None:
            columns.add(model.sensitive_column)
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
