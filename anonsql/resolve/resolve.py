"""The resolve step: a spec checked against the engine's catalog and profiled data.

Every check that can fail on user input and needs no hierarchy runs here, before any work: the
algorithm exists and accepts the models, the source exists, the declared columns exist and have
fitting types, privacy parameters fit the data and the column types. Errors name the key, the
problem and the fix, never a data value.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from anonsql.algorithms import ALGORITHMS, Algorithm
from anonsql.algorithms.workspace import Dimension, SensitiveAttribute
from anonsql.engines import ColumnInfo, Engine, TypeClass
from anonsql.errors import SpecError
from anonsql.metrics.risk import check_population
from anonsql.privacy import DataProfile, PrivacyModel, models_from_entries, sensitive_columns
from anonsql.registry import suggestion
from anonsql.resolve.dependencies import resolve_dependencies
from anonsql.resolve.linked import check_linked_columns
from anonsql.resolve.names import check_name_lengths, check_reserved_names
from anonsql.resolve.persons import (
    check_person_column,
    counting,
    fingerprint_column,
    profile_persons,
)
from anonsql.resolve.resolved import PersonDeclaration, Resolved
from anonsql.resolve.source import resolve_source
from anonsql.resolve.workload import resolve_workload
from anonsql.spec import Role, Spec
from anonsql.spec.dependencies import FunctionalDependency
from anonsql.sql import Relation, TableName


def resolve(spec: Spec, engine: Engine) -> Resolved:
    """Check ``spec`` against ``engine``'s catalog and data; nothing is written.

    The steps run in this order, so a spec with several problems reports the first: the spec
    against the catalog (algorithm, source, output, grants, columns, quasi-identifiers, models,
    functional dependencies), then against the profiled data (rows, NULLs, ranges, persons, what
    the models need, what k counts: persons, or rows where no identifier repeats), then the
    published columns that exactly determine a quasi-identifier (the linkage gate measures the
    rest on the release).
    """
    algorithm = choose_algorithm(spec)
    source = resolve_source(spec, engine)
    output = output_table(spec, source.tables)
    check_grants(spec, engine)
    catalog = source.columns
    check_columns(list(spec.columns), catalog, "columns")
    check_reserved_names(spec)
    check_name_lengths(spec, output, engine)
    if spec.person_id is not None:
        check_person_column(spec, catalog)
    types = {c.name: c for c in catalog}
    dims = quasi_identifiers(spec, types)
    workload = resolve_workload(spec, algorithm, catalog)
    models = build_models(spec)
    check_engine_support(models, engine)
    algorithm.check_models(models)
    algorithm = algorithm.bind(spec, catalog)
    fingerprints = fingerprint_column(spec, models)
    fds = resolve_dependencies(spec, engine, source.relation, catalog)
    sensitive = sensitive_attributes(spec, algorithm, models, fds, types)
    check_model_fit(spec, models, types)

    profile = profile_source(engine, source.relation, dims, sensitive)
    rows = source_rows(profile)
    dims = profiled_dimensions(dims, profile)
    sensitive = profiled_sensitive(sensitive, profile)
    person = person_declaration(spec, engine, source.relation, fingerprints)
    check_models_against(models, data_profile(rows, sensitive, person))
    check_population(spec, engine, data_profile(rows, sensitive, person).rows)
    counts = counting(spec, engine, source.relation, catalog)

    passthrough = passthrough_columns(spec, algorithm, catalog)
    unchanged = [c for c in passthrough if c != fingerprints]
    qids = spec.quasi_identifiers
    boolean = [q for q in qids if types[q].type_class is TypeClass.BOOLEAN]
    linked = check_linked_columns(
        engine, spec, source.relation, unchanged, qids, rows=rows, boolean=boolean
    )
    return Resolved(
        spec=spec,
        algorithm=algorithm,
        source=source.relation,
        source_tables=tuple(source.tables),
        output=output,
        catalog=tuple(catalog),
        dimensions=tuple(dims),
        sensitive=tuple(sensitive),
        models=tuple(models),
        passthrough=tuple(passthrough),
        dropped=tuple(dropped_columns(spec, catalog)),
        rows=rows,
        person=person,
        linked=tuple(linked),
        functional_dependencies=fds,
        counts=counts,
        workload=workload,
    )


def output_table(spec: Spec, source_tables: Sequence[TableName]) -> TableName:
    """The table the release is published as; it must not be one the source reads."""
    output = TableName(name=spec.output.name, schema=spec.output.schema_)
    if output in source_tables:
        raise SpecError(
            "output", "the output would replace the source", "publish under another name"
        )
    return output


def check_engine_support(models: Sequence[PrivacyModel], engine: Engine) -> None:
    """Each model must run on the engine (some need functions not every engine has)."""
    for position, model in enumerate(models):
        model.check_engine(engine, f"privacy[{position}].{model.name}")


def sensitive_attributes(
    spec: Spec,
    algorithm: Algorithm,
    models: Sequence[PrivacyModel],
    fds: Sequence[FunctionalDependency],
    types: Mapping[str, ColumnInfo],
) -> list[SensitiveAttribute]:
    """The sensitive columns read row by row, in spec order, not yet profiled: those the
    record-level models read, and the sensitive sides of the dependencies an algorithm reads."""
    read = set(sensitive_columns([m for m in models if not m.counts_persons]))
    if algorithm.reads_dependencies:
        read |= {c for fd in fds for c in fd.attributes if c in spec.columns_with(Role.SENSITIVE)}
    order = list(spec.columns)
    columns = sorted(read, key=order.index)
    return [SensitiveAttribute(i, c, 0, types[c].is_numeric) for i, c in enumerate(columns)]


def profile_source(
    engine: Engine,
    source: Relation,
    dims: Sequence[Dimension],
    sensitive: Sequence[SensitiveAttribute],
) -> dict[str, Any]:
    """The source's profile, one query: rows, each quasi-identifier's NULLs (and a numeric
    one's range), each sensitive column's distinct values."""
    profile = engine.query_arrow("prepare/profile", source=source, dims=dims, sensitive=sensitive)
    return {name: profile.column(name)[0].as_py() for name in profile.column_names}


def source_rows(profile: Mapping[str, Any]) -> int:
    """The source's row count; an empty source is refused."""
    rows = int(profile["rows"])
    if rows == 0:
        raise SpecError("source", "the source table is empty", "anonymize a table with rows")
    return rows


def profiled_dimensions(dims: Sequence[Dimension], profile: Mapping[str, Any]) -> list[Dimension]:
    """The quasi-identifiers with their numeric ranges; NULLs and unrepresentable values
    are refused."""
    profiled: list[Dimension] = []
    for d in dims:
        nulls = int(profile[f"nulls{d.index}"])
        if nulls:
            raise SpecError(
                f"columns.{d.column}",
                f"{nulls} rows have NULL in this quasi-identifier",
                "fill the NULLs (e.g. a view with COALESCE) or exclude those rows",
            )
        if d.is_numeric:
            low, high = float(profile[f"min{d.index}"]), float(profile[f"max{d.index}"])
            check_numeric_range(d.column, low, high)
            d = Dimension(d.index, d.column, d.kind, global_min=low, global_max=high)
        profiled.append(d)
    return profiled


def profiled_sensitive(
    sensitive: Sequence[SensitiveAttribute], profile: Mapping[str, Any]
) -> list[SensitiveAttribute]:
    """The sensitive columns with their distinct value counts."""
    return [
        SensitiveAttribute(s.index, s.column, int(profile[f"distinct{s.index}"]), s.numeric)
        for s in sensitive
    ]


def person_declaration(
    spec: Spec, engine: Engine, source: Relation, fingerprints: str | None
) -> PersonDeclaration | None:
    """1:M data's persons and fingerprint items, profiled (None without ``person_id``)."""
    if spec.person_id is None:
        return None
    persons, items = profile_persons(engine, source, spec.person_id, fingerprints)
    return PersonDeclaration(spec.person_id, fingerprints, persons, items)


def data_profile(
    rows: int, sensitive: Sequence[SensitiveAttribute], person: PersonDeclaration | None
) -> DataProfile:
    """What the models' parameters are checked against: rows and distinct sensitive values,
    or for 1:M data persons and distinct fingerprint items."""
    if person is None:
        return DataProfile(rows=rows, distinct_sensitive={s.column: s.distinct for s in sensitive})
    distinct = {person.fingerprint: person.items} if person.fingerprint else {}
    return DataProfile(rows=person.persons, distinct_sensitive=distinct)


def check_models_against(models: Sequence[PrivacyModel], data: DataProfile) -> None:
    """Each model's parameters must be satisfiable on the data (e.g. k at most the rows)."""
    for position, model in enumerate(models):
        model.check_against(data, f"privacy[{position}].{model.name}")


def passthrough_columns(
    spec: Spec, algorithm: Algorithm, catalog: Sequence[ColumnInfo]
) -> list[str]:
    """The sensitive and insensitive columns published unchanged, in catalog order (none when
    the algorithm publishes no column unchanged)."""
    if not algorithm.publishes_unchanged:
        return []
    roles = {name: col.role for name, col in spec.columns.items()}
    return [c.name for c in catalog if roles.get(c.name) in (Role.SENSITIVE, Role.INSENSITIVE)]


def dropped_columns(spec: Spec, catalog: Sequence[ColumnInfo]) -> list[str]:
    """The columns left out of the release: identifiers and undeclared columns."""
    roles = {name: col.role for name, col in spec.columns.items()}
    return [c.name for c in catalog if c.name not in roles or roles[c.name] is Role.IDENTIFIER]


#: Integers beyond this magnitude have no exact double: intervals over them would be wrong.
EXACT_INTEGER_LIMIT = 2.0**53


def check_numeric_range(column: str, low: float, high: float) -> None:
    """A numeric quasi-identifier's values must be finite and exactly representable."""
    if not (math.isfinite(low) and math.isfinite(high)):
        raise SpecError(
            f"columns.{column}",
            "the column holds NaN or infinite values, which no interval can generalize",
            "exclude or replace them in a view over the source",
        )
    if max(abs(low), abs(high)) > EXACT_INTEGER_LIMIT:
        raise SpecError(
            f"columns.{column}",
            "the column holds values beyond ±2^53, which intervals cannot represent exactly",
            "give it a hierarchy instead of type: numeric, or scale it down in a view",
        )


def choose_algorithm(spec: Spec) -> Algorithm:
    """The spec's algorithm with its options; it must fit the data's shape (1:M or not)."""
    if spec.algorithm_name not in ALGORITHMS:
        raise SpecError(
            "algorithm", ALGORITHMS.unknown_message(spec.algorithm_name), "use a known algorithm"
        )
    algorithm = ALGORITHMS.get(spec.algorithm_name).from_spec(spec.algorithm_options)
    if spec.person_id is not None and not algorithm.person_level:
        raise SpecError(
            "algorithm",
            f"{algorithm.name} anonymizes one row per individual, but the spec sets person_id",
            "use algorithm: one_to_many (the default with person_id)",
        )
    if spec.person_id is None and algorithm.person_level:
        raise SpecError(
            "algorithm",
            f"{algorithm.name} anonymizes data with several rows per person",
            "add `person_id: <column linking a person's rows>`",
        )
    return algorithm


def check_columns(declared: Sequence[str], catalog: Sequence[ColumnInfo], key: str) -> None:
    names = [c.name for c in catalog]
    for name in declared:
        if name not in names:
            hint = suggestion(name, names) or f"the columns are: {', '.join(names)}"
            raise SpecError(f"{key}.{name}", "no such column in the source", hint)


def build_models(spec: Spec) -> list[PrivacyModel]:
    """The spec's models; each sensitive column they read must be declared sensitive."""
    models = models_from_entries(spec.privacy)
    for position, model in enumerate(models):
        key = f"privacy[{position}].{model.name}"
        column = model.sensitive_column
        if model.needs_sensitive and column is not None:
            declared = spec.columns.get(column)
            if declared is None or declared.role is not Role.SENSITIVE:
                raise SpecError(
                    f"{key}.column",
                    f"column {column!r} is not declared with role sensitive",
                    f"add `{column}: {{role: sensitive}}` under columns",
                )
    return models


def check_grants(spec: Spec, engine: Engine) -> None:
    grants = spec.output.grants
    if grants and not engine.supports_grants:
        raise SpecError(
            "output.grants",
            f"the {engine.name} engine has no roles to grant to",
            "remove output.grants",
        )
    for position, role in enumerate(grants):
        if not engine.role_exists(role):
            raise SpecError(
                f"output.grants[{position}]",
                f"role {role!r} does not exist",
                "create the role first, or remove it from output.grants",
            )


def check_model_fit(
    spec: Spec, models: Sequence[PrivacyModel], types: Mapping[str, ColumnInfo]
) -> None:
    """What the models declare against the rest of the spec and the column types."""
    for position, model in enumerate(models):
        key = f"privacy[{position}].{model.name}"
        if spec.suppression_limit > 0 and not model.supports_suppression:
            raise SpecError(
                key, "this model cannot be combined with suppression", "set suppression_limit: 0"
            )
        model.check_columns(types, key)


def quasi_identifiers(spec: Spec, types: Mapping[str, ColumnInfo]) -> list[Dimension]:
    """The spec's quasi-identifiers as dimensions (numeric, or categorical with a hierarchy)."""
    dims: list[Dimension] = []
    for name in spec.quasi_identifiers:
        col = spec.columns[name]
        key = f"columns.{name}"
        if col.hierarchy is not None:
            if col.type == "numeric":
                raise SpecError(
                    key,
                    "a numeric QID is generalized to intervals and takes no hierarchy",
                    "drop `type: numeric` to use the hierarchy, or drop the hierarchy",
                )
            dims.append(Dimension(len(dims), name, "categorical"))
        elif col.type == "numeric":
            if not types[name].is_numeric:
                raise SpecError(
                    f"{key}.type",
                    f"declared numeric but the column is {types[name].data_type}",
                    "give the column a hierarchy instead of type: numeric",
                )
            dims.append(Dimension(len(dims), name, "numeric"))
        else:
            raise SpecError(
                key,
                "a quasi-identifier needs a hierarchy or `type: numeric`",
                "add `hierarchy: <file>` or `type: numeric`",
            )
    return dims
