"""1:M data (``person_id`` in the spec): checks of the declaration against the models and the
catalog, and the persons' profile; and what k counts (:func:`counting`): persons, or rows
where no declared identifier or join key repeats (or the spec acknowledges it does).

A person's quasi-identifiers are assumed constant over their rows (Gong et al. 2017, A1). When
they vary, the run refuses by default, naming how many persons are affected and never a value;
``varying_qids: most_frequent`` lets each person's most frequent vector stand for all their
rows (the published rows of a person then all carry its generalization).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

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


@dataclass(frozen=True)
class Counting:
    """What the release's models count (the certificate's ``counts``): ``persons`` (by
    ``column``, the spec's ``person_id``) or ``rows``; ``why`` says why rows are one per person
    or that the spec acknowledged they are not (``acknowledged``: ``column`` repeats)."""

    unit: Literal["persons", "rows"]
    why: str
    column: str | None = None
    acknowledged: bool = False

    def as_json(self) -> str:
        return json.dumps(
            {
                "unit": self.unit,
                "column": self.column,
                "why": self.why,
                "acknowledged": self.acknowledged,
            }
        )


def counting(
    spec: Spec, engine: Engine, source: Relation, catalog: Sequence[ColumnInfo]
) -> Counting:
    """What k counts, and the refusal of record-level certification over several rows per
    person: a declared identifier (``role: identifier``) or a join key whose values repeat in
    the source means a class of k rows may hold fewer than k persons. Refused unless the spec
    sets ``person_id`` (the person-level models count persons) or ``record_level:
    acknowledged``. One query (a count and a distinct count per such column)."""
    if spec.person_id is not None:
        return Counting("persons", "the person-level models count persons", spec.person_id)
    names = {c.name.casefold(): c.name for c in catalog}
    keys = {f"columns.{c}": c for c in spec.columns_with(Role.IDENTIFIER)}
    for i, join in enumerate(spec.join):
        for position, column in enumerate(join.using):
            keys.setdefault(f"join[{i}].using[{position}]", names.get(column.casefold(), column))
    columns = list(dict.fromkeys(keys.values()))
    if not columns:
        return Counting("rows", "no column is declared to identify persons (role: identifier)")
    row = engine.query("persons/repeats", source=source, columns=columns)[0]
    repeats = {
        c: (int(row[2 * i] or 0), int(row[2 * i + 1] or 0))
        for i, c in enumerate(columns)
        if int(row[2 * i] or 0) > int(row[2 * i + 1] or 0)
    }
    if not repeats:
        return Counting(
            "rows",
            f"one row per person: no value of {', '.join(columns)} repeats in the source",
        )
    key, column = next((k, c) for k, c in keys.items() if c in repeats)
    rows, distinct = repeats[column]
    what = f"{column!r} repeats: {distinct} distinct values over {rows} rows"
    if spec.record_level == "acknowledged":
        return Counting("rows", f"{what} (record_level: acknowledged)", column, acknowledged=True)
    raise SpecError(
        key,
        f"{what}, so a person may own several rows and a class of k rows may hold fewer than "
        "k persons",
        f"declare `person_id: {column}` with the person-level models (e.g. person_k_anonymity) "
        "to count persons, or set `record_level: acknowledged` to certify rows knowing it; if "
        f"{column!r} does not identify persons, remove it from columns (undeclared columns are "
        "dropped too)",
    )
