"""The package's structure: no import cycle between anonsql's packages, the pipeline's steps
in order in one orchestration module, and drivers loaded only when used."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict

from paths import ROOT

PACKAGE = ROOT / "anonsql"


def _type_checking_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in ast.walk(node):
                if hasattr(child, "lineno"):
                    lines.add(child.lineno)
    return lines


def package_graph() -> dict[str, set[str]]:
    """anonsql's first-level packages (and top-level modules) -> those they import."""
    graph: dict[str, set[str]] = defaultdict(set)
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        source = parts[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_lines(tree)
        for node in ast.walk(tree):
            if getattr(node, "lineno", None) in skip:
                continue
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                bits = name.split(".")
                if bits[0] == "anonsql" and len(bits) > 1:
                    target = bits[1]
                    known = (PACKAGE / target).is_dir() or (PACKAGE / f"{target}.py").exists()
                    if known and target != source:
                        graph[source].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_no_import_cycle_between_packages() -> None:
    cycle = find_cycle(package_graph())
    assert cycle is None, "import cycle between anonsql packages: " + " -> ".join(cycle or [])


def test_cycle_finder_finds_cycles() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}}) is None


def test_the_spine_calls_the_steps_in_order() -> None:
    """The orchestration names DESIGN's steps, in DESIGN's order."""
    text = (PACKAGE / "pipeline" / "run.py").read_text(encoding="utf-8")
    body = text[text.index("def run(") :]
    steps = [
        "resolve(",
        "load_hierarchies(",
        "prepared(",
        ".partition(",
        "stage(",
        "publish(",
        "verify(",
        "attack(",
        "measure(",
        "certify(",
        "report(",
    ]
    positions = [body.index(step) for step in steps]
    assert positions == sorted(positions)
    for step in ("resolve", "stage", "publish", "verify", "certify", "report"):
        assert (PACKAGE / step).is_dir(), f"the {step} step has no package of its own"


def test_a_duckdb_run_loads_no_other_driver() -> None:
    """Nor pandas (pyarrow imports it on its first ``pyarrow.array`` or ``to_numpy``;
    ``anonsql.arrow`` avoids both) or scipy (``anonsql.risk.special`` for the source's Pitman
    fit; sparse histograms for l-diversity and t-closeness): ~0.3 s each at startup, which a
    k-anonymity run through the CLI needs neither of (issue 17). Nor ``pyarrow.compute`` or
    rich (~30 ms each), which a run that prints nothing through rich does not need. Nor sqlglot
    (~0.12 s with its DuckDB dialect): DuckDB runs the templates as written
    (``tests/engines/test_lexical.py``). Nor the modules of what the run does not use: other
    privacy models, layouts and algorithm families (their registries import them by name on
    first use), ``anonsql init``, the HTML report, the export (issue 33's fixed cost)."""
    code = (
        "import sys, anonsql.api as a, anonsql.cli\n"
        "from anonsql.samples import load_adult\n"
        "from anonsql.demo import adult_spec\n"
        "e = a.open_engine(a.as_spec(adult_spec(':memory:', k=50)))\n"
        "load_adult(e); a.run(adult_spec(':memory:', k=50), engine=e)\n"
        "heavy = ('psycopg', 'pyspark', 'dbt', 'pandas', 'scipy', 'pyarrow.compute', 'rich',\n"
        "         'sqlglot', 'anonsql.privacy.uniqueness', 'anonsql.privacy.one_to_many',\n"
        "         'anonsql.layouts.person', 'anonsql.layouts.identity_reserved',\n"
        "         'anonsql.algorithms.personalized.algorithm', 'anonsql.algorithms.dependency',\n"
        "         'anonsql.init', 'anonsql.report.html', 'anonsql.release.export')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


#: Names ``typing`` gained after Python 3.10, the oldest anonsql supports (``requires-python``;
#: mypy checks as 3.11 for the stubs' sake): import them from ``typing_extensions``.
NEWER_TYPING = {
    "Self",
    "LiteralString",
    "Never",
    "assert_never",
    "assert_type",
    "reveal_type",
    "TypeVarTuple",
    "Unpack",
    "Required",
    "NotRequired",
    "dataclass_transform",
    "override",
    "TypeAliasType",
    "get_overloads",
    "clear_overloads",
}


def test_no_typing_name_newer_than_the_oldest_python() -> None:
    found = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "typing":
                found += [f"{path.name}: {a.name}" for a in node.names if a.name in NEWER_TYPING]
    assert found == []
