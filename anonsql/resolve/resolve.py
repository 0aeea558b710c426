"""The resolve step: a spec checked against the engine's catalog and profiled data.

Every check that can fail on user input and needs no hierarchy runs here, before any work: the
algorithm exists and accepts the models, the source exists, the declared columns exist and have
fitting types, privacy parameters fit the data and the column types. Errors name the key, the
problem and the fix, never a data value.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from anonsql.algorithms import ALGORITHMS, Algorithm
from anonsql.algorithms.workspace import Dimension, SensitiveAttribute
from anonsql.engines import ColumnInfo, Engine, TypeClass
from anonsql.errors import SpecError
from anonsql.privacy import DataProfile, PrivacyModel, models_from_entries, sensitive_columns
from anonsql.registry import suggestion
from anonsql.resolve.dependencies import resolve_dependencies
from anonsql.resolve.linked import check_linked_columns
from anonsql.resolve.persons import check_person_column, fingerprint_column, profile_persons
from anonsql.resolve.resolved import PersonDeclaration, Resolved
from anonsql.resolve.source import resolve_source
from anonsql.spec import Role, Spec
from anonsql.spec.output import GENERALIZED_SUFFIX
from anonsql.sql import TableName


def resolve(spec: Spec, engine: Engine) -> Resolved:
    """Check ``spec`` against ``engine``'s catalog and data; nothing is written."""
    algorithm = choose_algorithm(spec)
    source = resolve_source(spec, engine)
    output = TableName(name=spec.output.name, schema=spec.output.schema_)
    if output in source.tables:
        raise SpecError(
            "output", "the output would replace the source", "publish under another name"
        )
    check_grants(spec, engine)
    catalog = source.columns
    check_columns(list(spec.columns), catalog, "columns")
    types = {c.name: c for c in catalog}
    for name in spec.columns:
        if name.endswith(GENERALIZED_SUFFIX):
            raise SpecError(
                f"columns.{name}",
                f"column names ending in {GENERALIZED_SUFFIX!r} are reserved",
                "rename the column in a view over the source",
            )
    if spec.person_id is not None:
        check_person_column(spec, catalog)

    dims = quasi_identifiers(spec, types)
    models = build_models(spec)
    for position, model in enumerate(models):
        model.check_engine(engine, f"privacy[{position}].{model.name}")
    algorithm.check_models(models)
    algorithm = algorithm.bind(spec, catalog)
    fingerprints = fingerprint_column(spec, models)
    order = list(spec.columns)
    record_level = [m for m in models if not m.counts_persons]
    fds = resolve_dependencies(spec, engine, source.relation, catalog)
    read = set(sensitive_columns(record_level))
    if algorithm.reads_dependencies:
        read |= {c for fd in fds for c in fd.attributes if c in spec.columns_with(Role.SENSITIVE)}
    sa_columns = sorted(read, key=order.index)
    sensitive = [SensitiveAttribute(i, c, 0, types[c].is_numeric) for i, c in enumerate(sa_columns)]
    check_model_fit(spec, models, types)

    profile = engine.query_arrow(
        "prepare/profile", source=source.relation, dims=dims, sensitive=sensitive
    )
    row = {name: profile.column(name)[0].as_py() for name in profile.column_names}
    rows = int(row["rows"])
    if rows == 0:
        raise SpecError("source", "the source table is empty", "anonymize a table with rows")
    profiled: list[Dimension] = []
    for d in dims:
        nulls = int(row[f"nulls{d.index}"])
        if nulls:
            raise SpecError(
                f"columns.{d.column}",
                f"{nulls} rows have NULL in this quasi-identifier",
                "fill the NULLs (e.g. a view with COALESCE) or exclude those rows",
            )
        if d.is_numeric:
            low, high = float(row[f"min{d.index}"]), float(row[f"max{d.index}"])
            check_numeric_range(d.column, low, high)
            d = Dimension(d.index, d.column, d.kind, global_min=low, global_max=high)
        profiled.append(d)
    sensitive = [
        SensitiveAttribute(s.index, s.column, int(row[f"distinct{s.index}"]), s.numeric)
        for s in sensitive
    ]
    data = DataProfile(rows=rows, distinct_sensitive={s.column: s.distinct for s in sensitive})
    person = None
    if spec.person_id is not None:
        persons, items = profile_persons(engine, source.relation, spec.person_id, fingerprints)
        person = PersonDeclaration(spec.person_id, fingerprints, persons, items)
        distinct = {fingerprints: items} if fingerprints else {}
        data = DataProfile(rows=persons, distinct_sensitive=distinct)
    for position, model in enumerate(models):
        model.check_against(data, f"privacy[{position}].{model.name}")

    roles = {name: col.role for name, col in spec.columns.items()}
    passthrough = [
        c.name
        for c in catalog
        if roles.get(c.name) in (Role.SENSITIVE, Role.INSENSITIVE) and algorithm.publishes_unchanged
    ]
    unchanged = [c for c in passthrough if c != fingerprints]
    qids = spec.quasi_identifiers
    boolean = [q for q in qids if types[q].type_class is TypeClass.BOOLEAN]
    linked = check_linked_columns(engine, spec, source.relation, unchanged, qids, boolean=boolean)
    dropped = [c.name for c in catalog if c.name not in roles or roles[c.name] is Role.IDENTIFIER]
    return Resolved(
        spec=spec,
        algorithm=algorithm,
        source=source.relation,
        source_tables=tuple(source.tables),
        output=output,
        catalog=tuple(catalog),
        dimensions=tuple(profiled),
        sensitive=tuple(sensitive),
        models=tuple(models),
        passthrough=tuple(passthrough),
        dropped=tuple(dropped),
        rows=rows,
        person=person,
        linked=tuple(linked),
        functional_dependencies=fds,
    )


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
