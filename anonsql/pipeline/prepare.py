"""Resolve a spec against the engine's catalog and build the working tables.

Every check that can fail on user input runs here, before any work: the source exists, the
declared columns exist and have fitting types, hierarchies load and cover the data, privacy
parameters fit the data. Errors name the key, the problem and the fix, never a data value.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import numpy as np
import pyarrow as pa

from anonsql.engines import ColumnInfo, Engine
from anonsql.errors import SpecError
from anonsql.hierarchies import (
    Hierarchy,
    build_hierarchy,
    materialize,
    read_hierarchy,
    read_hierarchy_table,
    uncovered,
)
from anonsql.pipeline.job import Dimension, Job, PersonLink, SensitiveAttribute, new_run_id
from anonsql.pipeline.persons import (
    build_person_tables,
    check_person_column,
    fingerprint_column,
    profile_persons,
)
from anonsql.pipeline.source import parse_relation, resolve_source
from anonsql.privacy import DataProfile, PrivacyModel
from anonsql.privacy.registry import models_from_entries
from anonsql.resources import resource_dir
from anonsql.spec import Role, Spec
from anonsql.sql import Relation, TableName

#: Suffix of the recoding table's generalized columns; checked against user column names.
GENERALIZED_SUFFIX = "__generalized"


def check_columns(declared: list[str], catalog: list[ColumnInfo], key: str) -> None:
    names = [c.name for c in catalog]
    for name in declared:
        if name not in names:
            close = difflib.get_close_matches(name, names, n=1)
            hint = (
                f"did you mean {close[0]!r}?" if close else f"the columns are: {', '.join(names)}"
            )
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


def check_model_fit(spec: Spec, models: list[PrivacyModel], types: dict[str, ColumnInfo]) -> None:
    """Model constraints that involve the rest of the spec or the column types."""
    for position, model in enumerate(models):
        key = f"privacy[{position}].{model.name}"
        if spec.suppression_limit > 0 and not model.supports_suppression:
            raise SpecError(
                key, "this model cannot be combined with suppression", "set suppression_limit: 0"
            )
        column = model.sensitive_column
        ordered = getattr(model.params, "distance", None) == "ordered"
        if ordered and column is not None and not types[column].is_numeric:
            raise SpecError(
                f"{key}.distance",
                f"the ordered distance needs a numeric column; "
                f"{column!r} is {types[column].data_type}",
                "use distance: equal, or a numeric sensitive column",
            )


def load_hierarchy(engine: Engine, spec: Spec, source: Relation, column: str) -> Hierarchy:
    """Load a column's hierarchy from a file, a database table or a builder."""
    declared = spec.columns[column].hierarchy
    key = f"columns.{column}.hierarchy"
    if isinstance(declared, str):
        return read_hierarchy(resolve_path(declared, spec.base_dir, key), name=column)
    assert isinstance(declared, dict)
    if "table" in declared:
        if set(declared) != {"table"}:
            raise SpecError(
                key, "a table hierarchy takes only the key 'table'", "remove the other keys"
            )
        relation = parse_relation(str(declared["table"]), f"{key}.table")
        return read_hierarchy_table(engine, relation, name=column)
    if "builder" in declared:
        values = [
            str(r[0]) for r in engine.query("prepare/distinct_text", source=source, column=column)
        ]
        return build_hierarchy(declared, values, name=column)
    raise SpecError(
        key, "a hierarchy is a file path, {table: ...} or {builder: ...}", "give one of these forms"
    )


def resolve_path(text: str, base_dir: Path, key: str) -> Path:
    """A relative path is looked up beside the spec, then among the shipped hierarchies."""
    path = Path(text)
    if path.is_absolute():
        candidates = [path]
    else:
        candidates = [base_dir / path, resource_dir("hierarchies") / path]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    tried = ", ".join(str(c) for c in candidates)
    raise SpecError(
        key,
        f"hierarchy file not found (tried {tried})",
        "check the path; relative "
        "paths are resolved beside the spec file, then in anonsql's shipped hierarchies",
    )


