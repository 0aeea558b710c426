"""What the attack step costs a run: the seconds of the attacks at publish (over the publish
step's grouping of the release) beside the whole run's, and of ``anonsql attack`` on the
published release (over what analysts query), on Adult or synthetic Adult-like rows, with
Adult's 8 QIDs, k = 10 and recursive (c = 4, l = 2)-diversity of the income class.

    python bench/attacks.py --adult                          # the Adult sample (30,162 rows)
    python bench/attacks.py --rows 100000                    # synthetic rows
    python bench/attacks.py --rows 10000000 --engine postgres

The step issues one aggregate query per attack and adversary (and sensitive column), whatever
the number of rows: no sample, no per-row Python.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "support"))

from run_one import database, make_synthetic  # noqa: E402

from anonsql import api  # noqa: E402
from anonsql.attacks import Attacks  # noqa: E402
from anonsql.demo import ADULT_QIDS, adult_spec  # noqa: E402
from anonsql.publish import BuiltRelease  # noqa: E402
from anonsql.samples import load_adult  # noqa: E402

#: the module (``anonsql.pipeline.run`` the attribute is the function)
pipeline_run = importlib.import_module("anonsql.pipeline.run")

MODELS = [
    {"k_anonymity": {"k": 10}},
    {"recursive_cl_diversity": {"column": "class", "c": 4, "l": 2}},
]


def spec_for(db: str, synthetic: bool) -> dict[str, Any]:
    spec = adult_spec(db, k=10)
    if synthetic:
        spec["source"] = "main.adult_synth"
        kept = {*ADULT_QIDS, "class"}
        spec["columns"] = {c: v for c, v in spec["columns"].items() if c in kept}
        # person_id names one row each: an identifier; hours_per_week is left out (undeclared
        # columns are dropped; `role: identifier` now says a column identifies persons)
        spec["columns"]["person_id"] = {"role": "identifier"}
    spec["privacy"] = MODELS
    return spec


def measure(spec: dict[str, Any], engine: Any) -> dict[str, float]:
    timed: dict[str, float] = {}
    step = pipeline_run.attack

    def timed_attack(release: BuiltRelease) -> Attacks:
        start = time.perf_counter()
        found = step(release)
        timed["attack step"] = time.perf_counter() - start
        timed["results"] = len(found.results)
        return found

    pipeline_run.attack = timed_attack
    try:
        start = time.perf_counter()
        result = api.run(spec, engine=engine)
        timed["run"] = time.perf_counter() - start
    finally:
        pipeline_run.attack = step
    start = time.perf_counter()
    api.attack(engine, result.names.main)
    timed["anonsql attack"] = time.perf_counter() - start
    return timed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--adult", action="store_true", help="the shipped Adult sample")
    parser.add_argument("--engine", default="duckdb", choices=["duckdb", "postgres"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, database(args.engine, Path(tmp)) as (engine, db):
        if args.adult:
            load_adult(engine)
        else:
            make_synthetic(engine, args.rows)
        t = measure(spec_for(db, not args.adult), engine)
    what = "Adult" if args.adult else f"{args.rows:,} synthetic rows"
    command = "--adult" if args.adult else f"--rows {args.rows}"
    engine_arg = " --engine postgres" if args.engine == "postgres" else ""
    print(f"{args.engine}, {what}: `python bench/attacks.py {command}{engine_arg}`\n")
    print("| run (s) | attack step at publish (s) | share of the run | anonsql attack (s) |")
    print("|---:|---:|---:|---:|")
    print(
        f"| {t['run']:.2f} | {t['attack step']:.3f} | {t['attack step'] / t['run']:.1%} "
        f"| {t['anonsql attack']:.3f} |"
    )
    print(f"\n{int(t['results'])} results")


if __name__ == "__main__":
    main()
