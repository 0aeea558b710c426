"""The post-partition phase (stage, publish, verify, measure, certify) of two source trees side
by side: engine time per template and whole-run seconds of ``bench/run_one.py``.

    git archive <old commit> | tar -x -C /tmp/old
    python bench/post_partition.py --base /tmp/old --rows 100000 1000000 --repeat 2

Each run is its own process (``bench/template_profile.py`` over the tree's
``bench/run_one.py``, with that tree first on ``PYTHONPATH``); the trees alternate so that a
loaded machine weighs on both alike. Prints, per row count, a Markdown table of the median
seconds per post-partition template (base, this tree, ratio), their sum, and the runs' seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: Labels of the statements run after the partitioning (templates, or a counted violation
#: query, labelled by its text).
POST_PARTITION = (
    "publish/",
    "linked/",
    "metrics/",
    "risk/",
    "count_rows",
    "status/",
    "SELECT COUNT(*) FROM (SELECT",
)


def is_post_partition(label: str) -> bool:
    return label.startswith(POST_PARTITION)


def profile(tree: Path, rows: int, threads: int) -> dict[str, Any]:
    """One run of ``tree``'s run_one.py under the template profiler."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [
            sys.executable,
            str(HERE / "template_profile.py"),
            str(tree / "bench" / "run_one.py"),
            "--rows",
            str(rows),
            "--threads",
            str(threads),
        ],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    run = json.loads(done.stdout.strip().splitlines()[-1])
    lines = [line for line in done.stderr.splitlines() if line.startswith('{"total"')]
    summary = json.loads(lines[-1])
    return {"seconds": run["seconds"], "ncp": run["ncp"], "templates": summary["templates"]}


def _median(runs: list[dict[str, Any]], label: str) -> float:
    return statistics.median(float(r["templates"].get(label, [0, 0.0])[1]) for r in runs)


def table(base: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[str]:
    labels = {label for r in base + new for label in r["templates"] if is_post_partition(label)}
    rows = sorted(labels, key=lambda label: -_median(base, label))
    out = ["| template | base (s) | this tree (s) | this / base |", "|---|---:|---:|---:|"]
    for label in rows:
        b, n = _median(base, label), _median(new, label)
        ratio = f"{n / b:.2f}" if b else "new"
        out.append(f"| `{label}` | {b:.3f} | {n:.3f} | {ratio} |")
    b = statistics.median(sum(_row(r, label) for label in labels) for r in base)
    n = statistics.median(sum(_row(r, label) for label in labels) for r in new)
    out.append(f"| **post-partition sum** | {b:.3f} | {n:.3f} | {n / b:.2f} |")
    bs = statistics.median(r["seconds"] for r in base)
    ns = statistics.median(r["seconds"] for r in new)
    out.append(f"| **whole run (`seconds`)** | {bs:.2f} | {ns:.2f} | {ns / bs:.2f} |")
    return out


def _row(run: dict[str, Any], label: str) -> float:
    return float(run["templates"].get(label, [0, 0.0])[1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", type=Path, required=True, help="source tree to compare with")
    parser.add_argument("--rows", type=int, nargs="+", default=[100000])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    trees = {"base": args.base.resolve(), "new": HERE.parent}
    for rows in args.rows:
        runs: dict[str, list[dict[str, Any]]] = {"base": [], "new": []}
        for _ in range(args.repeat):
            for name, tree in trees.items():
                runs[name].append(profile(tree, rows, args.threads))
                print(f"{rows} rows, {name}: {runs[name][-1]['seconds']} s", file=sys.stderr)
        ncps = {r["ncp"] for r in runs["base"] + runs["new"]}
        print(f"\n{rows} rows (medians of {args.repeat}; NCP {sorted(ncps)})\n")
        print("\n".join(table(runs["base"], runs["new"])))


if __name__ == "__main__":
    main()
