"""Makes the fixtures module of this folder importable (tests/ itself is on sys.path through
the root conftest)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
