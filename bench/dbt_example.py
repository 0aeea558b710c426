"""The dbt example project (examples/dbt) on DuckDB: what dbt adds around anonsql.

    python bench/dbt_example.py [--repeat 3]

Times, in one process tree and one run (medians of ``--repeat`` runs, wall clock): ``anonsql
run`` of the model's spec called directly (in process, on the seeded database), ``dbt run`` of
the Python model alone (dbt start-up, parse, anonsql's run on dbt's connection, dbt writing the
model), ``dbt test`` of the model's three tests, and a whole ``dbt build`` (seed, model, the five
tests). Prints a Markdown table with each figure as a ratio of the direct run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from anonsql import api
from anonsql.engines import DuckDBEngine

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "dbt"
PACKAGE = ROOT / "integrations" / "dbt" / "anonsql_dbt"


def env() -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DBT_")}
    clean.update(
        DBT_SEND_ANONYMOUS_USAGE_STATS="false",
        DBT_VERSION_CHECK="false",
        DBT_PARTIAL_PARSE="false",
        PYTHONPATH=str(ROOT),
    )
    return clean


def dbt(project: Path, *args: str) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "dbt.cli.main", *args, "--profiles-dir", str(project)],
        cwd=project,
        env=env(),
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"dbt {' '.join(args)} failed:\n{done.stdout[-3000:]}")
    return time.perf_counter() - started


def project_copy(tmp: Path) -> Path:
    project = tmp / "examples" / "dbt"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns("target", "dbt_packages"))
    (tmp / "integrations" / "dbt").mkdir(parents=True)
    (tmp / "integrations" / "dbt" / "anonsql_dbt").symlink_to(PACKAGE)
    return project


def direct_spec(project: Path) -> dict[str, Any]:
    models = yaml.safe_load((project / "models" / "patients.yml").read_text())["models"]
    config = dict(models[0]["config"]["anonsql"])
    return {
        **config,
        "engine": "duckdb",
        "database": str(project / "anonsql_example.duckdb"),
        "source": "main.patients",
        "output": {"schema": "direct", "name": "patients_anon", "materialize": "table"},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    times: dict[str, list[float]] = {"direct": [], "run": [], "test": [], "build": []}
    with tempfile.TemporaryDirectory() as tmp:
        project = project_copy(Path(tmp))
        dbt(project, "deps")
        dbt(project, "seed")
        spec = direct_spec(project)
        for _ in range(args.repeat):
            started = time.perf_counter()
            with DuckDBEngine(spec["database"]) as engine:
                api.run(spec, engine=engine)
            times["direct"].append(time.perf_counter() - started)
            times["run"].append(dbt(project, "run", "--select", "patients_anon"))
            times["test"].append(dbt(project, "test", "--select", "patients_anon"))
            times["build"].append(dbt(project, "build"))
    medians = {k: statistics.median(v) for k, v in times.items()}
    labels = {
        "direct": "`anonsql run` of the same spec, in process",
        "run": "`dbt run --select patients_anon` (the Python model)",
        "test": "`dbt test --select patients_anon` (3 tests)",
        "build": "`dbt build` (seed, model, 5 tests)",
    }
    print("| step | seconds | / direct run |")
    print("|---|---|---|")
    for key, label in labels.items():
        print(f"| {label} | {medians[key]:.2f} | {medians[key] / medians['direct']:.1f}x |")


if __name__ == "__main__":
    main()
