"""A dry run: what ``anonsql run`` would do, without writing anything.

The spec is resolved against the database and its hierarchies loaded (both only read); the
plan lists the source, the quasi-identifiers and their hierarchies, the models, the algorithm,
the relations the run would publish, how it would swap them in, and the statements the
validation ran (values redacted), which are the first statements a run executes.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from anonsql.engines import Engine
from anonsql.engines.base import redact_values
from anonsql.hierarchies import load_hierarchies
from anonsql.resolve import resolve
from anonsql.spec import Spec
from anonsql.spec.output import OutputNames

_COMMON = (
    "classes",
    "certificate",
    "metrics",
    "attributes",
    "hierarchy_nodes",
    "source",
    "released",
)
_PERSON = ("by_person", "fingerprints", "person_map", "item_map", "released_by_person")


@dataclass(frozen=True)
class Plan:
    """What a run of a spec would do."""

    source: str
    rows: int
    algorithm: str
    models: tuple[str, ...]
    #: (column, how it is generalized)
    quasi_identifiers: tuple[tuple[str, str], ...]
    published_unchanged: tuple[str, ...]
    dropped: tuple[str, ...]
    publishes: tuple[str, ...]
    private: tuple[str, ...]
    swap: str
    #: The statements the validation ran, string and numeric literals redacted.
    statements: tuple[str, ...]

    def summary(self) -> dict[str, Any]:
        found = asdict(self)
        found["quasi_identifiers"] = dict(self.quasi_identifiers)
        return found


def plan(spec: Spec, engine: Engine) -> Plan:
    """Resolve ``spec`` against ``engine`` and describe the run it would make."""
    seen: list[str] = []
    engine.listeners.append(seen.append)
    try:
        resolved = resolve(spec, engine)
        hierarchies = load_hierarchies(engine, spec, resolved.source, resolved.hierarchy_columns)
    finally:
        engine.listeners.remove(seen.append)
    qids = []
    for dim in resolved.dimensions:
        tree = hierarchies.get(dim.column)
        how = (
            f"hierarchy {tree.name!r}: {tree.leaf_count} leaves, height {tree.height}"
            if tree is not None
            else "numeric: published as [lo, hi]"
        )
        qids.append((dim.column, how))
    names = OutputNames(resolved.output, spec.output.private_schema)
    kinds = _COMMON + (_PERSON if resolved.person is not None else ("recoding",))
    relations = [names.main, *(names.companion(k) for k in kinds)]
    public = [str(n) for n in relations if n.schema == names.main.schema]
    private = [str(n) for n in relations if n.schema != names.main.schema]
    return Plan(
        source=str(resolved.source),
        rows=resolved.rows,
        algorithm=resolved.algorithm.name,
        models=tuple(m.describe() for m in resolved.models),
        quasi_identifiers=tuple(qids),
        published_unchanged=resolved.passthrough,
        dropped=resolved.dropped,
        publishes=tuple(public),
        private=tuple(private),
        swap=(
            "one transaction (the engine's DDL is transactional)"
            if engine.transactional_ddl
            else "versioned relations, views repointed after verification"
        ),
        statements=tuple(redact_values(s) for s in seen),
    )
