"""One benchmark configuration in its own process, so peak RSS is this configuration's alone.

Prints one JSON line: wall time, peak RSS, Python heap peak, rounds, statements per round, NCP.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import signal
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

from pg_server import start_server
from synthetic import make_synthetic_adult

from anonsql import api
from anonsql.demo import ADULT_QIDS, adult_spec
from anonsql.engines import DuckDBEngine, Engine, PostgresEngine
from anonsql.samples import load_adult
from anonsql.sql import TableName


@contextlib.contextmanager
def database(kind: str, tmp: Path) -> Iterator[tuple[Engine, str]]:
    """A file-backed DuckDB, or a fresh PostgreSQL server on loopback (tests/pg_server.py)."""
    if kind == "duckdb":
        db = str(tmp / "bench.duckdb")
        with DuckDBEngine(db, threads=2) as engine:
            yield engine, db
        return
    if kind == "spark":
        # local[2] with its warehouse in the temporary folder (anonsql.engines.spark.engine)
        from anonsql.engines.spark.engine import SparkEngine

        conf = {"spark.sql.warehouse.dir": str(tmp / "warehouse")}
        with SparkEngine("local[2]", conf=conf) as engine:
            engine.create_schema("main")
            yield engine, "local[2]"
        return
    server = start_server()
    try:
        with PostgresEngine(server.dsn) as engine:
            engine.create_schema("main")
            yield engine, server.dsn
    finally:
        server.stop()


def make_synthetic(engine: Engine, rows: int) -> None:
    """Generate in DuckDB (the generator uses DuckDB's hash) and copy over if needed."""
    if isinstance(engine, DuckDBEngine):
        make_synthetic_adult(engine, rows)
        engine.execute("CHECKPOINT")
        return
    with DuckDBEngine() as scratch:
        make_synthetic_adult(scratch, rows)
        table = TableName("adult_synth", "main")
        if engine.name == "spark":
            load_through_parquet(engine, scratch, table)
            return
        engine.load_arrow(table, scratch.query_arrow("select_all", relation=table))
    if isinstance(engine, PostgresEngine):
        engine.execute("ANALYZE")


def load_through_parquet(engine: Engine, scratch: DuckDBEngine, table: TableName) -> None:
    """How a table of 1e7 rows reaches Spark: a Parquet file it reads in parallel (one Arrow
    table through the driver would need the driver's heap to hold all of it)."""
    import pyarrow.parquet as pq

    with tempfile.TemporaryDirectory(prefix="anonsql-bench-") as folder:
        path = Path(folder) / "table.parquet"
        writer = None
        for batch in scratch.query_batches("select_all", relation=table):
            writer = writer or pq.ParquetWriter(path, batch.schema)
            writer.write_batch(batch)
        if writer is not None:
            writer.close()
        frame = engine.spark.read.parquet(str(path))  # type: ignore[attr-defined]
        frame.write.saveAsTable(f"{table.schema}.{table.name}")


def _jvm_peak_mib(engine: Engine) -> float | None:
    """Spark's driver JVM runs in a descendant process: its peak RSS (VmHWM), read before it
    stops."""
    if engine.name != "spark":
        return None
    status: dict[int, tuple[int, str, int]] = {}  # pid -> (parent, name, VmHWM KiB)
    for path in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(
                line.split(":", 1) for line in path.read_text().splitlines() if ":" in line
            )
        except OSError:
            continue
        hwm = int(fields.get("VmHWM", "0 kB").split()[0])
        status[int(path.parent.name)] = (int(fields["PPid"]), fields["Name"].strip(), hwm)

    def descends(pid: int) -> bool:
        while pid in status and pid > 1:
            pid = status[pid][0]
            if pid == os.getpid():
                return True
        return False

    peak = max((h for p, (_, n, h) in status.items() if n == "java" and descends(p)), default=0)
    return round(peak / 1024, 1) if peak else None


def bench_spec(
    db: str,
    *,
    source: str,
    synthetic: bool,
    k: int,
    algorithm: str = "mondrian",
    options: dict[str, object] | None = None,
    suppression: float = 0.0,
    max_partitions_per_round: int | None = None,
    objective: str = "ncp",
    l_diversity: int = 0,
) -> dict[str, Any]:
    """The benchmark spec: Adult's 8 QIDs with the shipped hierarchies (the demo's spec), on
    the real Adult or a synthetic table (which has the QIDs, hours_per_week and class)."""
    # the synthetic class is drawn at random: a few rows give a QID away, which the linkage
    # gate refuses unless acknowledged (the gate's query still runs)
    spec = adult_spec(db, k=k, acknowledged=synthetic)
    spec["source"] = source
    if synthetic:
        kept = {*ADULT_QIDS, "hours_per_week", "class"}
        spec["columns"] = {c: v for c, v in spec["columns"].items() if c in kept}
        spec["columns"]["person_id"] = {"role": "identifier"}
    mondrian_options: dict[str, object] = dict(options or {})
    if max_partitions_per_round:
        mondrian_options["max_partitions_per_round"] = max_partitions_per_round
    if algorithm == "mondrian":
        spec["algorithm"] = {"mondrian": mondrian_options} if mondrian_options else "mondrian"
    elif algorithm == "full_domain":
        spec["algorithm"] = {"full_domain": {"objective": objective}}
    else:
        spec["algorithm"] = algorithm
    spec["suppression_limit"] = suppression
    if l_diversity:
        spec["columns"]["occupation"] = {"role": "sensitive"}
        spec["privacy"] = [{"distinct_l_diversity": {"column": "occupation", "l": l_diversity}}]
    return spec


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=0, help="synthetic rows; 0 = the real Adult")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--l", type=int, default=0, help="distinct l-diversity on occupation")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--categorical-split", default="grouped", choices=["grouped", "strict"])
    parser.add_argument("--split", default="loss", choices=["auto", "gain_ratio", "loss", "widest"])
    parser.add_argument("--suppression", type=float, default=0.0, help="suppression limit")
    parser.add_argument("--engine", default="duckdb", choices=["duckdb", "postgres", "spark"])
    parser.add_argument("--max-partitions-per-round", type=int, default=None)
    parser.add_argument(
        "--algorithm",
        default="mondrian",
        choices=["mondrian", "hilbert", "idistance", "full_domain"],
    )
    parser.add_argument(
        "--objective", default="ncp", help="full_domain: the objective it minimizes"
    )
    parser.add_argument(
        "--query-accuracy",
        action="store_true",
        help="also measure the KL divergence of the seeded OLAP workload (SA = class, seed 0)",
    )
    parser.add_argument(
        "--trace-heap",
        action="store_true",
        help="measure the Python heap peak with tracemalloc (slows the run)",
    )
    args = parser.parse_args()
    # a terminated benchmark stops its PostgreSQL server and Spark session on the way out
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with tempfile.TemporaryDirectory() as tmp, database(args.engine, Path(tmp)) as (engine, db):
        if args.rows:
            make_synthetic(engine, args.rows)
            source = "main.adult_synth"
        else:
            load_adult(engine)
            source = "main.adult"
        spec = bench_spec(
            db,
            source=source,
            synthetic=bool(args.rows),
            k=args.k,
            algorithm=args.algorithm,
            options={"categorical_split": args.categorical_split, "split": args.split},
            suppression=args.suppression,
            max_partitions_per_round=args.max_partitions_per_round,
            objective=args.objective,
            l_diversity=args.l,
        )
        spec["engine"] = args.engine
        if args.trace_heap:
            tracemalloc.start()
        start = time.perf_counter()
        result = api.run(
            spec, engine=engine, progress=lambda m: print(m, file=sys.stderr, flush=True)
        )
        wall = time.perf_counter() - start
        accuracy = (
            api.query_accuracy(engine, result.names.main, seed=0, sa_column="class").summary()
            if args.query_accuracy
            else None
        )
        heap_peak = tracemalloc.get_traced_memory()[1] if args.trace_heap else 0
        jvm_peak_mib = _jvm_peak_mib(engine)
        tracemalloc.stop()
    rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    per_round = result.partitioning.statements_per_round
    print(
        json.dumps(
            {
                "rows": result.certificate["source_rows"],
                "k": args.k,
                "l": args.l,
                "algorithm": args.algorithm,
                "categorical_split": args.categorical_split,
                "seconds": round(wall, 2),
                "peak_rss_mib": round(rss_kib / 1024, 1),
                "jvm_peak_rss_mib": jvm_peak_mib,
                "python_heap_peak_mib": round(heap_peak / 2**20, 1) if args.trace_heap else None,
                "rounds": result.partitioning.rounds,
                "statements_per_round": sorted(set(per_round)),
                "statements": result.partitioning.statements,
                "classes": result.certificate["classes"],
                "ncp": round(result.metric("ncp"), 2),
                "verified": result.certificate["verified"],
                "suppressed": result.certificate["suppressed_rows"],
                "search": json.loads(str(result.certificate.get("search") or "null")),
                "kl": accuracy["kl_mean"] if accuracy else None,
                "kl_by_dimension": accuracy["kl_by_dimension"] if accuracy else None,
                "kl_seconds": accuracy["seconds"] if accuracy else None,
            }
        )
    )


if __name__ == "__main__":
    main()
