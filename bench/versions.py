"""What versions cost (anonsql.versions): a simulated month of daily changes re-certified as
versions, beside a full run.

    python bench/versions.py --rows 100000 --days 30        # the month: NCP and staleness
    python bench/versions.py --rows 1000000 --days 3        # re-certification beside a full run
    python bench/versions.py --rows 10000000 --days 1 --no-full-run   # 1e7: beside version 1
    python bench/versions.py --rows 1000000 --days 3 --engine postgres  # a PostgreSQL server

Day 0 publishes version 1 of synthetic Adult-like rows (bench/synthetic.py; the demo's 8
quasi-identifiers, k = 10, distinct 2-diversity of the income class). Each day then deletes
``--delete`` of the rows (picked by a hash of the row and the day) and inserts ``--insert`` of
them from a pool of further synthetic rows, and anonsql publishes the next version: insertions
are partitioned among themselves, deletions leave in batches that satisfy the models. After the
last day a full run over the same source (another output, no history) gives what holding back
costs: its NCP and its time beside the version's. Prints one JSON line per day and the
BENCHMARKS.md rows.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run_one import database  # noqa: E402
from synthetic import make_synthetic_adult  # noqa: E402

from anonsql import api  # noqa: E402
from anonsql.demo import adult_spec  # noqa: E402
from anonsql.engines import DuckDBEngine, Engine  # noqa: E402
from anonsql.sql import TableName  # noqa: E402

SOURCE = TableName("adult", "main")
POOL = TableName("adult_pool", "main")


def spec_for(db: str, name: str, engine: str = "duckdb") -> dict[str, Any]:
    spec = adult_spec(db, k=10, name=name, acknowledged=True)
    spec["engine"] = engine
    spec["privacy"].append({"distinct_l_diversity": {"column": "class", "l": 2}})
    return spec


def template_times() -> dict[str, float]:
    """Engine seconds per template so far, when run under bench/template_profile.py."""
    profile = sys.modules.get("template_profile") or sys.modules.get("__main__")
    times = getattr(profile, "TIMES", None)
    return {k: v[1] for k, v in times.items()} if times else {}


def timed_run(engine: Engine, spec: dict[str, Any]) -> dict[str, Any]:
    before = engine.stats.statements
    profiled = template_times()
    start = time.perf_counter()
    result = api.run(spec, engine=engine)
    seconds = time.perf_counter() - start
    spent = {k: v - profiled.get(k, 0.0) for k, v in template_times().items()}
    top = sorted(((v, k) for k, v in spent.items() if v > 0.02), reverse=True)[:40]
    if top:
        print("  top templates: " + ", ".join(f"{k} {v:.2f}" for v, k in top), file=sys.stderr)
    certificate = result.certificate
    status = api.status(engine, result.names.main)
    return {
        "seconds": round(seconds, 3),
        "statements": engine.stats.statements - before,
        "version": certificate.get("version"),
        "published_rows": int(certificate["published_rows"]),
        "source_rows": int(certificate["source_rows"]),
        "held_rows": status.held_rows,
        "new_rows": status.new_rows,
        "pending_deletions": status.pending_deletions,
        "ncp": round(float(certificate["ncp_percent"]), 3),
        "classes": int(certificate["classes"]),
    }


def make_pool(engine: Engine, rows: int) -> None:
    """The pool of synthetic rows, generated in DuckDB (its hash) and copied to another engine."""
    if isinstance(engine, DuckDBEngine):
        make_synthetic_adult(engine, rows, target=POOL)
        return
    with DuckDBEngine() as scratch:
        make_synthetic_adult(scratch, rows, target=POOL)
        engine.load_arrow(POOL, scratch.query_arrow("select_all", relation=POOL))


def simulate(args: argparse.Namespace, tmp: Path) -> list[dict[str, Any]]:
    inserted = max(1, round(args.rows * args.insert))
    every = max(1, round(1 / args.delete))
    days: list[dict[str, Any]] = []
    with database(args.engine, tmp) as (engine, db):
        make_pool(engine, args.rows + args.days * inserted)
        engine.run("bench/versions_source", target=SOURCE, pool=POOL, rows=args.rows)
        engine.analyze(SOURCE)
        spec = spec_for(db, "adult", args.engine)
        days.append({"day": 0, **timed_run(engine, spec)})
        print(json.dumps(days[-1]), flush=True)
        for day in range(1, args.days + 1):
            start = args.rows + (day - 1) * inserted
            engine.run(
                "bench/versions_day",
                source=SOURCE,
                pool=POOL,
                day=day,
                every=every,
                start=start,
                stop=start + inserted,
            )
            engine.analyze(SOURCE)
            days.append({"day": day, **timed_run(engine, spec)})
            print(json.dumps(days[-1]), flush=True)
        if args.full_run:
            full = spec_for(db, "adult_full", args.engine)
            fresh = {"day": "full", **timed_run(engine, full)}
        else:  # version 1 stands for it (a full run that also starts the history)
            fresh = {**days[0], "day": "full (version 1)"}
        print(json.dumps(fresh), flush=True)
        days.append(fresh)
    return days


def rows_for_benchmarks(args: argparse.Namespace, days: list[dict[str, Any]]) -> list[str]:
    first, daily, full = days[0], days[1:-1], days[-1]
    last = daily[-1]
    mean = statistics.mean(d["seconds"] for d in daily)
    stale = [d["held_rows"] + d["new_rows"] + d["pending_deletions"] for d in daily]
    return [
        "| rows | days | version 1 (s) | a day's version, mean (s) | full run (s) | ratio "
        "| NCP v1 / day-N version / full run (%) | rows not shown, mean / max "
        "(held back + deleted still served) |",
        "|---|---|---|---|---|---|---|---|",
        f"| {args.rows:,} | {args.days} | {first['seconds']:.2f} | {mean:.2f} "
        f"| {full['seconds']:.2f} ({full['day']}) | {mean / full['seconds']:.2f} "
        f"| {first['ncp']:.2f} / {last['ncp']:.2f} / {full['ncp']:.2f} "
        f"| {statistics.mean(stale):,.0f} / {max(stale):,} |",
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--insert", type=float, default=0.01)
    parser.add_argument("--delete", type=float, default=0.005)
    parser.add_argument(
        "--no-full-run",
        dest="full_run",
        action="store_false",
        help="compare with version 1 instead of a full run over the last day's source",
    )
    parser.add_argument("--engine", default="duckdb", choices=["duckdb", "postgres"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        days = simulate(args, Path(tmp))
    print("\n".join(rows_for_benchmarks(args, days)))


if __name__ == "__main__":
    main()
