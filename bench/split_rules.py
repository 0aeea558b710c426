"""Mondrian's split rules on data they were not tuned on: NCP of ``loss`` and ``widest`` side by
side on Adult, INFORMS and synthetic tables of different shapes (issue 33, part 5).

    python bench/split_rules.py --rules auto gain_ratio loss widest   # every table, k 5, 10, 25
    python bench/split_rules.py --rows 20000 --k 10 --only skewed

Synthetic tables (numpy, seeded; 50,000 rows unless ``--rows``), each with a sensitive column
and six quasi-identifiers:

* ``uniform``: independent uniform numbers and codes;
* ``skewed``: Zipf-distributed codes, a log-normal income, ages piled at the young end;
* ``many_valued``: five-digit ZIP codes (mask hierarchy) and near-continuous numbers (tens of
  thousands of distinct values each);
* ``correlated``: every quasi-identifier a noisy function of one latent variable (age, years of
  schooling, income, seniority, a region code ordered along it);
* ``mixed_scale``: two wide numeric columns beside four narrow categorical ones (the shape of
  Adult with its categorical columns made decisive).

Each cell is one run on a fresh in-memory DuckDB (2 threads); NCP is anonsql's (the mean over
quasi-identifiers of the normalized generalization, suppressed rows counting 1). The last
column compares the default, ``auto``, with the best of the other rules run (relative NCP).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent))

from anonsql import api
from anonsql.demo import adult_spec
from anonsql.engines import DuckDBEngine
from anonsql.samples import load_adult, load_informs
from anonsql.sql import TableName

RULES = ("loss", "widest")
TABLE = TableName("shape", "main")

NUMERIC = {"type": "numeric"}


def _zip(rng: np.random.Generator, codes: np.ndarray) -> pa.Array:
    del rng
    return pa.array([f"{int(c):05d}" for c in codes])


def uniform(rng: np.random.Generator, n: int) -> tuple[pa.Table, dict[str, Any]]:
    data = {
        "age": rng.integers(18, 91, n),
        "income": rng.integers(0, 200_000, n),
        "hours": rng.integers(1, 100, n),
        "children": rng.integers(0, 8, n),
        "zip": _zip(rng, rng.integers(10_000, 10_000 + 2_000, n)),
        "region": _zip(rng, rng.integers(0, 100, n)),
        "disease": rng.integers(0, 20, n),
    }
    return pa.table(data), _columns(["age", "income", "hours", "children"], ["zip", "region"])


def skewed(rng: np.random.Generator, n: int) -> tuple[pa.Table, dict[str, Any]]:
    data = {
        "age": np.clip(18 + rng.gamma(2.0, 8.0, n).astype(np.int64), 18, 100),
        "income": np.round(rng.lognormal(10.5, 1.0, n)).astype(np.int64),
        "visits": np.minimum(rng.zipf(1.8, n), 500),
        "children": np.minimum(rng.poisson(0.7, n), 12),
        "zip": _zip(rng, 10_000 + np.minimum(rng.zipf(1.3, n), 5_000)),
        "region": _zip(rng, np.minimum(rng.zipf(1.6, n), 99)),
        "disease": np.minimum(rng.zipf(1.5, n), 40),
    }
    return pa.table(data), _columns(["age", "income", "visits", "children"], ["zip", "region"])


def many_valued(rng: np.random.Generator, n: int) -> tuple[pa.Table, dict[str, Any]]:
    data = {
        "birth_day": rng.integers(0, 36_500, n),
        "income": rng.integers(0, 10_000_000, n),
        "weight_g": rng.normal(75_000, 15_000, n).astype(np.int64),
        "height_mm": rng.normal(1_700, 100, n).astype(np.int64),
        "zip": _zip(rng, rng.integers(0, 100_000, n)),
        "phone_area": _zip(rng, rng.integers(0, 1_000, n)),
        "disease": rng.integers(0, 200, n),
    }
    return pa.table(data), _columns(
        ["birth_day", "income", "weight_g", "height_mm"], ["zip", "phone_area"]
    )


def correlated(rng: np.random.Generator, n: int) -> tuple[pa.Table, dict[str, Any]]:
    latent = rng.uniform(0.0, 1.0, n)
    noise = lambda scale: rng.normal(0.0, scale, n)  # noqa: E731
    data = {
        "age": np.clip(18 + 70 * latent + noise(3), 18, 95).astype(np.int64),
        "schooling": np.clip(8 + 12 * latent + noise(1.5), 0, 25).astype(np.int64),
        "income": np.clip(20_000 + 150_000 * latent + noise(15_000), 0, None).astype(np.int64),
        "seniority": np.clip(40 * latent + noise(2), 0, 50).astype(np.int64),
        "region": _zip(rng, np.clip(100 * latent + noise(5), 0, 99)),
        "grade": _zip(rng, np.clip(20 * latent + noise(1), 0, 19)),
        "disease": rng.integers(0, 20, n),
    }
    return pa.table(data), _columns(
        ["age", "schooling", "income", "seniority"], ["region", "grade"]
    )


def mixed_scale(rng: np.random.Generator, n: int) -> tuple[pa.Table, dict[str, Any]]:
    data = {
        "age": rng.integers(18, 91, n),
        "income": rng.integers(0, 500_000, n),
        "sex": _zip(rng, rng.integers(0, 2, n)),
        "marital": _zip(rng, rng.choice(7, n, p=[0.45, 0.3, 0.1, 0.07, 0.04, 0.03, 0.01])),
        "race": _zip(rng, rng.choice(5, n, p=[0.8, 0.1, 0.05, 0.03, 0.02])),
        "job": _zip(rng, rng.integers(0, 40, n)),
        "disease": rng.integers(0, 20, n),
    }
    return pa.table(data), _columns(["age", "income"], ["sex", "marital", "race", "job"])


def _columns(numeric: list[str], coded: list[str]) -> dict[str, Any]:
    columns: dict[str, Any] = {c: {"role": "quasi_identifier", **NUMERIC} for c in numeric}
    for c in coded:
        columns[c] = {"role": "quasi_identifier", "hierarchy": {"builder": "mask"}}
    columns["disease"] = {"role": "sensitive", "acknowledge_linked": True}
    return columns


SHAPES: dict[str, Callable[[np.random.Generator, int], tuple[pa.Table, dict[str, Any]]]] = {
    "uniform": uniform,
    "skewed": skewed,
    "many_valued": many_valued,
    "correlated": correlated,
    "mixed_scale": mixed_scale,
}


def _spec(source: str, columns: dict[str, Any], k: int, rule: str) -> dict[str, Any]:
    return {
        "engine": "duckdb",
        "source": source,
        "output": {"schema": "anon", "name": "shape", "materialize": "view"},
        "columns": columns,
        "privacy": [{"k_anonymity": {"k": k}}],
        "algorithm": {"mondrian": {"split": rule}},
        "suppression_limit": 0.0,
    }


def _informs_columns() -> dict[str, Any]:
    names = ("DOBMM", "DOBYY", "RACEX", "EDUCYEAR", "income")
    columns: dict[str, Any] = {
        c: {"role": "quasi_identifier", "hierarchy": f"informs/{c}.txt"} for c in names
    }
    columns["income"]["hierarchy"] = "informs/income.txt.gz"
    return columns


def cell(table: str, k: int, rule: str, rows: int, seed: int) -> dict[str, Any]:
    with DuckDBEngine(":memory:", threads=2) as engine:
        if table == "adult":
            load_adult(engine)
            spec = adult_spec(":memory:", k=k)
            spec["algorithm"] = {"mondrian": {"split": rule}}
        elif table == "informs":
            load_informs(engine)
            spec = _spec("main.informs_demographics", _informs_columns(), k, rule)
        else:
            data, columns = SHAPES[table](np.random.default_rng(seed), rows)
            engine.load_arrow(TABLE, data)
            spec = _spec(str(TABLE), columns, k, rule)
        spec.pop("database", None)
        start = time.perf_counter()
        result = api.run(spec, engine=engine, progress=lambda _: None)
        seconds = time.perf_counter() - start
    return {
        "table": table,
        "k": k,
        "rule": rule,
        "ncp": float(result.metric("ncp")),
        "classes": int(result.certificate["classes"]),
        "seconds": round(seconds, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--k", type=int, nargs="*", default=[5, 10, 25])
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--rules", nargs="*", default=list(RULES))
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    tables = args.only or ["adult", "informs", *SHAPES]
    cells = []
    for table in tables:
        for k in args.k:
            for rule in args.rules:
                row = cell(table, k, rule, args.rows, args.seed)
                print(json.dumps(row), file=sys.stderr, flush=True)
                cells.append(row)
    by = {(c["table"], c["k"], c["rule"]): c for c in cells}
    others = [r for r in args.rules if r != "auto"]
    head = "| table | k | " + " | ".join(f"{r} NCP %" for r in args.rules)
    if "auto" in args.rules and others:
        head += " | auto vs the best other rule |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for table in tables:
        for k in args.k:
            ncps = [by[(table, k, r)]["ncp"] for r in args.rules]
            line = f"| {table} | {k} | " + " | ".join(f"{v:.2f}" for v in ncps)
            if "auto" in args.rules and others:
                best = min(by[(table, k, r)]["ncp"] for r in others)
                auto = by[(table, k, "auto")]["ncp"]
                line += f" | {(auto - best) / best:+.1%} |"
            print(line)


if __name__ == "__main__":
    main()
