"""Published columns that undo the generalization: a sensitive or insensitive column published
unchanged that functionally determines a quasi-identifier (each of its values occurs with one
value of the quasi-identifier, which has several) hands the original value to anyone who reads
it beside the generalized one. Such a column is refused unless the spec acknowledges it.
Adult's ``education`` is a one-to-one recoding of ``education_num``, for instance."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.spec import Spec
from anonsql.sql import Relation


@dataclass(frozen=True)
class LinkedColumn:
    """A published column and the quasi-identifiers it determines."""

    column: str
    determines: tuple[str, ...]


def linked_columns(
    engine: Engine,
    source: Relation,
    columns: Sequence[str],
    qids: Sequence[str],
    *,
    boolean: Collection[str] = (),
) -> list[LinkedColumn]:
    """The columns among ``columns`` that functionally determine a quasi-identifier of
    ``qids`` (one query per column, counts only); ``boolean`` names the quasi-identifiers of
    boolean type (compared with BOOL_AND/BOOL_OR, as PostgreSQL has no MIN of booleans)."""
    found = []
    params = [{"column": q, "boolean": q in boolean} for q in qids]
    for column in columns:
        row = engine.query("linked/splits", source=source, column=column, qids=params)[0]
        determined = tuple(
            q
            for i, q in enumerate(qids)
            if int(row[2 * i] or 0) == 1 and int(row[2 * i + 1] or 0) == 0
        )
        if determined:
            found.append(LinkedColumn(column, determined))
    return found


def check_linked_columns(
    engine: Engine,
    spec: Spec,
    source: Relation,
    columns: Sequence[str],
    qids: Sequence[str],
    *,
    boolean: Collection[str] = (),
) -> list[LinkedColumn]:
    """Refuse a published column that determines a quasi-identifier unless acknowledged;
    return the acknowledged ones."""
    acknowledged = []
    for linked in linked_columns(engine, source, columns, qids, boolean=boolean):
        if spec.columns[linked.column].acknowledge_linked:
            acknowledged.append(linked)
            continue
        qid_list = ", ".join(repr(q) for q in linked.determines)
        raise SpecError(
            f"columns.{linked.column}",
            f"published unchanged, it gives away the quasi-identifier {qid_list}: each of its "
            "values occurs with a single value of it, so the generalization is undone",
            f"declare {linked.column!r} a quasi-identifier (role: quasi_identifier), leave it out "
            "(role: identifier), or publish it anyway with `acknowledge_linked: true` (the "
            "release then protects less than its models say; the certificate records it)",
        )
    return acknowledged
