"""Where the tests find the repository's files."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
ROOT = TESTS.parent
SNAPSHOTS = TESTS / "snapshots"
EXAMPLES = ROOT / "examples"
BENCH = ROOT / "bench"
