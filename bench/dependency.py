"""Dependency-preserving generalization benchmark: dependency loss, NCP and time of PAIR-ENUM,
k-ASSEMBLE (Gorla, MSc thesis, McMaster 2019), k-member (Byun et al. 2007), Top-down (Xu et
al. 2006) and anonsql's Mondrian, side by side, one run each.

Data: the synthetic food-inspection-like table of ``fd_synthetic.py`` (8 QIs, 6 FDs) and
Adult with its exact FDs (``education -> education_num`` and back). Each data set is loaded
into DuckDB; the FDs are validated in SQL; the clustering algorithms read the compact encoded
records (``fetch_records``) and their Δ and NCP are computed in NumPy (the same definitions as
the SQL ones, which the tests hold equal); Mondrian runs through ``anonsql.api.run`` and its
published view is measured in SQL (``release_loss``; NCP from its metrics). Times: the
clustering algorithms' own time (records already fetched); Mondrian's whole run (publishing,
verification and metrics included).

    python bench/dependency.py                      # the full grid (long: see --budget)
    python bench/dependency.py --rows 2000 --datasets synthetic --ks 5
    python bench/dependency.py --scaling 1000,2000,5000,10000,20000,30000
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fd_synthetic

from anonsql import api
from anonsql.algorithms.dependency.encoding import EncodedRecords, Quasi, fetch_records
from anonsql.algorithms.dependency.k_assemble import k_assemble
from anonsql.algorithms.dependency.k_member import k_member
from anonsql.algorithms.dependency.loss import dependency_loss, ncp
from anonsql.algorithms.dependency.pair_enum import pair_enum
from anonsql.algorithms.dependency.top_down import top_down
from anonsql.demo import ADULT_QIDS, load_adult
from anonsql.engines import DuckDBEngine, Engine
from anonsql.errors import AnonsqlError
from anonsql.hierarchies import materialize, read_hierarchy, write_arx_csv
from anonsql.metrics.dependency_loss import release_loss
from anonsql.resolve.dependencies import check_fds
from anonsql.resources import resource_dir
from anonsql.spec.dependencies import parse_fds
from anonsql.sql import TableName

ADULT_FDS = ["education -> education_num", "education_num -> education"]
ALGORITHMS = ["pair_enum", "k_assemble", "k_member", "top_down", "mondrian"]
#: also available: pair_enum_closest (PAIR-ENUM breaking utility ties by cluster closeness)


@dataclass
class Dataset:
    name: str
    table: TableName
    quasis: list[Quasi]
    fds: list[str]
    #: spec entries of the non-QI columns Mondrian must publish
    others: dict[str, dict[str, str]]
    hierarchy_files: dict[str, str]


def load_synthetic(engine: Engine, rows: int, tmp: Path) -> Dataset:
    data = fd_synthetic.generate(rows)
    table = TableName(f"food_{rows}", "main")
    engine.drop(table)
    engine.load_arrow(table, data.table)
    files = {}
    for column, h in data.hierarchies.items():
        path = tmp / f"{column}.csv"
        write_arx_csv(h, path)
        files[column] = str(path)
    others = {c: {"role": "sensitive"} for c in fd_synthetic.SENSITIVE}
    return Dataset(f"synthetic {rows}", table, data.quasis(), fd_synthetic.FDS, others, files)


def load_adult_rows(engine: Engine, rows: int | None) -> Dataset:
    full = TableName("adult_full", "main")
    if not engine.exists(full):
        load_adult(engine, full)
    data = engine.query_arrow("select_all", relation=full)
    if rows is not None:
        data = data.slice(0, rows)
    table = TableName(f"adult_{data.num_rows}", "main")
    engine.drop(table)
    engine.load_arrow(table, data)
    quasis, files = [], {}
    for column, entry in ADULT_QIDS.items():
        if "hierarchy" in entry:
            path = resource_dir("hierarchies") / entry["hierarchy"]
            quasis.append(Quasi(column, read_hierarchy(path, name=column)))
            files[column] = str(path)
        else:
            quasis.append(Quasi(column))
    others = {"education": {"role": "insensitive"}}
    return Dataset(f"adult {data.num_rows}", table, quasis, ADULT_FDS, others, files)


def lookups(engine: Engine, dataset: Dataset) -> tuple[dict[str, TableName], dict[str, TableName]]:
    engine.ensure_schema("lookup")
    leaves, nodes = {}, {}
    for q in dataset.quasis:
        if q.hierarchy is None:
            continue
        leaves[q.column] = TableName(f"{dataset.table.name}_{q.column}_leaves", "lookup")
        nodes[q.column] = TableName(f"{dataset.table.name}_{q.column}_nodes", "lookup")
        engine.drop(leaves[q.column])
        engine.drop(nodes[q.column])
        materialize(engine, q.hierarchy, leaves[q.column], nodes[q.column])
    return leaves, nodes


@dataclass
class Row:
    dataset: str
    rows: int
    instances: int
    k: int
    algorithm: str
    loss: float | None = None
    normalized: float | None = None
    ncp: float | None = None
    seconds: float | None = None
    clusters: int | None = None
    suppressed: int | None = None
    note: str = ""


def run_mondrian(
    engine: Engine,
    dataset: Dataset,
    k: int,
    leaves: dict[str, TableName],
    nodes: dict[str, TableName],
) -> tuple[float, float, float, int]:
    columns: dict[str, Any] = {}
    for q in dataset.quasis:
        entry: dict[str, Any] = {"role": "quasi_identifier"}
        if q.hierarchy is None:
            entry["type"] = "numeric"
        else:
            entry["hierarchy"] = dataset.hierarchy_files[q.column]
        columns[q.column] = entry
    columns.update(dataset.others)
    out = TableName(f"{dataset.table.name}_k{k}", "anon")
    spec = {
        "source": f"{dataset.table.schema}.{dataset.table.name}",
        "output": {"schema": out.schema, "name": out.name, "materialize": "table"},
        "columns": columns,
        "privacy": [{"k_anonymity": {"k": k}}],
        "algorithm": "mondrian",
    }
    started = time.perf_counter()
    result = api.run(spec, engine=engine)
    seconds = time.perf_counter() - started
    loss = release_loss(
        engine, dataset.table, out, parse_fds(dataset.fds), dataset.quasis, leaves, nodes
    )
    classes = engine.count_query_rows(
        engine.sql.render(
            "privacy/k_anonymity",
            relation=out,
            qids=[q.column for q in dataset.quasis],
            k=2**62,
        )
    )
    return loss.loss, result.metric("ncp"), seconds, classes


def clustering(name: str, args: argparse.Namespace) -> Callable[[EncodedRecords, int], Any]:
    if name == "pair_enum":
        return lambda r, k: pair_enum(r, k, neighbours=args.neighbours)
    if name == "pair_enum_closest":
        return lambda r, k: pair_enum(r, k, neighbours=args.neighbours, ties="closest")
    if name == "k_assemble":
        return lambda r, k: k_assemble(r, k, pool=args.pool, index_size=args.index_size)
    if name == "k_member":
        return lambda r, k: k_member(r, k)
    return lambda r, k: top_down(r, k)


def bench_dataset(
    engine: Engine, dataset: Dataset, ks: list[int], algorithms: list[str], args: argparse.Namespace
) -> list[Row]:
    fds = parse_fds(dataset.fds)
    checks = check_fds(engine, dataset.table, fds)
    for c in checks:
        state = "holds" if c.holds else f"VIOLATED ({c.violating_groups} groups)"
        print(f"  FD {c.fd}: {state}", file=sys.stderr)
    leaves, nodes = lookups(engine, dataset)
    started = time.perf_counter()
    records = fetch_records(engine, dataset.table, dataset.quasis, fds, leaves)
    fetch = time.perf_counter() - started
    print(
        f"  {dataset.name}: {records.size} records, {len(records.signatures)} signatures, "
        f"|Γ| = {records.instances}, fetched in {fetch:.2f} s",
        file=sys.stderr,
    )
    rows: list[Row] = []
    over_budget: set[str] = set()
    for k in sorted(ks, reverse=True):
        for name in algorithms:
            row = Row(dataset.name, records.size, records.instances, k, name)
            rows.append(row)
            if name in over_budget:
                row.note = f"skipped: a larger k took over {args.budget:.0f} s"
                continue
            try:
                if name == "mondrian":
                    row.loss, row.ncp, row.seconds, row.clusters = run_mondrian(
                        engine, dataset, k, leaves, nodes
                    )
                    row.suppressed = 0
                else:
                    result = clustering(name, args)(records, k)
                    row.seconds = result.seconds
                    row.loss = dependency_loss(records, result.labels).loss
                    row.ncp = ncp(records, result.labels)
                    row.clusters = result.clusters
                    row.suppressed = result.suppressed
            except AnonsqlError as err:
                row.note = f"refused: {err}"
                continue
            row.normalized = row.loss / records.instances
            if row.seconds > args.budget:
                over_budget.add(name)
            print(f"  {format_row(row)}", file=sys.stderr)
    return rows


def format_row(r: Row) -> str:
    if r.loss is None:
        return f"| {r.dataset} | {r.instances} | {r.k} | {r.algorithm} | – | – | – | – | {r.note} |"
    return (
        f"| {r.dataset} | {r.instances} | {r.k} | {r.algorithm} | {r.loss:.1f} | "
        f"{100 * (r.normalized or 0):.2f} | {r.ncp:.2f} | {r.seconds:.1f} | "
        f"{r.clusters} clusters, {r.suppressed} suppressed |"
    )


HEADER = (
    "| data | |Γ| | k | algorithm | Δ | Δ/|Γ| % | NCP % | time s | output |\n"
    "|---|---|---|---|---|---|---|---|---|"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=30_000, help="synthetic rows")
    parser.add_argument("--small", type=int, default=2_000, help="rows of the small grids")
    parser.add_argument("--ks", default="2,5,10,25")
    parser.add_argument("--datasets", default="synthetic,adult,synthetic-small,adult-small")
    parser.add_argument("--algorithms", default=",".join(ALGORITHMS))
    parser.add_argument("--pool", type=int, default=3, help="k-ASSEMBLE's m")
    parser.add_argument("--neighbours", type=int, default=5, help="PAIR-ENUM's Opt-1 q")
    parser.add_argument("--index-size", type=int, default=None, help="k-ASSEMBLE's Opt-2 M")
    parser.add_argument("--budget", type=float, default=900.0, help="seconds per run")
    parser.add_argument("--scaling", default="", help="synthetic sizes for a k=5 scaling run")
    parser.add_argument("--scaling-k", type=int, default=5)
    parser.add_argument("--json", type=Path, default=None, help="append rows as JSON lines")
    args = parser.parse_args()
    ks = [int(k) for k in args.ks.split(",")]
    algorithms = args.algorithms.split(",")
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp, DuckDBEngine(str(Path(tmp) / "b.duckdb")) as e:
        if args.scaling:
            for n in [int(x) for x in args.scaling.split(",")]:
                dataset = load_synthetic(e, n, Path(tmp))
                got = bench_dataset(e, dataset, [args.scaling_k], algorithms, args)
                rows.extend(got)
                slow = {r.algorithm for r in got if (r.seconds or 0) > args.budget}
                algorithms = [a for a in algorithms if a not in slow]
        else:
            for name in args.datasets.split(","):
                if name == "synthetic":
                    dataset = load_synthetic(e, args.rows, Path(tmp))
                elif name == "synthetic-small":
                    dataset = load_synthetic(e, args.small, Path(tmp))
                elif name == "adult":
                    dataset = load_adult_rows(e, None)
                else:
                    dataset = load_adult_rows(e, args.small)
                rows.extend(bench_dataset(e, dataset, ks, algorithms, args))
    print(HEADER)
    for r in rows:
        print(format_row(r))
    if args.json:
        with args.json.open("a", encoding="utf-8") as out:
            for r in rows:
                out.write(json.dumps(r.__dict__) + "\n")


if __name__ == "__main__":
    pa.set_cpu_count(2)
    main()
