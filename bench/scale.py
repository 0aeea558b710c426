"""The scale table of issue 17: whole ``anonsql run`` processes, Adult to 1e8 rows.

    python bench/scale.py                          # Adult, 1e6, 1e7 on DuckDB
    python bench/scale.py --rows 0 1e6 1e7 1e8     # and 1e8 rows (out of core; ~40 GB disk)

For each size the data is generated once into a DuckDB file (``bench/synthetic.py``: Adult-like
rows, 8 QIDs, Adult's hierarchies; ``0`` = the real Adult, 30,162 rows), then the clock starts
and ``anonsql run --json SPEC`` runs as its own process: the time a user waits, imports and
interpreter start included. Peak RSS is the child's (``getrusage``), temporary disk the largest
size the database file and DuckDB's temp folder reached beyond the input (sampled every 0.2 s).
Several repetitions give the median (``--repeat``). The table replaces the section between the
scale markers of BENCHMARKS.md (``--write``) or is printed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests" / "support"))

from run_one import bench_spec
from sections import replace_section
from synthetic import make_synthetic_adult

from anonsql.engines import DuckDBEngine
from anonsql.samples import load_adult


def _disk_usage(paths: list[Path]) -> int:
    total = 0
    for path in paths:
        if path.is_file():
            total += path.stat().st_size
        elif path.is_dir():
            total += sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return total


def prepare_duckdb(folder: Path, rows: int) -> tuple[Path, str]:
    """A DuckDB file holding the input; returns the file and the source table."""
    db = folder / "scale.duckdb"
    with DuckDBEngine(db) as engine:
        if rows:
            make_synthetic_adult(engine, rows)
            engine.execute("CHECKPOINT")
            return db, "main.adult_synth"
        load_adult(engine)
        engine.execute("CHECKPOINT")
    return db, "main.adult"


def run_process(spec_path: Path, watch: list[Path]) -> dict[str, Any]:
    """One ``anonsql run`` process: wall seconds, the child's peak RSS, disk growth, its JSON."""
    base = _disk_usage(watch)
    peak_disk = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.2):
            peak_disk[0] = max(peak_disk[0], _disk_usage(watch) - base)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    anonsql = Path(sys.executable).with_name("anonsql")
    start = time.perf_counter()
    proc = subprocess.run(
        [str(anonsql), "run", "--quiet", "--json", str(spec_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    if proc.returncode != 0:
        raise SystemExit(f"anonsql run failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    # ru_maxrss of the children is the largest of any child so far: one child per call below
    rss_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {
        "seconds": wall,
        "peak_rss_mib": rss_kib / 1024,
        "temp_disk_gib": peak_disk[0] / 2**30,
        "summary": json.loads(proc.stdout.strip().splitlines()[-1]),
    }


def measure(
    rows: int, engine: str, algorithm: str, repeat: int, k: int, memory_limit: str | None
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="anonsql-scale-") as tmp:
        folder = Path(tmp)
        db, source = prepare_duckdb(folder, rows)
        spec = bench_spec(str(db), source=source, synthetic=bool(rows), k=k, algorithm=algorithm)
        if memory_limit:
            # out of core: DuckDB spills what does not fit to the watched temp folder
            spec["engine_settings"] = {
                "memory_limit": memory_limit,
                "temp_directory": str(folder / "scale.duckdb.tmp"),
                "preserve_insertion_order": False,
            }
        spec_path = folder / "spec.yaml"
        spec_path.write_text(yaml.safe_dump(spec), encoding="utf-8")
        runs = []
        for i in range(repeat):
            # a fresh child each time, so RUSAGE_CHILDREN's maximum is this size's at most
            child = subprocess.run(
                [sys.executable, __file__, "--child", str(spec_path), str(folder)],
                capture_output=True,
                text=True,
                check=False,
            )
            if child.returncode != 0:
                raise SystemExit(child.stderr[-3000:])
            runs.append(json.loads(child.stdout.strip().splitlines()[-1]))
            print(
                f"bench: rows={rows or 'adult'} {algorithm} run {i + 1}: "
                f"{runs[-1]['seconds']:.2f} s",
                file=sys.stderr,
                flush=True,
            )
    summary = runs[0]["summary"]
    cert = summary["certificate"]
    return {
        "rows": cert.get("source_rows") or rows,
        "memory_limit": memory_limit,
        "engine": engine,
        "algorithm": algorithm,
        "seconds": statistics.median(r["seconds"] for r in runs),
        "all_seconds": [round(r["seconds"], 2) for r in runs],
        "peak_rss_mib": max(r["peak_rss_mib"] for r in runs),
        "temp_disk_gib": max(r["temp_disk_gib"] for r in runs),
        "rounds": summary.get("rounds"),
        "statements": summary.get("statements"),
        "classes": cert.get("classes"),
        "ncp": cert.get("ncp_percent"),
        "suppressed": cert.get("suppressed_rows"),
        "verified": summary.get("verified"),
    }


def table(results: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| rows | engine | algorithm | whole process s (median) | runs s | peak RSS MiB "
        "| temp disk GiB | memory_limit | rounds | statements | classes | NCP % | verified |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        ncp = r["ncp"]
        lines.append(
            f"| {r['rows']:,} | {r['engine']} | {r['algorithm']} | {r['seconds']:.2f} "
            f"| {', '.join(map(str, r['all_seconds']))} | {r['peak_rss_mib']:.0f} "
            f"| {r['temp_disk_gib']:.2f} | {r.get('memory_limit') or 'default'} "
            f"| {r['rounds']} | {r['statements']} "
            f"| {r['classes']:,} | {ncp if ncp is None else round(float(ncp), 2)} "
            f"| {r['verified']} |"
        )
    return lines


def child(spec_path: Path, folder: Path) -> None:
    watch = [folder / "scale.duckdb", folder / "scale.duckdb.wal", folder / "scale.duckdb.tmp"]
    print(json.dumps(run_process(spec_path, watch), default=str))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", nargs="+", type=float, default=[0, 1e6, 1e7])
    parser.add_argument("--algorithms", nargs="+", default=["mondrian"])
    parser.add_argument("--repeat", type=int, default=3, help="runs per size (median)")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument(
        "--memory-limit",
        default="3GB",
        help="DuckDB memory_limit (and a temp folder) for sizes of 1e8 rows and more",
    )
    parser.add_argument("--write", action="store_true", help="replace the section of BENCHMARKS.md")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(Path(args.child[0]), Path(args.child[1]))
        return
    results = []
    for rows in args.rows:
        for algorithm in args.algorithms:
            repeat = args.repeat if rows < 1e8 else 1
            # DuckDB only: PostgreSQL and Spark figures come from run_one.py / spark_scale.py
            limit = args.memory_limit if rows >= 1e8 else None
            results.append(measure(int(rows), "duckdb", algorithm, repeat, args.k, limit))
    load = os.getloadavg()
    lines = [
        f"Produced by `python bench/scale.py {' '.join(sys.argv[1:])}` on "
        f"{dt.date.today().isoformat()}, {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; load average at the end "
        f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}.",
        "",
        *table(results),
    ]
    text = "\n".join(lines)
    print(text)
    if args.write:
        replace_section("scale", text, "## Scale: whole processes (issue 17)")


if __name__ == "__main__":
    main()
