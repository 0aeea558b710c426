"""PostgreSQL beside DuckDB for one run (issue 33): ``run_one.py`` on each engine, alternated
in separate processes so both see the same load, and the PostgreSQL / DuckDB ratio per pair.

    python bench/postgres_speed.py --rows 1000000 --pairs 3

Prints one JSON line per run and a BENCHMARKS.md table with the load average beside each pair.
The analysts' side (queries on the release against a frozen table) is bench/guard_cost.py.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(engine: str, rows: int) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, str(HERE / "run_one.py"), "--engine", engine, "--rows", str(rows)],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(HERE.parent)},
    )
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--pairs", type=int, default=1)
    args = parser.parse_args()
    lines = ["| pair | load (1 min) | DuckDB (s) | PostgreSQL (s) | PostgreSQL / DuckDB |"]
    lines.append("|---:|---:|---:|---:|---:|")
    ratios = []
    for pair in range(1, args.pairs + 1):
        load = os.getloadavg()[0]
        duck, pg = run("duckdb", args.rows), run("postgres", args.rows)
        print(json.dumps({"duckdb": duck, "postgres": pg}), flush=True)
        d, p = float(str(duck["seconds"])), float(str(pg["seconds"]))
        ratios.append(p / d)
        lines.append(f"| {pair} | {load:.1f} | {d:.1f} | {p:.1f} | {p / d:.1f}x |")
    lines.append(f"\nmedian ratio at {args.rows:,} rows: {statistics.median(ratios):.1f}x")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
