"""docs/threat-model.md names, next to each claim, the test that holds it: every named test
exists (a renamed or removed test leaves its claim unheld, and fails here)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from paths import ROOT

PAGE = Path("docs/threat-model.md")
_NAMED = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


def named_tests(page: Path) -> list[tuple[str, str]]:
    return sorted(set(_NAMED.findall((ROOT / page).read_text(encoding="utf-8"))))


def defined_tests(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("test_")
    }


def test_every_test_the_threat_model_names_exists() -> None:
    named = named_tests(PAGE)
    assert len(named) >= 20, "the page names the tests of its claims"
    missing = [
        f"{path}::{name}"
        for path, name in named
        if not (ROOT / path).is_file() or name not in defined_tests(ROOT / path)
    ]
    assert not missing, f"{PAGE} names tests that do not exist: {missing}"
