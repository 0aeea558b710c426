"""The k grid on Adult in one run: Mondrian's two split rules, optimal full-domain
generalization (``algorithm: full_domain``, objective NCP) at 0, 1 and 5 % suppression, and
Top-Down Greedy's published figures, side by side. 8 QIDs, the shipped hierarchies; every cell
is ``anonsql.api.run`` in its own process (``bench/run_one.py``); NCP is the release's ``ncp``
metric, measured on the published view (suppressed rows count 1 per QID).

    python bench/full_domain_grid.py            # prints the table
    python bench/full_domain_grid.py --write    # and replaces its section of BENCHMARKS.md
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from sections import replace_section  # noqa: E402

KS = (2, 5, 10, 25, 50, 100)
LIMITS = (0.0, 0.01, 0.05)
#: Top-Down Greedy (Xu et al., KDD 2006) on this setup, NCP % (issue 16's figures).
TOP_DOWN_GREEDY = {2: 3.24, 5: 8.13, 10: 13.50, 25: 23.29, 50: 31.80, 100: 43.20}


def run(*args: str) -> dict[str, Any]:
    print("bench: run_one.py", " ".join(args), file=sys.stderr, flush=True)
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run_one.py"), *args],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        # this checkout's anonsql, whichever one the interpreter has installed
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def cell(r: dict[str, Any]) -> str:
    return f"{r['ncp']:.2f} ({r['seconds']:.1f} s, {r['suppressed']:,} supp.)"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", action="store_true", help="replace the section in BENCHMARKS.md")
    args = parser.parse_args()
    fd_head = " | ".join(f"full-domain {p:.0%}" for p in LIMITS)
    lines = [
        f"Produced by `python bench/full_domain_grid.py` on {dt.date.today().isoformat()}; load "
        f"average at the start {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores. Cells: NCP % "
        "(whole `api.run` seconds, rows suppressed). Mondrian at 0 % suppression.",
        "",
        f"| k | Mondrian loss | Mondrian widest | Top-Down Greedy (published) | {fd_head} "
        "| loss / TDG | best full-domain / loss | full-domain node at 0 % |",
        "|" + "---|" * (7 + len(LIMITS)),
    ]
    for k in KS:
        loss = run("--k", str(k), "--split", "loss")
        widest = run("--k", str(k), "--split", "widest")
        fds = [
            run("--k", str(k), "--algorithm", "full_domain", "--suppression", str(limit))
            for limit in LIMITS
        ]
        best = min(fd["ncp"] for fd in fds)
        node = list((fds[0]["search"] or {}).get("node", {}).values())
        lines.append(
            f"| {k} | {cell(loss)} | {cell(widest)} | {TOP_DOWN_GREEDY[k]:.2f} "
            f"| {' | '.join(cell(fd) for fd in fds)} | {loss['ncp'] / TOP_DOWN_GREEDY[k]:.2f} "
            f"| {best / loss['ncp']:.2f} | {node} |"
        )
        print(lines[-1], flush=True)
    text = "\n".join(lines)
    print(text)
    if args.write:
        replace_section("k-grid", text, "## Adult: the k grid in one run")


if __name__ == "__main__":
    main()
