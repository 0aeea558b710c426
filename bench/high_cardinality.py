"""Mondrian with a high-cardinality sensitive column, in its own process (peak RSS is its own).

A seeded table of ``--rows`` persons: numeric ``age`` and ``income``, a text ``zip`` generalized
by masking, and a sensitive ``bucket`` with exactly ``--distinct`` distinct values (think of
SA-fingerprint bucket ids). Runs Mondrian with one l-diversity (or t-closeness) model on an
in-memory DuckDB and prints one JSON line: wall time, peak RSS, classes, NCP.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from typing import Any

import numpy as np
import pyarrow as pa

from anonsql import api
from anonsql.engines import DuckDBEngine
from anonsql.sql import TableName


def make_table(rows: int, distinct: int, seed: int) -> pa.Table:
    """Every bucket id in ``range(distinct)`` occurs at least once; the rest are uniform."""
    rng = np.random.default_rng(seed)
    bucket = np.concatenate([np.arange(distinct), rng.integers(0, distinct, rows - distinct)])
    rng.shuffle(bucket)
    zips = rng.integers(10000, 10100, rows).astype(str)
    return pa.table(
        {
            "age": rng.integers(18, 91, rows),
            "income": rng.integers(10, 200, rows) * 1000,
            "zip": pa.array(zips, pa.string()),
            "bucket": bucket,
        }
    )


def privacy(model: str, l: int) -> dict[str, Any]:
    if model == "distinct":
        return {"distinct_l_diversity": {"column": "bucket", "l": l}}
    if model == "entropy":
        return {"entropy_l_diversity": {"column": "bucket", "l": float(l)}}
    if model == "recursive":
        return {"recursive_cl_diversity": {"column": "bucket", "c": 2.0, "l": l}}
    return {"t_closeness": {"column": "bucket", "t": 0.9}}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--distinct", type=int, default=20_000)
    parser.add_argument(
        "--model", default="distinct", choices=["distinct", "entropy", "recursive", "t"]
    )
    parser.add_argument("--l", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not 0 < args.distinct <= args.rows:
        parser.error("need 0 < --distinct <= --rows")
    spec: dict[str, Any] = {
        "source": "main.persons",
        "output": {"schema": "anon", "name": "persons"},
        "columns": {
            "age": {"role": "quasi_identifier", "type": "numeric"},
            "income": {"role": "quasi_identifier", "type": "numeric"},
            "zip": {"role": "quasi_identifier", "hierarchy": {"builder": "mask", "char": "*"}},
            "bucket": {"role": "sensitive"},
        },
        "privacy": [{"k_anonymity": {"k": args.l}}, privacy(args.model, args.l)],
        "algorithm": "mondrian",
    }
    with DuckDBEngine(threads=2) as engine:
        engine.load_arrow(
            TableName("persons", "main"), make_table(args.rows, args.distinct, args.seed)
        )
        start = time.perf_counter()
        result = api.run(spec, engine=engine, progress=lambda m: print(m, file=sys.stderr))
        wall = time.perf_counter() - start
    rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps(
            {
                "rows": args.rows,
                "distinct": args.distinct,
                "model": args.model,
                "l": args.l,
                "seconds": round(wall, 2),
                "peak_rss_mib": round(rss_kib / 1024, 1),
                "rounds": result.partitioning.rounds,
                "classes": result.certificate["classes"],
                "ncp": round(result.metric("ncp"), 2),
                "verified": result.certificate["verified"],
            }
        )
    )


if __name__ == "__main__":
    main()
