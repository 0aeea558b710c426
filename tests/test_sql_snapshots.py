"""Every statement of a fixed run, per engine, kept as a snapshot so that changes to generated
SQL are visible in review. The statements are executed while they are recorded: the snapshot
is what ran. Regenerate with ``UPDATE_SNAPSHOTS=1 pytest tests/test_sql_snapshots.py``."""

from __future__ import annotations

import os
import re
from pathlib import Path

from helpers import load_people, people_spec

from anonsql import api
from anonsql.engines import Engine

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
_RUN_ID = re.compile(r"anonsql_work_[0-9a-f]{12}")
_ARROW_VIEW = re.compile(r"__anonsql_arrow_[0-9]+")


def normalize(statement: str, tmp: Path) -> str:
    """Replace what differs between runs: the run id and the Arrow scan names."""
    statement = _ARROW_VIEW.sub("__anonsql_arrow_N", _RUN_ID.sub("anonsql_work_RUN", statement))
    return statement.replace(str(tmp), "TMP")


def test_generated_sql_matches_snapshot(engine: Engine, tmp_path: Path) -> None:
    load_people(engine)
    spec = people_spec(
        tmp_path,
        k=5,
        privacy=[
            {"k_anonymity": {"k": 5}},
            {"distinct_l_diversity": {"column": "disease", "l": 2}},
        ],
    )
    statements: list[str] = []
    engine.listeners.append(statements.append)
    api.run(spec, engine=engine)
    text = "\n".join(normalize(s, tmp_path) + ";" for s in statements) + "\n"
    path = SNAPSHOTS / engine.dialect / "people_k5_l2.sql"
    if os.environ.get("UPDATE_SNAPSHOTS") or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), (
        f"generated SQL changed; review and run UPDATE_SNAPSHOTS=1 to accept ({path})"
    )
