"""Where anonsql's whole-process time goes on Adult (issue 33, the fixed cost).

Prepares the side-by-side's Adult database and Mondrian spec (bench/arx_side_by_side.py), then
runs ``anonsql run --quiet --json`` twice in fresh interpreters: once under ``-X importtime``
(the heaviest top-level imports) and once under cProfile (the pipeline steps, cumulative).
Figures are inflated by cProfile and by load; compare runs back to back.

    python bench/fixed_cost_profile.py [--spec mondrian|full_domain_0|full_domain_5]
"""

from __future__ import annotations

import argparse
import os
import pstats
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml
from arx_side_by_side import specs
from scale import prepare_duckdb

STEPS = [
    "load_spec",
    "resolve",
    "load_hierarchies",
    "prepared",
    "partition",
    "stage",
    "publish",
    "verify",
    "measure",
    "run_attacks",
    "certify",
    "report",
]
NAMES = {
    "mondrian": "anonsql mondrian",
    "full_domain_0": "anonsql full_domain 0 %",
    "full_domain_5": "anonsql full_domain 5 %",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spec", choices=sorted(NAMES), default="mondrian")
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    with tempfile.TemporaryDirectory(prefix="anonsql-fixed-") as tmp:
        folder = Path(tmp)
        db, source = prepare_duckdb(folder, 0)
        pristine = folder / "pristine.duckdb"
        shutil.copy(db, pristine)
        spec = folder / "spec.yml"
        spec.write_text(yaml.safe_dump(specs(db, source, False)[NAMES[args.spec]]), "utf-8")
        cli = [sys.executable, "-X", "importtime", "-m", "anonsql", "run", "--quiet", "--json"]
        proc = subprocess.run([*cli, str(spec)], env=env, capture_output=True, text=True)
        rows = [line.split("|") for line in proc.stderr.splitlines() if "|" in line]
        top = [(int(r[1]), r[2].rstrip()) for r in rows[1:] if r[1].strip().isdigit()]
        print("heaviest imports (cumulative ms):")
        for us, name in sorted(top, reverse=True)[:15]:
            print(f"  {us / 1000:8.1f}  {name.strip()}")
        shutil.copy(pristine, db)
        prof = folder / "run.prof"
        cmd = [sys.executable, "-m", "cProfile", "-o", str(prof), "-m", "anonsql", "run"]
        subprocess.run(
            [*cmd, "--quiet", "--json", str(spec)], env=env, check=True, stdout=subprocess.DEVNULL
        )
        stats = pstats.Stats(str(prof)).stats  # type: ignore[attr-defined]
        print("pipeline steps under cProfile (cumulative ms):")
        seen: dict[str, float] = {}
        for (file, _, name), (_, _, _, cumulative, _) in stats.items():
            if "anonsql" in file and name in STEPS:
                seen[name] = max(seen.get(name, 0.0), cumulative)
        for name, seconds in sorted(seen.items(), key=lambda item: -item[1]):
            print(f"  {seconds * 1000:8.0f}  {name}")


if __name__ == "__main__":
    main()
