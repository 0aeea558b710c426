"""``make TARGET`` in the docs' shell blocks, run by the docs test.

The docs test cannot build the virtual environment ``make`` would (it runs inside one), so for
the targets the docs run it takes the command of the target's recipe from the Makefile itself
(``make -n``, so a changed Makefile changes what runs) and runs it with this checkout's
``anonsql`` in the block's folder. Other targets are refused: a page that needs one marks its
block ``no-run`` with the reason.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Targets whose last recipe line runs here, the virtual environment's prefix removed.
RUNS = {"demo": ".venv/bin/anonsql demo "}


def main(argv: list[str]) -> int:
    """``make_shim.py REAL_MAKE TARGET``."""
    make, argv = argv[0], argv[1:]
    if not make:
        print("make is not installed")
        return 2
    if len(argv) != 1 or argv[0] not in RUNS:
        print(f"the docs test runs only `make {' | '.join(RUNS)}`, not `make {' '.join(argv)}`")
        return 2
    target = argv[0]
    printed = subprocess.run(
        [make, "-n", "--no-print-directory", "-C", str(ROOT), target],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    command = printed[-1].strip()
    if not command.startswith(RUNS[target]):
        print(f"`make -n {target}` ends with {command!r}, not {RUNS[target]!r}...")
        return 2
    return subprocess.run(shlex.split(command.removeprefix(".venv/bin/"))).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
