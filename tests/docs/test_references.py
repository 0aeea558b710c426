"""The documentation names what exists, and the reference pages name everything there is.

Every ``anonsql.x.y`` name a page mentions imports, every repository path it gives (in inline
code) exists, every relative link and anchor resolves; and the reference pages cover every
registered privacy model (with its parameters and guard), algorithm (with its options),
metric, engine (with its settings and capabilities), layout, command (with its options), spec
key, hierarchy builder and public API name. A layout change that moves a module, or a new
model without its row, fails here.
"""

from __future__ import annotations

import importlib
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from doc_blocks import pages
from paths import ROOT

#: Pages checked for names, paths and links: the documentation and the READMEs beside the data.
DOCUMENTS = [
    *pages(),
    Path("datasets/README.md"),
    Path("hierarchies/README.md"),
    Path("examples/dbt/README.md"),
    Path("integrations/dbt/anonsql_dbt/README.md"),
]
_FENCE = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1[ \t]*$", re.S | re.M)
_CODE = re.compile(r"`([^`\n]+)`")
_DOTTED = re.compile(r"(?<![\w./-])anonsql(?:\.[A-Za-z_]\w*)+")
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
_ROOTS = (
    "anonsql/",
    "sql_templates/",
    "tests/",
    "bench/",
    "examples/",
    "hierarchies/",
    "datasets/",
    "docs/",
    "integrations/",
    ".ci/",
)
_FILES = ("Makefile", "pyproject.toml", "BENCHMARKS.md", "CONTRIBUTING.md", "README.md")
#: File name endings: ``anonsql.yaml`` is a file, not a module.
_EXTENSIONS = {"py", "md", "yaml", "yml", "sql", "txt", "csv", "duckdb", "html", "json", "toml"}


def text(page: Path) -> str:
    return (ROOT / page).read_text(encoding="utf-8")


def prose(page: Path) -> str:
    """The page without its fenced blocks (those run in test_snippets)."""
    return _FENCE.sub("", text(page))


def entry_point_groups() -> set[str]:
    from anonsql.algorithms.registry import ALGORITHMS
    from anonsql.engines.registry import ENGINES
    from anonsql.layouts.registry import LAYOUTS
    from anonsql.metrics.registry import METRICS, ON_DEMAND
    from anonsql.privacy.registry import PRIVACY_MODELS

    registries = (ALGORITHMS, ENGINES, LAYOUTS, METRICS, ON_DEMAND, PRIVACY_MODELS)
    return {str(r.group) for r in registries}


