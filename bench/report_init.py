"""What `anonsql init`, `run --dry-run` and the HTML report cost beside a run, on Adult (30,162
rows, DuckDB file): medians of REPEATS, printed as a Markdown table with ratios to the run.

    python bench/report_init.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from anonsql import api
from anonsql.demo import adult_spec
from anonsql.engines import DuckDBEngine
from anonsql.init import init_spec
from anonsql.report.html import render_report
from anonsql.samples import load_adult
from anonsql.sql import TableName


def timed(step: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    repeats = parser.parse_args().repeats
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "adult.duckdb"
        with DuckDBEngine(db) as engine:
            load_adult(engine)
            spec = api.as_spec(adult_spec(str(db), k=10))
            figures = {
                "run (k = 10, Mondrian)": timed(lambda: api.run(spec, engine=engine), repeats),
                "run --dry-run (plan)": timed(lambda: api.plan(spec, engine=engine), repeats),
                "init (profile, suggestions, risk)": timed(
                    lambda: init_spec(engine, TableName("adult", "main")), repeats
                ),
                "report (HTML)": timed(
                    lambda: render_report(engine, TableName("adult", "anon")), repeats
                ),
            }
            size = len(render_report(engine, TableName("adult", "anon")).encode())
    base = figures["run (k = 10, Mondrian)"]
    print("| step | seconds | / run |")
    print("|---|---|---|")
    for name, seconds in figures.items():
        print(f"| {name} | {seconds:.2f} | {seconds / base:.2f} |")
    print(f"\nreport size: {size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
