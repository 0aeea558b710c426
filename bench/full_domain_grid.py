"""Adult, 8 QIDs, k-anonymity: optimal full-domain generalization (``algorithm: full_domain``,
objective NCP) at 0, 1 and 5 % suppression beside Mondrian (0 %), each through ``anonsql run``
in its own process (``bench/run_one.py``); NCP is the release's ``ncp`` metric, measured on the
published view. Prints a Markdown table.

    python bench/full_domain_grid.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
KS = (2, 5, 10, 25, 50, 100)
LIMITS = (0.0, 0.01, 0.05)


def run(*args: str) -> dict[str, Any]:
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


def main() -> None:
    head = " | ".join(f"full-domain {p:.0%}: NCP % (s), suppressed" for p in LIMITS)
    ratios = " | ".join(f"FD {p:.0%} / Mondrian NCP" for p in LIMITS)
    print(f"| k | Mondrian NCP % (s) | {head} | {ratios} | node at 0 % |")
    print("|" + "---|" * (3 + 2 * len(LIMITS)))
    for k in KS:
        mondrian = run("--k", str(k))
        cells, ratio, node = [], [], ""
        for limit in LIMITS:
            fd = run("--k", str(k), "--algorithm", "full_domain", "--suppression", str(limit))
            cells.append(f"{fd['ncp']:.2f} ({fd['seconds']:.1f}), {fd['suppressed']:,}")
            ratio.append(f"{fd['ncp'] / mondrian['ncp']:.2f}")
            if limit == 0.0:
                node = str(list(fd["search"]["node"].values()))
        print(
            f"| {k} | {mondrian['ncp']:.2f} ({mondrian['seconds']:.1f}) | {' | '.join(cells)} "
            f"| {' | '.join(ratio)} | {node} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
