"""Spark at cluster scale on this machine: a standalone master and workers on 127.0.0.1, the
synthetic Adult-like table as Parquet, and anonsql submitted as a Spark job (the recipe of
docs/spark.md). Records the run's wall time, the peak RSS of every process (driver, master,
workers, executors: VmHWM read while they live) and the shuffle bytes written (from Spark's event
log), as one JSON line.

    PYTHONPATH=. python bench/spark_cluster.py --rows 100000000 --workers 2 --worker-memory 8g

Sizes of 1e5/1e6 check that the script works; 1e8 is for a quiet machine (the lead runs it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "support"))

from run_one import bench_spec
from spark_topology import local_conf, spark_home, standalone_cluster
from synthetic import make_synthetic_adult

from anonsql.engines import DuckDBEngine

#: The driver program spark-submit runs: anonsql.run on the files, timed, its summary as JSON.
DRIVER = """
import json, sys, time
import anonsql
spec = json.load(open(sys.argv[1]))
start = time.perf_counter()
result = anonsql.run(spec)
print(json.dumps({"seconds": round(time.perf_counter() - start, 1),
                  "rows": result.certificate["source_rows"],
                  "rounds": result.partitioning.rounds,
                  "statements": result.partitioning.statements,
                  "ncp": round(result.metric("ncp"), 2),
                  "verified": bool(result.certificate["verified"])}))
"""


def write_parquet(rows: int, folder: Path) -> Path:
    """The synthetic table (bench/synthetic.py), generated in DuckDB and written as Parquet
    part files (DuckDB streams it: no table is held in memory)."""
    target = folder / "adult_synth"
    with DuckDBEngine(str(folder / "gen.duckdb"), threads=2) as duck:
        table = make_synthetic_adult(duck, rows)
        duck.run("bench/copy_parquet", relation=table, path=str(target))
    (folder / "gen.duckdb").unlink()
    return target


class PeakMemory(threading.Thread):
    """Samples VmHWM of every Spark java process (by its role in the command line) started
    after this sampler was made, until stopped: the cluster's daemons detach from this process,
    so they are told from other Spark processes on the machine by being new."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.peaks: dict[str, float] = {}
        self.done = threading.Event()
        self.before = {p.name for p in Path("/proc").glob("[0-9]*")}

    def run(self) -> None:
        while not self.done.wait(1.0):
            for status in Path("/proc").glob("[0-9]*/status"):
                if status.parent.name in self.before:
                    continue
                try:
                    fields = dict(
                        line.split(":", 1)
                        for line in status.read_text().splitlines()
                        if ":" in line
                    )
                    command = (status.parent / "cmdline").read_bytes().split(b"\0")
                except OSError:
                    continue
                if fields.get("Name", "").strip() != "java":
                    continue
                role = _role(command)
                if role:
                    hwm = int(fields.get("VmHWM", "0 kB").split()[0]) / 1024
                    key = f"{role} {status.parent.name}"
                    self.peaks[key] = max(self.peaks.get(key, 0.0), round(hwm, 1))


def _role(command: list[bytes]) -> str | None:
    text = b" ".join(command)
    for marker, role in (
        (b"deploy.master.Master", "master"),
        (b"deploy.worker.Worker", "worker"),
        (b"CoarseGrainedExecutorBackend", "executor"),
        (b"SparkSubmit", "driver"),
    ):
        if marker in text:
            return role
    return None


def shuffle_bytes(event_logs: Path) -> int:
    """Shuffle bytes written by every task of the application (Spark's event log: a file, or
    with rolling logs, Spark 4's default, a folder ``eventlog_v2_<app>`` of ``events_*`` files)."""
    total = 0
    for log in event_logs.rglob("*"):
        if not log.is_file() or log.name.startswith("appstatus"):
            continue
        for line in log.read_text(errors="replace").splitlines():
            if '"SparkListenerTaskEnd"' not in line:
                continue
            metrics: dict[str, Any] = json.loads(line).get("Task Metrics") or {}
            total += int(
                (metrics.get("Shuffle Write Metrics") or {}).get("Shuffle Bytes Written", 0)
            )
    return total


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worker-cores", type=int, default=1)
    parser.add_argument("--worker-memory", default="2g")
    parser.add_argument("--driver-memory", default="2g")
    parser.add_argument("--shuffle-partitions", type=int, default=8)
    parser.add_argument("--folder", type=Path, default=None, help="default: a temporary one")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="anonsql-cluster-") as tmp:
        folder = args.folder or Path(tmp)
        generating = time.perf_counter()
        files = write_parquet(args.rows, folder)
        generated = time.perf_counter() - generating
        input_bytes = sum(f.stat().st_size for f in files.rglob("*") if f.is_file())
        spec = bench_spec("", source=f"parquet:{files}", synthetic=True, k=args.k)
        spec.update(engine="spark", database=None)
        spec.pop("database")
        (folder / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
        (folder / "driver.py").write_text(DRIVER, encoding="utf-8")
        events = folder / "events"
        events.mkdir(exist_ok=True)
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "PYSPARK_PYTHON": sys.executable,
            "PYSPARK_DRIVER_PYTHON": sys.executable,
            "SPARK_LOCAL_IP": "127.0.0.1",
        }
        memory = PeakMemory()
        memory.start()
        with standalone_cluster(
            folder / "cluster",
            workers=args.workers,
            cores=args.worker_cores,
            memory=args.worker_memory,
        ) as cluster:
            start = time.perf_counter()
            done = subprocess.run(
                [
                    str(spark_home() / "bin" / "spark-submit"),
                    "--master",
                    cluster.master,
                    "--driver-memory",
                    args.driver_memory,
                    "--executor-memory",
                    args.worker_memory,
                    *local_conf(folder / "driver"),
                    "--conf",
                    f"spark.sql.shuffle.partitions={args.shuffle_partitions}",
                    "--conf",
                    "spark.eventLog.enabled=true",
                    "--conf",
                    f"spark.eventLog.dir={events}",
                    # plain JSON lines (Spark 4 compresses event logs with zstd by default)
                    "--conf",
                    "spark.eventLog.compress=false",
                    str(folder / "driver.py"),
                    str(folder / "spec.json"),
                ],
                capture_output=True,
                text=True,
                env=env,
                check=False,
            )
            submitted = time.perf_counter() - start
        memory.done.set()
        memory.join()
        if done.returncode != 0:
            print(json.dumps({"error": done.stderr.strip().splitlines()[-1:]}))
            sys.exit(1)
        run = json.loads(done.stdout.strip().splitlines()[-1])
        print(
            json.dumps(
                {
                    **run,
                    "workers": args.workers,
                    "worker_cores": args.worker_cores,
                    "submit_seconds": round(submitted, 1),
                    "generate_seconds": round(generated, 1),
                    "input_parquet_bytes": input_bytes,
                    "peak_rss_mib": memory.peaks,
                    "shuffle_bytes_written": shuffle_bytes(events),
                }
            )
        )


if __name__ == "__main__":
    main()
