"""PostgreSQL's plan of chosen statements of one benchmark run, with their real timings.

    PYTHONPATH=. python bench/pg_plans.py publish/refined,linked/recovery --rows 10000000

Runs ``bench/run_one.py --engine postgres`` (its own throwaway server) with every statement
labelled by the template it was rendered from (``bench/template_profile.py``); a statement of a
chosen template is run as ``EXPLAIN (ANALYZE, BUFFERS)`` instead (which executes it: a
``CREATE TABLE AS`` creates its table), and its text and plan are printed to stdout once the run
ends. The run's own JSON line goes to stderr. A statement of several parts is run as it is.
"""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import template_profile as tp  # noqa: E402

from anonsql.engines.postgres.engine import PostgresEngine  # noqa: E402
from anonsql.sql.render import SqlRenderer  # noqa: E402

#: Template -> plans of its statements, in the order they ran.
PLANS: dict[str, list[str]] = {}
_WRITES = re.compile(r"\s*(CREATE|INSERT)\b", re.IGNORECASE)


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit("usage: pg_plans.py TEMPLATE[,TEMPLATE...] [run_one.py arguments]")
    wanted = set(sys.argv[1].split(","))
    SqlRenderer.render_many = tp.labelled(SqlRenderer.render_many)  # type: ignore[method-assign]
    SqlRenderer.render = tp.labelled(SqlRenderer.render)  # type: ignore[method-assign]
    execute, fetchall = PostgresEngine._execute, PostgresEngine._fetchall

    def explained(engine: PostgresEngine, sql: str, fetch: bool) -> Any:
        label = tp.LABELS.get(sql)
        single = ";" not in sql.strip().rstrip(";")
        if label in wanted and single and (fetch or _WRITES.match(sql)):
            plan = fetchall(engine, "EXPLAIN (ANALYZE, BUFFERS) " + sql)
            PLANS.setdefault(label, []).append(sql + "\n" + "\n".join(r[0] for r in plan))
            if not fetch:
                return None  # EXPLAIN ANALYZE ran the write
        return fetchall(engine, sql) if fetch else execute(engine, sql)

    PostgresEngine._execute = lambda self, sql: explained(self, sql, False)  # type: ignore[method-assign]
    PostgresEngine._fetchall = lambda self, sql: explained(self, sql, True)  # type: ignore[method-assign]
    sys.argv = [str(HERE / "run_one.py"), "--engine", "postgres", *sys.argv[2:]]
    out = sys.stdout
    sys.stdout = sys.stderr  # the run's own output
    try:
        runpy.run_path(sys.argv[0], run_name="__main__")
    finally:
        sys.stdout = out
        for label, plans in PLANS.items():
            for plan in plans:
                print(f"===== {label}\n{plan}\n")


if __name__ == "__main__":
    main()
