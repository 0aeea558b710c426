"""One 1:M benchmark configuration in its own process (peak RSS is its own).

    python bench/run_one_1m.py --informs --k 10 --l 5
    python bench/run_one_1m.py --persons 1000000 --k 10 --l 5

INFORMS 2005 (two tables joined by anonsql, the spec of examples/informs.yaml) or the
synthetic 1:M generator (bench/synthetic_1m.py: persons with 1..8 items, Zipf item popularity,
a fan-out-5 item hierarchy of 3,125 leaves). Prints one JSON line: wall time of the run
(generation and loading excluded), peak RSS, rounds, statements, QID-NCP, SA-NCP, buckets.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "support"))

from run_one import database
from synthetic_1m import make_synthetic_1m

from anonsql import api
from anonsql.engines import Engine
from anonsql.samples import load_informs


def informs_spec(db: str, k: int, l: int) -> dict[str, Any]:
    spec = yaml.safe_load((HERE.parent / "examples" / "informs.yaml").read_text(encoding="utf-8"))
    spec["database"] = db
    spec["privacy"] = [{"kl_diversity": {"column": "ICD9CODX", "k": k, "l": l}}]
    return dict(spec)


def synthetic_spec(engine: Engine, db: str, persons: int, k: int, l: int, tmp: Path) -> Any:
    made = make_synthetic_1m(engine, persons, hierarchy_dir=tmp / "hierarchies")
    engine.execute("CHECKPOINT" if engine.name == "duckdb" else "ANALYZE")
    spec = {
        "engine": engine.name,
        "database": db,
        "source": str(made.items),
        "join": [{"table": str(made.persons), "using": "person_id"}],
        "person_id": "person_id",
        "output": {"schema": "anon", "name": "synthetic"},
        "columns": {
            "age": {"role": "quasi_identifier", "type": "numeric"},
            "zip": {"role": "quasi_identifier", "type": "numeric"},
            "sex": {"role": "quasi_identifier", "hierarchy": str(made.hierarchies["sex"])},
            "marital": {"role": "quasi_identifier", "hierarchy": str(made.hierarchies["marital"])},
            "item": {"role": "sensitive", "hierarchy": str(made.hierarchies["item"])},
        },
        "privacy": [{"kl_diversity": {"column": "item", "k": k, "l": l}}],
    }
    return spec, made.item_rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--informs", action="store_true", help="INFORMS 2005 instead of synthetic")
    parser.add_argument("--persons", type=int, default=100_000)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--l", type=int, default=5)
    parser.add_argument("--engine", default="duckdb", choices=["duckdb", "postgres"])
    parser.add_argument("--trace-heap", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, database(args.engine, Path(tmp)) as (engine, db):
        if args.informs:
            load_informs(engine)
            spec = informs_spec(db, args.k, args.l)
            spec["engine"] = args.engine
        else:
            spec, _ = synthetic_spec(engine, db, args.persons, args.k, args.l, Path(tmp))
        if args.trace_heap:
            tracemalloc.start()
        start = time.perf_counter()
        result = api.run(
            spec, engine=engine, progress=lambda m: print(m, file=sys.stderr, flush=True)
        )
        wall = time.perf_counter() - start
        heap_peak = tracemalloc.get_traced_memory()[1] if args.trace_heap else 0
        tracemalloc.stop()
    rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    person = json.loads(result.certificate["person_level"])
    print(
        json.dumps(
            {
                "data": "informs" if args.informs else "synthetic",
                "engine": args.engine,
                "rows": result.certificate["source_rows"],
                "persons": person["persons"],
                "k": args.k,
                "l": args.l,
                "seconds": round(wall, 2),
                "peak_rss_mib": round(rss_kib / 1024, 1),
                "python_heap_peak_mib": round(heap_peak / 2**20, 1) if args.trace_heap else None,
                "rounds": result.partitioning.rounds,
                "statements": result.partitioning.statements,
                "buckets": person["fingerprint_buckets"],
                "classes": result.certificate["classes"],
                "qid_ncp": round(result.metric("ncp"), 2),
                "sa_ncp": round(result.metric("sa_ncp"), 2),
                "verified": result.certificate["verified"],
            }
        )
    )


if __name__ == "__main__":
    main()
