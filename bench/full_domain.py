"""Optimal full-domain generalization (anonsql.algorithms.full_domain: Flash over the lattice, node
evaluation in the engine) on Adult and on the synthetic Adult-like tables, beside ARX's figures.

Every configuration runs in its own process (``--one``), so peak RSS is its own. The data is put
in a file-backed DuckDB first (not timed: ARX's figures include reading its CSV, see the report);
timed are building the frequency table and the search. Prints a Markdown table.

    python bench/full_domain.py                 # Adult (ARX's data and 9 QIDs, and 8 QIDs)
    python bench/full_domain.py --rows 1e6 1e7  # + synthetic tables (8 QIDs, k = 10)
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

#: ARX 3.9 figures for the synthetic tables (8 QIDs, k = 10, whole process: JVM, CSV, search),
#: as measured for this project on this kind of machine (ENGINE_FACTS.md, issue 16).
ARX = {
    (1_000_000, 0.0): "10-12 s",
    (10_000_000, 0.0): "52-60 s",
    (1_000_000, 0.05): "53-57 s",
    (10_000_000, 0.05): "152 s",
}

SCALE_QIDS = [
    "age",
    "education_num",
    "marital_status",
    "occupation",
    "race",
    "sex",
    "native_country",
    "workclass",
]


def run_one(config: dict[str, Any]) -> dict[str, Any]:
    """Run one configuration in this process and measure it."""
    import pyarrow.csv as pa_csv

    from anonsql.algorithms.full_domain import (
        NodeEvaluator,
        build_frequency,
        full_domain_search,
        levels_from_hierarchy,
        make_objective,
        suppression_budget,
    )
    from anonsql.engines import DuckDBEngine
    from anonsql.hierarchies import read_hierarchy
    from anonsql.privacy.registry import models_from_entries
    from anonsql.sql import TableName

    began = time.perf_counter()
    rows, limit, k, objective = config["rows"], config["limit"], config["k"], config["objective"]
    with tempfile.TemporaryDirectory() as tmp, DuckDBEngine(Path(tmp) / "b.duckdb", threads=2) as e:
        if rows == "adult-arx":
            data = pa_csv.read_csv(
                ROOT / "datasets/adult-arx/adult.csv.gz",
                parse_options=pa_csv.ParseOptions(delimiter=";"),
            )
            source = TableName("adult", "main")
            e.load_arrow(source, data)
            qids = [
                levels_from_hierarchy(
                    read_hierarchy(ROOT / f"hierarchies/adult-arx/{c}.csv", name=c)
                )
                for c in data.column_names
            ]
        else:
            from synthetic import make_synthetic_adult

            if rows == "adult":
                from anonsql.samples import load_adult

                source = TableName("adult_seed", "main")
                load_adult(e, source)
            else:
                source = make_synthetic_adult(e, int(rows))
            qids = [
                levels_from_hierarchy(
                    read_hierarchy(ROOT / f"hierarchies/adult-scale/{c}.csv", name=c)
                )
                for c in SCALE_QIDS
            ]
        e.execute("CHECKPOINT")
        e.ensure_schema("fd")
        start = time.perf_counter()
        prepared = start - began
        freq = build_frequency(e, source, qids, schema="fd")
        built = time.perf_counter()
        evaluator = NodeEvaluator(
            freq,
            models_from_entries([{"k_anonymity": {"k": k}}]),
            budget=suppression_budget(freq.rows, limit),
        )
        params = {"monotonic": True} if objective == "entropy" else {}
        result = full_domain_search(
            evaluator, make_objective(objective, **params), suppression_limit=limit
        )
        done = time.perf_counter()
        ncp = make_objective("ncp")
        from anonsql.algorithms.full_domain.objectives import Marginals

        ncp.prepare(Marginals(freq.qids, freq.leaf_counts, freq.rows))
        stats = evaluator.with_profile(evaluator.evaluate(result.levels))
        evaluator.drop_rollups()
    return {
        **config,
        "source_rows": freq.rows,
        "vectors": freq.vectors,
        "prepare_s": round(prepared, 2),
        "build_s": round(built - start, 2),
        "search_s": round(done - built, 2),
        "total_s": round(done - start, 2),
        "rss_gb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 2),
        "node": list(result.levels),
        "value": result.value,
        "ncp": round(ncp.value(stats).total, 2),
        "suppressed": result.suppressed_rows,
        "lattice": result.stats.lattice_nodes,
        "checked": result.stats.checked,
        "tagged": result.stats.tagged_anonymous + result.stats.tagged_not_anonymous,
        "pruned": result.stats.pruned,
        "evaluated": result.stats.evaluated,
        "statements": result.stats.statements,
        "sql_s": round(result.stats.sql_seconds, 2),
    }


def configurations(rows: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for k, limit in ((5, 0.0), (5, 0.04), (100, 0.0), (100, 0.04)):
        out.append({"rows": "adult-arx", "k": k, "limit": limit, "objective": "entropy"})
    for r in ["adult", *rows]:
        for limit in (0.0, 0.05):
            out.append({"rows": r, "k": 10, "limit": limit, "objective": "loss"})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", nargs="*", default=[], help="synthetic sizes, e.g. 1e6 1e7")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(json.loads(args.one))))
        return
    sizes = [str(int(float(r))) for r in args.rows]
    print(
        "| data | QIDs | k | supp. | objective | node | value | NCP % | suppressed | build s "
        "| search s | total s | RSS GB | checked / tagged / pruned / lattice | statements | ARX |"
    )
    print("|" + "---|" * 16)
    for config in configurations(sizes):
        started = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, __file__, "--one", json.dumps(config)],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        r = json.loads(proc.stdout.strip().splitlines()[-1])
        wall = time.perf_counter() - started
        qids = 9 if config["rows"] == "adult-arx" else 8
        arx = ARX.get((int(r["rows"]), r["limit"]), "") if r["rows"].isdigit() else ""
        print(
            f"| {r['rows']} ({r['source_rows']:,} rows, {r['vectors']:,} vectors) | {qids} "
            f"| {r['k']} | {r['limit']:.0%} | {r['objective']} | {r['node']} | {r['value']:.6g} "
            f"| {r['ncp']} | {r['suppressed']:,} | {r['build_s']} | {r['search_s']} "
            f"| {r['total_s']} (process {wall:.1f}, data {r['prepare_s']}) | {r['rss_gb']} "
            f"| {r['checked']} / {r['tagged']} / {r['pruned']} / {r['lattice']} "
            f"| {r['statements']} ({r['sql_s']} s) | {arx} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
