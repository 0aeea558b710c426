"""What analysts pay per query (issue 33, part 2; the guard of issue 11): typical queries on
the default release (``materialize: view``, a view of the certified version's private table),
beside the same queries on a frozen table (``materialize: table``), on the guarded live view
(the ``materialize: live`` opt-in) and on the unguarded live join it reads (private), over
synthetic Adult-like rows.

    python bench/guard_cost.py --rows 1000000                   # DuckDB
    python bench/guard_cost.py --rows 1000000 --engine postgres # PostgreSQL 15 (starts a server)

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
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "support"))

from run_one import database, make_synthetic  # noqa: E402

from anonsql import api  # noqa: E402
from anonsql.demo import ADULT_QIDS, adult_spec  # noqa: E402
from anonsql.engines import Engine  # noqa: E402
from anonsql.spec.output import OutputNames  # noqa: E402
from anonsql.sql import TableName  # noqa: E402

#: Analyst queries ({r} is the relation): a count, a roll-up over two QIDs with an aggregate of
#: the sensitive column, and a filtered scan of a few rows.
QUERIES = {
    "count(*)": "SELECT count(*) FROM {r}",
    "group by sex, race": (
        "SELECT sex, race, count(*), sum(CASE WHEN class = '>50K' THEN 1 ELSE 0 END) "
        "FROM {r} GROUP BY sex, race"
    ),
    "filtered count": "SELECT count(*) FROM {r} WHERE sex = 'Female' AND race <> 'White'",
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


def spec_for(db: str, models: list[dict[str, Any]], materialize: str, name: str) -> dict[str, Any]:
    spec = adult_spec(db, k=10, name=name, acknowledged=True)
    spec["source"] = "main.adult_synth"
    kept = {*ADULT_QIDS, "class"}
    spec["columns"] = {c: v for c, v in spec["columns"].items() if c in kept}
    spec["columns"]["person_id"] = {"role": "identifier"}
    spec["output"]["materialize"] = materialize
    spec["privacy"] = models
    return spec


SETUPS: dict[str, list[dict[str, Any]]] = {
    "k-anonymity (k = 10): class guard": [{"k_anonymity": {"k": 10}}],
    "k = 10 + t-closeness (t = 0.2, class): class and table guards": [
        {"k_anonymity": {"k": 10}},
        {"t_closeness": {"column": "class", "t": 0.2}},
    ],
}


def measure(
    engine: Engine,
    db: str,
    repeat: int,
    say: Callable[[str], None],
    *,
    live: bool = True,
    setups: int = len(SETUPS),
) -> list[str]:
    lines = [
        "| models | query | frozen table (s) | release, default (s) | live join, private (s) "
        "| guarded live view (s) | release / table | guarded live / table |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for label, models in list(SETUPS.items())[:setups]:
        say(f"publishing: {label}")
        view = api.run(spec_for(db, models, "view", "adult_v"), engine=engine)
        table = api.run(spec_for(db, models, "table", "adult_t"), engine=engine)
        names: OutputNames | None = None
        if live:
            names = api.run(spec_for(db, models, "live", "adult_l"), engine=engine).names
        for query, sql in QUERIES.items():
            say(f"  {query}")
            t_table = timed(engine, sql.format(r=_q(table.names.main)), repeat)
            t_view = timed(engine, sql.format(r=_q(view.names.main)), repeat)
            row = f"| {label} | {query} | {t_table:.3f} | {t_view:.3f} | "
            if names is None:
                lines.append(f"{row}- | - | {t_view / t_table:.2f} | - |")
                continue
            t_released = timed(engine, sql.format(r=_q(names.companion("released"))), repeat)
            t_guarded = timed(engine, sql.format(r=_q(names.main)), repeat)
            lines.append(
                f"{row}{t_released:.3f} | {t_guarded:.3f} | {t_view / t_table:.2f} "
                f"| {t_guarded / t_table:.2f} |"
            )
    return lines


def _q(name: TableName) -> str:
    return name.sql()  # constants of this script, quoted by the one quoting helper


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--engine", default="duckdb", choices=["duckdb", "postgres"])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--no-live", action="store_true", help="only the default release and the frozen table"
    )
    parser.add_argument("--setups", type=int, default=len(SETUPS), help="the first N model sets")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, database(args.engine, Path(tmp)) as (engine, db):
        make_synthetic(engine, args.rows)
        lines = measure(
            engine,
            db,
            args.repeat,
            lambda m: print(m, file=sys.stderr, flush=True),
            live=not args.no_live,
            setups=args.setups,
        )
    print(
        f"{args.engine}, {args.rows:,} rows: `python bench/guard_cost.py --rows {args.rows}"
        f"{' --engine postgres' if args.engine == 'postgres' else ''}"
        f"{' --no-live' if args.no_live else ''}"
        f"{f' --setups {args.setups}' if args.setups != len(SETUPS) else ''}`\n"
    )
    print("\n".join(lines))


if __name__ == "__main__":
    main()
