"""Spark jobs per statement and per phase of one run (local[2]): where Spark's per-job cost goes.

Spark's cost is per job (scheduling, a stage per shuffle), so the figure to fold is jobs, not
statements. Every statement anonsql sends is seen by an engine listener; the jobs it started are
read from Spark's status tracker (the highest job id so far) when the next one is sent, and so
are the seconds until then (the statement and the driver's work on its answer). Prints JSON: the
run's seconds, statements, jobs, jobs per Mondrian round, and the statement shapes (their first
words) that started the most jobs and that took the most seconds.

    PYTHONPATH=. python bench/spark_jobs.py --rows 100000
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run_one import bench_spec, database, make_synthetic

from anonsql import api


class JobCounter:
    """Jobs started by each statement (attributed when the next statement is sent) and by each
    phase of the run (the progress messages)."""

    def __init__(self, engine: Any) -> None:
        self.tracker = engine.spark.sparkContext.statusTracker()
        self.last = self.jobs()
        self.clock = time.perf_counter()
        self.shape = "(before the first statement)"
        self.phase = "start"
        self.by_shape: Counter[str] = Counter()
        self.statements_by_shape: Counter[str] = Counter()
        self.by_phase: Counter[str] = Counter()
        self.seconds_by_shape: Counter[str] = Counter()
        self.seconds_by_phase: Counter[str] = Counter()
        #: (phase, shape, jobs, seconds) of each statement or driver call, in order
        self.timeline: list[tuple[str, str, int, float]] = []

    def jobs(self) -> int:
        ids = self.tracker.getJobIdsForGroup(None)
        return max(ids) + 1 if ids else 0

    def settle(self) -> None:
        now = self.jobs()
        jobs = now - self.last
        self.by_shape[self.shape] += jobs
        self.by_phase[self.phase] += jobs
        self.last = now
        clock = time.perf_counter()
        self.seconds_by_shape[self.shape] += clock - self.clock
        self.seconds_by_phase[self.phase] += clock - self.clock
        self.timeline.append((self.phase, self.shape, jobs, clock - self.clock))
        self.clock = clock

    def statement(self, sql: str) -> None:
        self.settle()
        self.shape = _shape(sql)
        self.statements_by_shape[self.shape] += 1

    def call(self, label: str) -> None:
        """A driver call that may start jobs without sending a statement (an Arrow load, a
        catalog listing): its jobs are its own, not the previous statement's."""
        self.settle()
        self.shape = label
        self.statements_by_shape[label] += 0

    def wrap(self, engine: Any, names: tuple[str, ...]) -> None:
        for name in names:
            method = getattr(engine, name)

            def wrapped(*args: Any, __method: Any = method, __name: str = name, **kw: Any) -> Any:
                self.call(f"({__name})")
                return __method(*args, **kw)

            setattr(engine, name, wrapped)

    def progress(self, message: str) -> None:
        self.settle()
        self.phase = " ".join(message.split()[:1]) or "?"  # validating, partitioning, publishing


def _shape(sql: str) -> str:
    """The statement's kind and the first relation it names (no values)."""
    words = re.sub(r"'(?:[^']|'')*'", "?", sql).split()
    named = next((w for w in words if "." in w and "`" in w), "")
    return " ".join(words[:3]) + (f" {re.sub(r'__v[0-9a-f_]+', '__v*', named)}" if named else "")


def _rounded(seconds: Counter[str]) -> dict[str, float]:
    return {key: round(value, 1) for key, value in seconds.most_common()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--max-rows-in-memory", type=int, default=None)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument(
        "--timeline",
        type=float,
        default=None,
        help="also list, in order, every statement or "
        "driver call that started a job or took at least this many seconds",
    )
    parser.add_argument(
        "--conf", action="append", default=[], help="a Spark setting for the run: key=value"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, database("spark", Path(tmp)) as (engine, db):
        make_synthetic(engine, args.rows)
        engine.apply_settings(dict(c.split("=", 1) for c in args.conf))
        options: dict[str, object] = {}
        if args.max_rows_in_memory is not None:
            options["max_rows_in_memory"] = args.max_rows_in_memory
        spec = bench_spec(db, source="main.adult_synth", synthetic=True, k=args.k, options=options)
        spec["engine"] = "spark"
        counter = JobCounter(engine)
        engine.listeners.append(counter.statement)
        counter.wrap(engine, ("load_arrow", "_relations", "_schemas", "columns"))
        load = os.getloadavg()[0]
        start = counter.clock = time.perf_counter()
        result = api.run(spec, engine=engine, progress=counter.progress)
        seconds = time.perf_counter() - start
        counter.settle()
    total = sum(counter.by_phase.values())
    print(
        json.dumps(
            {
                "rows": args.rows,
                "seconds": round(seconds, 1),
                "load_average": [round(load, 2), round(os.getloadavg()[0], 2)],
                "statements": sum(counter.statements_by_shape.values()),
                "jobs": total,
                "rounds": result.partitioning.rounds,
                "rounds_in_memory": result.partitioning.rounds_in_memory,
                "partitioning_jobs_per_round": round(
                    counter.by_phase["partitioning"] / max(result.partitioning.rounds, 1), 1
                ),
                "jobs_by_phase": dict(counter.by_phase.most_common()),
                "seconds_by_phase": _rounded(counter.seconds_by_phase),
                "top_statements": [
                    {
                        "shape": s,
                        "jobs": n,
                        "statements": counter.statements_by_shape[s],
                        "seconds": round(counter.seconds_by_shape[s], 2),
                    }
                    for s, n in counter.by_shape.most_common(args.top)
                ],
                "slowest_statements": [
                    {
                        "shape": s,
                        "seconds": round(t, 2),
                        "jobs": counter.by_shape[s],
                        "statements": counter.statements_by_shape[s],
                    }
                    for s, t in counter.seconds_by_shape.most_common(args.top)
                ],
                "verified": result.certificate["verified"],
                "timeline": [
                    f"{phase} | {shape} | {jobs} jobs | {seconds:.2f} s"
                    for phase, shape, jobs, seconds in counter.timeline
                    if args.timeline is not None and (jobs or seconds >= args.timeline)
                ],
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
