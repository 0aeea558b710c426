"""How long ``anonsql --version`` and ``anonsql --help`` take, beside a bare ``python -c pass``:
the command line loads the pipeline, the engines and their drivers inside its commands only.

    python bench/cli_startup.py [--repeat 15] [--tree PATH]

``--tree`` is the checkout whose ``anonsql`` runs (default: this one); bytecode is written and
reused (the first run of each command warms it), as an installed package's is. Prints the best
wall time of ``--repeat`` runs of each command and its ratio to ``python -c pass``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def best(command: list[str], repeat: int, env: dict[str, str], cwd: Path) -> float:
    """The best wall time of ``repeat`` runs of ``command``, in seconds."""
    fastest = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(command, env=env, cwd=cwd, capture_output=True, check=True)
        fastest = min(fastest, time.perf_counter() - started)
    return fastest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--tree", type=Path, default=ROOT)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(args.tree)
    bare = best([sys.executable, "-c", "pass"], args.repeat, env, args.tree)
    print(f"python -c pass: {bare * 1000:.1f} ms")
    for option in ("--version", "--help"):
        took = best([sys.executable, "-m", "anonsql", option], args.repeat, env, args.tree)
        print(f"anonsql {option}: {took * 1000:.1f} ms, {took / bare:.1f}x python -c pass")


if __name__ == "__main__":
    main()