def prepare(spec: Spec, engine: Engine, run_id: str | None = None) -> Job:
    """Validate ``spec`` against ``engine`` and build the run's working tables.

    The working tables live in ``work_schema(run_id)``; the caller drops it, also on failure.
    """
    resolved = resolve_source(spec, engine)
    source = resolved.relation
    output = TableName(name=spec.output.name, schema=spec.output.schema_)
    if output in resolved.tables:
        raise SpecError(
            "output", "the output would replace the source", "publish under another name"
        )
    check_grants(spec, engine)
    catalog = resolved.columns
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
    fingerprints = fingerprint_column(spec, models)
    sa_columns = sorted(
        {
            m.sensitive_column
            for m in models
            if m.needs_sensitive and m.sensitive_column and not m.person_level
        },
        key=list(spec.columns).index,
    )
    sensitive = [SensitiveAttribute(i, c, 0, types[c].is_numeric) for i, c in enumerate(sa_columns)]
    check_model_fit(spec, models, types)

    profile = engine.query_arrow("prepare/profile", source=source, dims=dims, sensitive=sensitive)
    row = {name: profile.column(name)[0].as_py() for name in profile.column_names}
    rows = int(row["rows"])
    if rows == 0:
        raise SpecError("source", "the source table is empty", "anonymize a table with rows")
    for d in dims:
        nulls = int(row[f"nulls{d.index}"])
        if nulls:
            raise SpecError(
                f"columns.{d.column}",
                f"{nulls} rows have NULL in this quasi-identifier",
                "fill the NULLs (e.g. a view with COALESCE) or exclude those rows",
            )
        if d.is_numeric:
            d.global_min, d.global_max = float(row[f"min{d.index}"]), float(row[f"max{d.index}"])
    for s in sensitive:
        s.distinct = int(row[f"distinct{s.index}"])
    data = DataProfile(rows=rows, distinct_sensitive={s.column: s.distinct for s in sensitive})
    link = None
    if spec.person_id is not None:
        persons, items = profile_persons(engine, source, spec.person_id, fingerprints)
        link = PersonLink(spec.person_id, fingerprints, None, persons)
        distinct = {fingerprints: items} if fingerprints else {}
        data = DataProfile(rows=persons, distinct_sensitive=distinct)
    for position, model in enumerate(models):
        model.check_against(data, f"privacy[{position}].{model.name}")

    roles = {name: col.role for name, col in spec.columns.items()}
    passthrough = [
        c.name for c in catalog if roles.get(c.name) in (Role.SENSITIVE, Role.INSENSITIVE)
    ]
    dropped = [c.name for c in catalog if c.name not in roles or roles[c.name] is Role.IDENTIFIER]
    job = Job(
        spec=spec,
        engine=engine,
        source=source,
        output=output,
        dimensions=dims,
        sensitive=sensitive,
        models=models,
        passthrough=passthrough,
        dropped=dropped,
        rows=rows,
        catalog=catalog,
        person=link,
        run_id=run_id or new_run_id(),
    )

    hierarchies = {
        d.index: load_hierarchy(engine, spec, source, d.column) for d in dims if not d.is_numeric
    }
    sa_hierarchy = load_hierarchy(engine, spec, source, fingerprints) if fingerprints else None
    engine.create_schema(job.work_schema)
    leaves: dict[int, TableName] = {}
    for d in dims:
        if d.is_numeric:
            continue
        d.hierarchy = hierarchies[d.index]
        leaves[d.index] = job.work(f"leaves{d.index}")
        materialize(engine, d.hierarchy, leaves[d.index], job.work(f"nodes{d.index}"))
        check_coverage(engine, source, d.column, leaves[d.index])
    engine.load_arrow(job.work("ancestors"), ancestors_table(dims))
    if link is not None:
        sa_leaves = None
        if sa_hierarchy is not None and fingerprints is not None:
            link.hierarchy = sa_hierarchy
            sa_leaves = job.work("sa_leaves")
            materialize(engine, sa_hierarchy, sa_leaves, job.work("sa_nodes"))
            check_coverage(engine, source, fingerprints, sa_leaves)
            engine.load_arrow(job.work("sa_ancestors"), hierarchy_ancestors(sa_hierarchy))
        link.varying = build_person_tables(job, leaves, sa_leaves, sa_root=0)
        return job
    engine.run(
        "prepare/create_rows",
        rows=job.work("rows"),
        source=source,
        dims=dims,
        sensitive=sensitive,
        leaves=leaves,
    )
    for s in sensitive:
        counts = engine.query("prepare/sensitive_counts", rows=job.work("rows"), code=s.code)
        s.global_counts = np.zeros(s.distinct, dtype=np.int64)
        for code, n in counts:
            s.global_counts[int(code)] = int(n)
    return job


def quasi_identifiers(spec: Spec, types: dict[str, ColumnInfo]) -> list[Dimension]:
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


def check_coverage(engine: Engine, source: Relation, column: str, leaves: TableName) -> None:
    missing_rows, missing_values = uncovered(engine, source, column, leaves)
    if missing_rows:
        raise SpecError(
            f"columns.{column}.hierarchy",
            f"{missing_values} distinct values ({missing_rows} rows) of the column are "
            "not leaves of the hierarchy",
            "add those values to the hierarchy (values are compared as text)",
        )


def ancestors_table(dims: list[Dimension]) -> pa.Table:
    """(dim, leaf_rank, depth, node_id): each leaf's ancestor at each depth below the root."""
    tables = []
    for d in dims:
        if d.hierarchy is None:
            continue
        t = hierarchy_ancestors(d.hierarchy)
        tables.append(t.add_column(0, "dim", pa.array([d.index] * t.num_rows, pa.int32())))
    if not tables:
        empty = hierarchy_ancestors(None)
        return empty.add_column(0, "dim", pa.array([], pa.int32()))
    return pa.concat_tables(tables)


def hierarchy_ancestors(h: Hierarchy | None) -> pa.Table:
    """(leaf_rank, depth, node_id, ordinal): each leaf's ancestors below the root, the leaf
    included; ``ordinal`` is the ancestor's position among its parent's children."""
    leaf_col: list[int] = []
    depth_col: list[int] = []
    node_col: list[int] = []
    ordinal_col: list[int] = []
    for rank in range(h.leaf_count if h is not None else 0):
        assert h is not None
        node = h.leaf_node(rank)
        while node.parent is not None:
            parent = h.nodes[node.parent]
            leaf_col.append(rank)
            depth_col.append(node.depth)
            node_col.append(node.id)
            ordinal_col.append(parent.children.index(node.id))
            node = parent
    return pa.table(
        {
            "leaf_rank": pa.array(leaf_col, pa.int32()),
            "depth": pa.array(depth_col, pa.int32()),
            "node_id": pa.array(node_col, pa.int32()),
            "ordinal": pa.array(ordinal_col, pa.int32()),
        }
    )
