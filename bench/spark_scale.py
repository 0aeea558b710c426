"""Spark at scale: the same spec on DuckDB, PostgreSQL and Spark local[2], side by side.

Each (rows, engine) runs in its own process (``bench/run_one.py``), synthetic Adult-like rows,
8 QIDs, k = 10, Mondrian. Prints a Markdown table: wall time (the run alone: loading the data and
starting Spark are not counted), its ratio to DuckDB's, rounds, statements per round, peak RSS of
the Python process (and of Spark's driver JVM), NCP.

    python bench/spark_scale.py --rows 1000000 --rows 10000000
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ENGINES = ("duckdb", "postgres", "spark")


def run_one(engine: str, rows: int, k: int) -> dict[str, Any]:
    script = Path(__file__).resolve().parent / "run_one.py"
    command = [sys.executable, str(script), "--engine", engine, "--rows", str(rows), "--k", str(k)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        # the exception's own line, not the last frame of a Java stack trace
        named = [line for line in lines if "Error" in line or "Exception" in line]
        return {"error": (named[-1:] or lines[-1:] or ["(no output)"])[0].strip()[:200]}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, action="append", help="synthetic rows (repeatable)")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--engine", action="append", choices=ENGINES, help="default: all three")
    args = parser.parse_args()
    print(
        "| rows | engine | run time | vs DuckDB | rounds | statements per round "
        "| peak RSS (Python / JVM) | NCP % | verified |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for rows in args.rows or [1_000_000]:
        duck_seconds = None
        for engine in args.engine or ENGINES:
            r = run_one(engine, rows, args.k)
            print(json.dumps({"engine": engine, **r}), file=sys.stderr, flush=True)
            if "error" in r:
                print(f"| {rows:,} | {engine} | failed: {r['error']} | | | | | | |", flush=True)
                continue
            if engine == "duckdb":
                duck_seconds = r["seconds"]
            ratio = f"{r['seconds'] / duck_seconds:.1f}x" if duck_seconds else ""
            per_round = "-".join(str(n) for n in r["statements_per_round"])
            jvm = f" / {r['jvm_peak_rss_mib'] / 1024:.1f} GiB" if r.get("jvm_peak_rss_mib") else ""
            print(
                f"| {rows:,} | {engine} | {r['seconds']:.1f} s | {ratio} | {r['rounds']} "
                f"| {per_round} | {r['peak_rss_mib'] / 1024:.1f} GiB{jvm} | {r['ncp']} "
                f"| {r['verified']} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
