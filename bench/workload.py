"""Mondrian's split rules on the analysts' own queries: ``loss``, ``widest`` and ``workload``
(LeFevre, DeWitt and Ramakrishnan, KDD 2006) on Adult and INFORMS' demographics, k = 10.

    python bench/workload.py                   # prints the BENCHMARKS.md section
    python bench/workload.py --rows 3000       # a quick check on the first rows

The workloads are ``bench/workloads/adult.yaml`` and ``bench/workloads/informs.yaml`` (24
queries each). Per dataset and rule: the workload error (mean over queries of each query's mean
relative error over its groups, docs/releases.md "Workload error") and its median over the
queries, the mean over queries of the total error, NCP,
the run's seconds (workload measurement included), and the queries where ``workload`` beats /
loses to ``loss``. One in-memory DuckDB per run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

import yaml

from anonsql import api
from anonsql.demo import adult_spec
from anonsql.engines import DuckDBEngine
from anonsql.samples import load_adult, load_informs
from anonsql.sql import TableName

HERE = Path(__file__).resolve().parent
RULES = ("auto", "loss", "widest", "workload")
K = 10


def workload(name: str) -> list[dict[str, str]]:
    queries: list[dict[str, str]] = yaml.safe_load(
        (HERE / "workloads" / f"{name}.yaml").read_text()
    )
    return queries


def adult(engine: DuckDBEngine, rows: int | None) -> dict[str, Any]:
    load_adult(engine)
    _keep(engine, TableName("adult", "main"), rows)
    spec = adult_spec(":memory:", k=K, acknowledged=True)
    spec["columns"]["hours_per_week"] = {"role": "insensitive", "acknowledge_linked": True}
    spec["workload"] = workload("adult")
    return spec


def informs(engine: DuckDBEngine, rows: int | None) -> dict[str, Any]:
    load_informs(engine)
    _keep(engine, TableName("informs_demographics", "main"), rows)
    linked = {"acknowledge_linked": True}
    return {
        "source": "main.informs_demographics",
        "output": {"schema": "anon", "name": "informs"},
        "columns": {
            "DOBMM": {"role": "quasi_identifier", "hierarchy": "informs/DOBMM.txt"},
            "DOBYY": {"role": "quasi_identifier", "type": "numeric"},
            "RACEX": {"role": "quasi_identifier", "hierarchy": "informs/RACEX.txt"},
            "EDUCYEAR": {"role": "quasi_identifier", "type": "numeric"},
            "income": {"role": "quasi_identifier", "type": "numeric"},
            "SEX": {"role": "insensitive", **linked},
            "marry": {"role": "insensitive", **linked},
            "poverty": {"role": "insensitive", **linked},
        },
        "privacy": [{"k_anonymity": {"k": K}}],
        "workload": workload("informs"),
    }


def _keep(engine: DuckDBEngine, table: TableName, rows: int | None) -> None:
    """Keep the first ``rows`` rows of ``table`` (all when None)."""
    if rows is None:
        return
    data = engine.query_arrow("select_all", relation=table).slice(0, rows)
    engine.drop(table)
    engine.load_arrow(table, data)


DATASETS = {"adult": adult, "informs": informs}


def cell(dataset: str, rule: str, rows: int | None) -> dict[str, Any]:
    with DuckDBEngine(":memory:", threads=2) as engine:
        spec = DATASETS[dataset](engine, rows)
        spec["algorithm"] = {"mondrian": {"split": rule}}
        start = time.perf_counter()
        result = api.run(spec, engine=engine)
        seconds = time.perf_counter() - start
        names = [q["name"] for q in spec["workload"]]
        return {
            "error": result.metric("workload_error"),
            "total": sum(result.metric("workload_total_error", n) for n in names) / len(names),
            "ncp": result.metric("ncp"),
            "classes": result.certificate["classes"],
            "seconds": seconds,
            "per_query": {n: result.metric("workload_error", n) for n in names},
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, help="only the first ROWS rows of each source")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS), choices=list(DATASETS))
    args = parser.parse_args()
    print(f"k = {K}; workload error = mean over queries of the mean relative error per group")
    print()
    print(
        "| dataset | split | workload error | median query error | total error | NCP % "
        "| classes | seconds |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    compared = {}
    for dataset in args.datasets:
        cells = {rule: cell(dataset, rule, args.rows) for rule in RULES}
        for rule, c in cells.items():
            median = statistics.median(c["per_query"].values())
            print(
                f"| {dataset} | {rule} | {c['error']:.4f} | {median:.4f} | {c['total']:.4f} | "
                f"{c['ncp']:.2f} | {c['classes']} | {c['seconds']:.1f} |"
            )
        compared[dataset] = cells
    print()
    print("| dataset | queries where workload < loss | = | > | largest loss for workload |")
    print("|---|---:|---:|---:|---|")
    for dataset, cells in compared.items():
        ours, loss = cells["workload"]["per_query"], cells["loss"]["per_query"]
        better = sum(ours[n] < loss[n] - 1e-12 for n in ours)
        worse = {n: ours[n] - loss[n] for n in ours if ours[n] > loss[n] + 1e-12}
        same = len(ours) - better - len(worse)
        largest = max(worse, key=lambda n: worse[n]) if worse else None
        note = f"{largest} (+{worse[largest]:.3f})" if largest else "none"
        print(f"| {dataset} | {better} | {same} | {len(worse)} | {note} |")


if __name__ == "__main__":
    main()
