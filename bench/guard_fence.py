"""What the PostgreSQL guard fence costs an analyst: typical queries on a fenced guarded live
view (the guarded rows returned by a SECURITY DEFINER function, which the planner neither inlines
nor pushes an analyst's filters into: PostgresEngine.create_guarded) beside the same queries on
the unfenced guarded view it replaces (the guarded rows' query as a security_barrier view), over
synthetic Adult-like rows.

    python bench/guard_fence.py --rows 1000000        # starts a PostgreSQL 15 server

Prints the BENCHMARKS.md section (median of ``--repeat`` timings per query, after one warm-up).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "support"))

from guard_cost import SETUPS, spec_for  # noqa: E402
from run_one import database, make_synthetic  # noqa: E402

from anonsql import api  # noqa: E402
from anonsql.engines import Engine, PostgresEngine  # noqa: E402
from anonsql.sql import TableName  # noqa: E402

#: Analyst queries ({r} is the relation): a roll-up over two QIDs, a filtered count (a class's
#: size, the query the fence stops EXPLAIN from answering for a withheld class), a filtered scan.
QUERIES = {
    "group by sex, race": "SELECT sex, race, count(*) FROM {r} GROUP BY sex, race",
    "filtered count": "SELECT count(*) FROM {r} WHERE sex = 'Female' AND race = 'White'",
    "filter + 100 rows": "SELECT * FROM {r} WHERE sex = 'Female' LIMIT 100",
}


def timed(engine: Engine, sql: str, repeat: int) -> float:
    engine.fetchall(sql)  # warm-up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        engine.fetchall(sql)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def unfenced(engine: Engine, function: TableName, target: TableName) -> None:
    """The guarded view as it was before the fence: the fence function's own query (the guarded
    rows) as a security_barrier view."""
    found = engine.fetchall(
        "SELECT prosrc FROM pg_proc JOIN pg_namespace AS n ON n.oid = pronamespace "
        f"WHERE nspname = '{function.schema}' AND proname = '{function.name}'"
    )
    engine.execute(f"CREATE VIEW {target.sql()} AS {found[0][0]}")
    engine.run("publish/security_barrier", relation=target)


def measure(engine: Engine, db: str, repeat: int, say: Callable[[str], None]) -> list[str]:
    lines = [
        "| models | query | unfenced view (s) | fenced view (s) | fenced / unfenced |",
        "|---|---|---:|---:|---:|",
    ]
    for label, models in SETUPS.items():
        say(f"publishing: {label}")
        result = api.run(spec_for(db, models, "view", "adult_v"), engine=engine)
        names = result.names
        released = names.companion("released")
        function = released.with_name(names.main.name + PostgresEngine.GUARD_FUNCTION_SUFFIX)
        plain = released.with_name(names.main.name + "__unfenced")
        engine.drop_existing([plain])
        unfenced(engine, function, plain)
        for query, sql in QUERIES.items():
            say(f"  {query}")
            t_plain = timed(engine, sql.format(r=plain.sql()), repeat)
            t_fenced = timed(engine, sql.format(r=names.main.sql()), repeat)
            lines.append(
                f"| {label} | {query} | {t_plain:.3f} | {t_fenced:.3f} | {t_fenced / t_plain:.2f} |"
            )
        engine.drop_existing([plain])
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, database("postgres", Path(tmp)) as (engine, db):
        make_synthetic(engine, args.rows)
        lines = measure(engine, db, args.repeat, lambda m: print(m, file=sys.stderr, flush=True))
    print(f"postgres, {args.rows:,} rows: `python bench/guard_fence.py --rows {args.rows}`\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
