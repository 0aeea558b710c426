"""The spec's ``workload:`` against the catalog: each query parsed
(:mod:`anonsql.spec.workload`) and its columns checked to be published source columns used as
the release can answer them. Errors are keyed ``workload[i].sql`` and never hold a data value."""

from __future__ import annotations

from collections.abc import Sequence

from anonsql.algorithms import Algorithm
from anonsql.engines import ColumnInfo
from anonsql.errors import SpecError
from anonsql.registry import suggestion
from anonsql.spec import Role, Spec
from anonsql.spec.workload import ParsedQuery, parse_workload

#: The layout whose releases the workload is measured on: one row per individual, sensitive
#: and insensitive columns published beside the generalized quasi-identifiers.
MEASURED_LAYOUT = "record"


def resolve_workload(
    spec: Spec, algorithm: Algorithm, catalog: Sequence[ColumnInfo]
) -> tuple[ParsedQuery, ...]:
    """The spec's workload, parsed and checked against the source's ``catalog``."""
    if not spec.workload:
        return ()
    if algorithm.layout != MEASURED_LAYOUT or not algorithm.publishes_unchanged:
        raise SpecError(
            "workload",
            f"{algorithm.name} publishes a {algorithm.layout} release, whose rows the "
            "workload's queries cannot be answered on",
            "remove workload:, or use an algorithm of one row per individual (e.g. mondrian)",
        )
    queries = parse_workload(spec.workload, spec.output.name, spec.output.schema_)
    types = {c.name: c for c in catalog}
    for position, query in enumerate(queries):
        check_query(spec, query, f"workload[{position}].sql", types)
    return queries


def check_query(spec: Spec, query: ParsedQuery, key: str, types: dict[str, ColumnInfo]) -> None:
    """Each column the query names is a published source column, used as the release can
    answer it: quasi-identifiers in conditions and GROUP BY, not aggregated; numeric
    quasi-identifiers compared with numbers, categorical ones by ``=`` or ``IN``."""
    for column in query.columns:
        if column not in types:
            hint = suggestion(column, list(types)) or f"the columns are: {', '.join(types)}"
            raise SpecError(key, f"names column {column!r}, which the source lacks", hint)
        declared = spec.columns.get(column)
        if declared is None or declared.role is Role.IDENTIFIER:
            raise SpecError(
                key,
                f"names column {column!r}, which the release does not publish",
                "query quasi-identifiers and columns declared sensitive or insensitive",
            )
    qids = set(spec.quasi_identifiers)
    if query.column is not None:
        if query.column in qids:
            raise SpecError(
                key,
                f"aggregates quasi-identifier {query.column!r}, which the release generalizes",
                "aggregate a column published unchanged, or count rows with COUNT(*)",
            )
        if not types[query.column].is_numeric:
            raise SpecError(
                key,
                f"{query.aggregate.upper()} over {query.column!r}, which is not numeric",
                "aggregate a numeric column",
            )
    for condition in query.where:
        if condition.column not in qids:
            continue
        numeric = spec.columns[condition.column].type == "numeric"
        if numeric and not all(isinstance(v, int | float) for v in condition.values):
            raise SpecError(
                key,
                f"compares numeric quasi-identifier {condition.column!r} with a string",
                "compare it with numbers",
            )
        if not numeric and condition.op not in ("=", "in"):
            raise SpecError(
                key,
                f"applies {condition.op.upper()} to categorical quasi-identifier "
                f"{condition.column!r}, whose values have no order",
                "select its values with = or IN",
            )


__all__ = ["check_query", "resolve_workload"]
