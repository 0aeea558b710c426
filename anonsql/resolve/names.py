"""The names a run gives its relations and columns, checked before any work: no user column
takes a name anonsql gives its own columns beside it, and no name is longer than the engine
keeps (PostgreSQL truncates identifiers past 63 bytes silently: ``anon.<long name>__classes``
and ``__certificate`` could become one relation)."""

from __future__ import annotations

from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.spec import Role, Spec
from anonsql.spec.output import GENERALIZED_SUFFIX, OutputNames, reserved_name_problem
from anonsql.sql import TableName


def check_reserved_names(spec: Spec) -> None:
    """Declared columns (and the person column) must not take a name anonsql gives its own
    columns beside them (:func:`anonsql.spec.output.reserved_name_problem`)."""
    for key, name in _declared(spec):
        problem = reserved_name_problem(name)
        if problem is not None:
            raise SpecError(key, problem, "rename the column in a view over the source")


def check_name_lengths(spec: Spec, output: TableName, engine: Engine) -> None:
    """Every name the release creates fits the engine's identifier limit: its relations and
    schemas (named after ``output``) and the columns named after user columns (the recoding
    map's ``<qid>__generalized``, the class table's ``distinct <sensitive>``)."""
    limit = engine.max_identifier_bytes
    if limit is None:
        return
    names = OutputNames(output, spec.output.private_schema)
    schemas = [("output.schema", output.schema or ""), ("output.private_schema", names.private)]
    for key, schema in schemas:
        if _bytes(schema) > limit:
            raise SpecError(key, _too_long(engine, schema, limit), f"use at most {limit} bytes")
    longest = max((r.name for r in names.all()), key=_bytes)
    if _bytes(longest) > limit:
        allowed = limit - (_bytes(longest) - _bytes(output.name))
        raise SpecError(
            "output.name",
            _too_long(engine, longest, limit),
            f"use an output name of at most {allowed} bytes",
        )
    derived = [(f"columns.{q}", q, f"{q}{GENERALIZED_SUFFIX}") for q in spec.quasi_identifiers]
    derived += [(f"columns.{s}", s, f"distinct {s}") for s in spec.columns_with(Role.SENSITIVE)]
    for key, column, name in derived:
        if _bytes(name) > limit:
            allowed = limit - (_bytes(name) - _bytes(column))
            raise SpecError(
                key,
                f"{engine.name} keeps names of at most {limit} bytes, and anonsql names a "
                f"column after this one with {_bytes(name) - _bytes(column)} more",
                f"rename the column to at most {allowed} bytes in a view over the source",
            )


def _declared(spec: Spec) -> list[tuple[str, str]]:
    named = [(f"columns.{name}", name) for name in spec.columns]
    if spec.person_id is not None:
        named.append(("person_id", spec.person_id))
    return named


def _bytes(name: str) -> int:
    return len(name.encode("utf-8"))


def _too_long(engine: Engine, name: str, limit: int) -> str:
    return f"{engine.name} keeps names of at most {limit} bytes; {name!r} has {_bytes(name)}"
