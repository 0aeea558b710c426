"""Working schemas left behind by runs that were killed (``kill -9``, a lost connection): they
hold every row's coded quasi-identifiers and sensitive values, so every run removes those of
dead runs before it starts, and ``anonsql cleanup`` does on demand. Live runs (on PostgreSQL,
runs of other sessions holding their advisory lock) are left alone."""

from __future__ import annotations

import re

from anonsql.algorithms.workspace import WORK_SCHEMA_PREFIX
from anonsql.engines import Engine

_RUN_SCHEMA = re.compile(re.escape(WORK_SCHEMA_PREFIX) + r"([0-9a-f]{12})")


def remove_dead_workspaces(engine: Engine) -> list[str]:
    """Drop the working schemas of runs that no longer run; return their names."""
    removed = []
    for schema in engine.schemas_starting_with(WORK_SCHEMA_PREFIX):
        match = _RUN_SCHEMA.fullmatch(schema)
        if match is None or engine.run_is_alive(match.group(1)):
            continue
        engine.run("drop_schema", schema=schema)
        removed.append(schema)
    return removed
