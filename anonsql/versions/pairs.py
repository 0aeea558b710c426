"""The differencing attack as a query: for the new version N and every earlier version a, per
published class, the rows inserted since a and the rows deleted since a must each satisfy the
certified models (what an analyst who kept version a learns by comparing it with N).

Computed from the history alone, independently of the rule that placed the rows: one query
per model over the changes between every pair (a, N), grouped by (a, kind of change, class).
The pairs (a, b) with b < N were checked when b was published and are unchanged, so each
version adds V - 1 pairs; their rows number at most the rows changed since version 1 per
earlier version (V times the changes, V versions).
"""

from __future__ import annotations

from collections.abc import Sequence

from anonsql.engines import Engine
from anonsql.privacy.base import PrivacyModel
from anonsql.sql import TableName
from anonsql.versions.names import VersionNames


def differencing_violations(
    engine: Engine,
    names: VersionNames,
    history: tuple[TableName, TableName],
    version: int,
    qids: Sequence[str],
    columns: Sequence[str],
    models: Sequence[PrivacyModel],
    work_schema: str,
) -> dict[str, int]:
    """Violating (earlier version, change, class) groups per model; empty for version 1.
    ``history`` is the version's rows and the rows that left, as published (their coded
    columns decoded)."""
    if version <= 1:
        return {}
    changes, working_table = engine.transaction_work(TableName("v_changes", work_schema))
    engine.run(
        "versions/pair_changes",
        target=changes,
        working_table=working_table,
        versions=names.versions,
        rows=history[0],
        left=history[1],
        version=version,
        columns=list(columns),
    )
    keys = ["__anonsql_version_a", "__anonsql_change", *qids]
    found: dict[str, int] = {}
    for model in models:
        ready = model.prepared(engine, changes, keys)
        sql = ready.violations_sql(engine.sql, changes, keys)
        found[f"{model.describe()} on the rows changed between two versions"] = (
            engine.count_query_rows(sql)
        )
    # not in a `finally`: in the publish transaction, after an interrupted statement DuckDB
    # refuses every statement but ROLLBACK (the working schema's end drops it anyway)
    engine.drop_any(changes)
    return found
