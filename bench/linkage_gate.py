"""What the linkage gate costs (anonsql.measure.linkage): the full-set evaluation every run
pays (one recovery query covering every quasi-identifier, one refined check per model), and the
explanation a refusal adds (singles, then pairs), beside the whole run, on Adult and on
synthetic Adult-like rows.

    python bench/linkage_gate.py --rows 100000                    # DuckDB
    python bench/linkage_gate.py --rows 1000000 --engine postgres # PostgreSQL (starts a server)

The release is the demo's (8 quasi-identifiers, k = 10) with ``class`` (sensitive) and
``hours_per_week`` (insensitive) published acknowledged, so it always publishes; the gate is
then timed over those two columns on the released rows: it fails (hours_per_week splits the
classes), so the explanation runs too. Prints the BENCHMARKS.md rows.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "support"))

from run_one import database, make_synthetic  # noqa: E402

from anonsql import api  # noqa: E402
from anonsql.demo import adult_spec  # noqa: E402
from anonsql.engines import Engine  # noqa: E402
from anonsql.measure.linkage import measure_linkage, release_target  # noqa: E402
from anonsql.release import read_release  # noqa: E402
from anonsql.resolve.linked import LinkageColumns  # noqa: E402
from anonsql.samples import load_adult  # noqa: E402
from anonsql.sql import TableName  # noqa: E402

COLUMNS = LinkageColumns(
    recovery=("class", "hours_per_week"), classes=("hours_per_week",), sensitive=("class",)
)


def spec_for(db: str, source: str) -> dict[str, Any]:
    spec = adult_spec(db, k=10, name="linkage")
    spec["source"] = source
    spec["columns"]["class"] = {"role": "sensitive", "acknowledge_linked": True}
    spec["columns"]["hours_per_week"] = {"role": "insensitive", "acknowledge_linked": True}
    return spec


def measure(engine: Engine, db: str, source: str, label: str) -> str:
    start = time.perf_counter()
    result = api.run(spec_for(db, source), engine=engine)
    run = time.perf_counter() - start
    release = read_release(engine, result.names.main, fix="run it first")
    target = replace(release_target(engine, release, relations="released"), columns=COLUMNS)
    before = engine.stats.statements
    start = time.perf_counter()
    gate = measure_linkage(target, explained=False)
    gate_s = time.perf_counter() - start
    gate_queries = engine.stats.statements - before
    start = time.perf_counter()
    explained = measure_linkage(target)
    explain_s = time.perf_counter() - start - gate_s
    recovered = sum(gate.recovered.values())
    violations = sum(gate.refined.values())
    return (
        f"| {label} | {result.certificate['published_rows']:,} | {run:.2f} | {gate_s:.2f} "
        f"({gate_queries} queries) | {explain_s:.2f} ({explained.queries} evaluations) "
        f"| {recovered} | {violations} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--engine", default="duckdb", choices=["duckdb", "postgres"])
    args = parser.parse_args()
    lines = [
        "| table | rows | run (s) | gate (s) | explanation (s) | recovered rows "
        "| refined violations |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    with tempfile.TemporaryDirectory() as tmp, database(args.engine, Path(tmp)) as (engine, db):
        load_adult(engine)
        lines.append(measure(engine, db, "main.adult", "Adult"))
        make_synthetic(engine, args.rows)
        source = str(TableName("adult_synth", "main"))
        lines.append(measure(engine, db, source, f"synthetic {args.rows:,}"))
    print(
        f"{args.engine}: `python bench/linkage_gate.py --rows {args.rows}"
        f"{' --engine postgres' if args.engine == 'postgres' else ''}`\n"
    )
    print("\n".join(lines))


if __name__ == "__main__":
    main()
