"""The kept grouping of a versioned release (``<release>__version_groups``): a later version
updates only the groups it changes (``versions/groups_next``, ``versions/groups_apply``), and
the class table, the gate's checks of the changed classes and the linkage measures read it. It
must equal the version's rows grouped afresh, after insertions, deletions that leave and rows
with NULLs, on every engine, for a history of text and one of codes: checked here in pandas
from the private history (decoded through its dictionary by the test's own code)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from helpers import history_frame, load_people, people_spec
from history_columns import history_columns  # noqa: F401  (autouse: text and codes)

from anonsql import api
from anonsql.engines import Engine
from anonsql.sql import TableName

ROWS = TableName("people__version_rows", "anon_private")
LEFT = TableName("people__left_rows", "anon_private")
GROUPS = TableName("people__version_groups", "anon_private")
COUNT = "__anonsql_rows"
LEAVING = ", ".join(f"'twin person {i}'" for i in range(6))


def text(value: object) -> str:
    """One spelling of a value on both sides: pandas 3 keeps a missing value missing through
    ``astype(str)`` where pandas 2 spelled it ``'None'``."""
    return "NULL" if value is None or pd.isna(value) else str(value)  # type: ignore[call-overload]


def kept(engine: Engine) -> tuple[list[str], list[tuple[tuple[str, ...], int]]]:
    frame: pd.DataFrame = engine.query_arrow("select_all", relation=GROUPS).to_pandas()
    columns = [c for c in frame.columns if c != COUNT]
    return columns, sorted(
        (tuple(text(v) for v in row[:-1]), int(row[-1]))
        for row in frame[[*columns, COUNT]].itertuples(index=False)
    )


def grouped_afresh(engine: Engine, columns: list[str]) -> list[tuple[tuple[str, ...], int]]:
    rows = history_frame(engine, ROWS)[columns].astype(object).map(text)
    counts = rows.groupby(columns).size()
    return sorted((tuple(k), int(n)) for k, n in counts.items())


def test_the_kept_grouping_is_the_versions_rows_grouped(engine: Engine, tmp_path: Path) -> None:
    load_people(engine)
    # twelve people alike in every published column: one group, which loses six at version 4
    # and keeps six (a group updated, not only created or emptied)
    twins = ", ".join(f"'person {i}'" for i in range(12))
    engine.execute(
        "INSERT INTO main.people SELECT 'twin ' || name, 50, "
        "(SELECT MIN(city) FROM main.people), 50000, 'flu', 'a' "
        f"FROM main.people WHERE name IN ({twins})"
    )
    spec = people_spec(tmp_path, k=5)
    changes = [
        "INSERT INTO main.people SELECT 'new ' || name, age, city, income, disease, note "
        "FROM main.people WHERE name LIKE 'person 1%'",
        # a NULL among the grouped columns: groups are matched NULL-safe
        "INSERT INTO main.people SELECT 'null ' || name, age, city, income, disease, NULL "
        "FROM main.people WHERE name LIKE 'person 2%'",
        "DELETE FROM main.people WHERE name LIKE 'person 3%' OR name LIKE 'new person 1%' "
        f"OR name IN ({LEAVING})",
        "UPDATE main.people SET income = income + 1000 WHERE name LIKE 'person 4%'",
    ]
    api.run(spec, engine=engine)
    sizes = []
    for version, change in enumerate(changes, start=2):
        engine.execute(change)
        result = api.run(spec, engine=engine)
        assert result.certificate["version"] == version
        columns, groups = kept(engine)
        assert {"age", "city", "income"} <= set(columns)
        assert groups == grouped_afresh(engine, columns), f"version {version}"
        sizes.append(max(n for key, n in groups if "flu" in key and "50000" in key))
    # the twins' group lost six rows and kept six; NULLs were grouped
    assert sizes[1] >= 12 and sizes[2] == sizes[1] - 6
    assert int((history_frame(engine, LEFT)["__anonsql_until"] == 4).sum()) >= 6
    assert any("NULL" in key for key, _ in kept(engine)[1])