def resolve(dotted: str) -> object:
    """The object a dotted name names: the longest importable module, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return found
    raise ModuleNotFoundError(dotted)


@pytest.mark.parametrize("page", DOCUMENTS, ids=str)
def test_dotted_names_import(page: Path) -> None:
    groups = entry_point_groups()
    missing = []
    for dotted in sorted(set(_DOTTED.findall(text(page)))):
        if dotted in groups or dotted.rsplit(".", 1)[-1] in _EXTENSIONS:
            continue
        try:
            resolve(dotted)
        except (ImportError, AttributeError) as err:
            missing.append(f"{dotted}: {err}")
    assert not missing, f"{page} names what does not exist:\n" + "\n".join(missing)


def repository_paths(page: Path) -> Iterator[str]:
    for span in _CODE.findall(prose(page)):
        span = re.sub(r"<[^>]+>", "*", span).strip()
        candidate = span.split()[0].split("::")[0] if span else ""
        if candidate.startswith(_ROOTS) or candidate in _FILES:
            yield candidate.rstrip(".,;:")


@pytest.mark.parametrize("page", DOCUMENTS, ids=str)
def test_repository_paths_exist(page: Path) -> None:
    missing = []
    for path in sorted(set(repository_paths(page))):
        pattern = path.rstrip("/")
        if "*" in pattern:
            found = list(ROOT.glob(pattern))
        else:
            found = [ROOT / pattern] if (ROOT / pattern).exists() else []
        if not found:
            missing.append(path)
    assert not missing, f"{page} gives paths that do not exist: {missing}"


def slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    heading = re.sub(r"[`*]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", heading).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for line in prose(page).splitlines():
        match = re.match(r"#{1,6}\s+(.*)", line)
        if match:
            base = slug(match[1])
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


@pytest.mark.parametrize("page", DOCUMENTS, ids=str)
def test_links_resolve(page: Path) -> None:
    broken = []
    for target in _LINK.findall(prose(page)):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (ROOT / page).parent / path if path else ROOT / page
        if not linked.exists() or (
            anchor
            and linked.suffix == ".md"
            and anchor not in anchors(linked.resolve().relative_to(ROOT))
        ):
            broken.append(target)
    assert not broken, f"{page} has broken links: {broken}"


# -- the reference pages name everything there is ---------------------------------------------


def mentions(page: str, names: set[str] | list[str]) -> list[str]:
    """The names the page does not give as inline code."""
    spans = set(_CODE.findall(text(Path(page))))
    words = {w for span in spans for w in re.findall(r"[\w.-]+", span)}
    return sorted(n for n in names if n not in spans and n not in words)


def test_spec_reference_names_every_key() -> None:
    from anonsql.spec.model import ColumnSpec, JoinSpec, OutputSpec, RiskSpec, Spec

    keys = set()
    for model in (Spec, OutputSpec, ColumnSpec, RiskSpec, JoinSpec):
        for name, info in model.model_fields.items():
            if not info.exclude:
                keys.add(info.alias or name)
    assert not mentions("docs/spec.md", keys)


def test_spec_reference_names_every_hierarchy_builder() -> None:
    from anonsql.hierarchies.builders import BUILDERS

    builders = BUILDERS
    missing = mentions("docs/spec.md", [name for name, _ in builders.items()])
    options = [
        field for _, cls in builders.items() for field in cls.model_fields if field != "builder"
    ]
    assert not missing and not mentions("docs/spec.md", options)


def model_rows() -> dict[str, tuple[str, str]]:
    """docs/privacy-models.md's "Every model" table: name -> (parameters, guard)."""
    section = text(Path("docs/privacy-models.md")).split("## Every model", 1)[1].split("\n## ")[0]
    rows: dict[str, tuple[str, str]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if len(cells) == 4 and cells[0].startswith("`"):
            for name in re.findall(r"`(\w+)`", cells[0]):
                rows[name] = (cells[1], cells[3])
    return rows


def test_privacy_models_table_matches_the_registry() -> None:
    from anonsql.privacy.registry import PRIVACY_MODELS

    rows = model_rows()
    assert set(rows) == {name for name, _ in PRIVACY_MODELS.items()}
    wrong = []
    for name, cls in PRIVACY_MODELS.items():
        parameters, guard = rows[name]
        fields = set(cls.Params.model_fields)
        listed = set(re.findall(r"\w+", parameters))
        if not fields <= listed or (parameters == "none") != (not fields):
            wrong.append(f"{name}: parameters {sorted(fields)}, listed {parameters!r}")
        if guard != cls.guard:
            wrong.append(f"{name}: guard {cls.guard}, listed {guard}")
    assert not wrong, "\n".join(wrong)


def all_docs() -> str:
    return "\n".join(text(p) for p in pages())


def test_every_algorithm_and_option_is_documented() -> None:
    from anonsql.algorithms.registry import ALGORITHMS

    names = [name for name, _ in ALGORITHMS.items()]
    assert not mentions("docs/algorithms.md", names)
    documented = set(_CODE.findall(all_docs()))
    words = {w for span in documented for w in re.findall(r"[\w.-]+", span)}
    missing = [
        f"{name}.{option}"
        for name, cls in ALGORITHMS.items()
        for option in cls.Options.model_fields
        if option not in words
    ]
    assert not missing


def test_every_metric_engine_and_layout_is_documented() -> None:
    from anonsql.engines.base import Engine
    from anonsql.engines.registry import ENGINES
    from anonsql.layouts.registry import LAYOUTS
    from anonsql.metrics.registry import METRICS

    assert not mentions("docs/releases.md", [name for name, _ in METRICS.items()])
    engines = [name for name, _ in ENGINES.items()]
    settings = [s for name in engines for s in ENGINES.get(name).settings]
    capabilities = [
        name
        for name, value in vars(Engine).items()
        if isinstance(value, bool) and not name.startswith("_")
    ]
    assert not mentions("docs/engines.md", [*engines, *settings, *capabilities])
    layouts = [name for name, _ in LAYOUTS.items()]
    assert not mentions("docs/extending.md", [*layouts, *entry_point_groups()])


def test_every_command_and_option_is_documented() -> None:
    from anonsql.cli import main

    page = text(Path("docs/cli.md"))
    missing = []
    for name, command in main.commands.items():
        if f"## `{name}`" not in page:
            missing.append(name)
        for param in command.params:
            if isinstance(param, click.Option):
                longest = max(param.opts, key=len)
                if longest not in page:
                    missing.append(f"{name} {longest}")
    for param in main.params:
        if isinstance(param, click.Option) and max(param.opts, key=len) not in page:
            missing.append(max(param.opts, key=len))
    assert not missing


def test_every_sample_is_documented() -> None:
    from anonsql.samples import SAMPLES

    assert not mentions("docs/cli.md", list(SAMPLES))


def test_python_api_page_names_the_public_api() -> None:
    import anonsql

    public = [name for name in anonsql.__all__ if name != "__version__"]
    assert not mentions("docs/python-api.md", public)


def test_make_targets_exist() -> None:
    targets = set()
    for page in DOCUMENTS:
        targets |= set(re.findall(r"(?:`|^)make ([a-z][\w-]*)", text(page), re.M))
    declared = set(re.findall(r"^([\w-]+):", text(Path("Makefile")), re.M))
    assert {"demo", "test"} <= targets
    assert not targets - declared, sorted(targets - declared)


def test_error_messages_point_at_the_spec_reference() -> None:
    pointers = subprocess.run(
        ["grep", "-rn", "README", "anonsql/spec/"], cwd=ROOT, capture_output=True, text=True
    ).stdout
    assert not pointers, pointers
