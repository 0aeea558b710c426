"""Two versions of anonsql side by side: whole ``anonsql run`` processes, alternating.

    git worktree add /tmp/oldtree <commit>
    python -m compileall -q /tmp/oldtree/anonsql anonsql      # byte-compile both trees
    python bench/side_by_side.py --old /tmp/oldtree --rows 0 1e6 1e7

For each size the data is generated once (``bench/scale.py``'s files: ``0`` is the real Adult),
then each repetition restores the pristine database file and runs ``python -m anonsql run
--quiet --json spec.yaml`` with ``PYTHONPATH`` set to the old tree, then to the new one (this
checkout), from the data folder: ``-m`` puts the working folder first on ``sys.path``, so run
from a source tree both sides would load that tree. Alternating spreads the machine's drift
over both sides; the ratio of the medians is the figure to quote. Prints one line per run and
a table (median seconds, ratio, classes, verified).
"""

from __future__ import annotations

import argparse
import json
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

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests" / "support"))

from run_one import bench_spec
from scale import prepare_duckdb


def one_run(tree: Path, folder: Path) -> dict[str, Any]:
    shutil.copy(folder / "pristine.duckdb", folder / "scale.duckdb")
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "anonsql", "run", "--quiet", "--json", "spec.yaml"],
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{tree}: anonsql run failed ({done.returncode}):\n{done.stderr[-2000:]}")
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        "seconds": seconds,
        "classes": summary["certificate"]["classes"],
        "verified": summary["verified"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="the other tree (a worktree)")
    parser.add_argument("--rows", nargs="+", type=float, default=[0, 1e6, 1e7])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    trees = {"old": args.old.resolve(), "new": ROOT}
    lines = [
        "| rows | old s (runs) | new s (runs) | new / old (medians) | classes | verified |",
        "|---|---|---|---|---|---|",
    ]
    for rows in args.rows:
        with tempfile.TemporaryDirectory(prefix="anonsql-sbs-") as tmp:
            folder = Path(tmp)
            db, source = prepare_duckdb(folder, int(rows))
            db.rename(folder / "pristine.duckdb")
            spec = bench_spec(
                str(folder / "scale.duckdb"), source=source, synthetic=bool(rows), k=10
            )
            (folder / "spec.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
            runs: dict[str, list[dict[str, Any]]] = {"old": [], "new": []}
            for i in range(args.repeat):
                for side, tree in trees.items():
                    runs[side].append(one_run(tree, folder))
                    print(
                        f"rows={int(rows) or 'adult'} {side} {i + 1}: "
                        f"{runs[side][-1]['seconds']:.2f} s",
                        file=sys.stderr,
                        flush=True,
                    )
        old = [r["seconds"] for r in runs["old"]]
        new = [r["seconds"] for r in runs["new"]]
        same = {r["classes"] for r in runs["old"] + runs["new"]}
        lines.append(
            f"| {int(rows) or 'Adult'} | {statistics.median(old):.2f} "
            f"({', '.join(f'{s:.2f}' for s in old)}) | {statistics.median(new):.2f} "
            f"({', '.join(f'{s:.2f}' for s in new)}) "
            f"| {statistics.median(new) / statistics.median(old):.2f} "
            f"| {', '.join(map(str, sorted(same)))} "
            f"| {all(r['verified'] for r in runs['old'] + runs['new'])} |"
        )
    print("\n".join(lines))


if __name__ == "__main__":
    main()
