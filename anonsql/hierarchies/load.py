"""The hierarchies step: every categorical quasi-identifier's hierarchy (and a 1:M fingerprint
column's) loaded from a file, a database table or a builder over the column's values."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from anonsql.engines.base import Engine
from anonsql.errors import SpecError
from anonsql.hierarchies.builders import build_hierarchy
from anonsql.hierarchies.io import read_hierarchy
from anonsql.hierarchies.model import Hierarchy
from anonsql.hierarchies.tables import read_hierarchy_table
from anonsql.resources import resource_dir
from anonsql.spec import Spec
from anonsql.spec.relations import parse_relation
from anonsql.sql import Relation


@dataclass(frozen=True)
class Hierarchies:
    """The loaded hierarchies by column."""

    by_column: Mapping[str, Hierarchy]

    def get(self, column: str) -> Hierarchy | None:
        return self.by_column.get(column)


def load_hierarchies(
    engine: Engine, spec: Spec, source: Relation, columns: Sequence[str]
) -> Hierarchies:
    """Load the hierarchies the spec declares for ``columns`` (in that order)."""
    return Hierarchies({c: load_hierarchy(engine, spec, source, c) for c in columns})


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
        try:
            if candidate.is_file():
                return candidate
        except OSError:  # e.g. a name longer than the file system allows: not a file either
            continue
    tried = ", ".join(str(c) for c in candidates)
    raise SpecError(
        key,
        f"hierarchy file not found (tried {tried})",
        "check the path; relative "
        "paths are resolved beside the spec file, then in anonsql's shipped hierarchies",
    )
