"""The suite on the newest releases pip finds, upper bounds lifted (`make test-newest`; a
scheduled CI job, not part of `.ci/run`): tells when a capped dependency can be raised.

Creates .venv-newest, installs anonsql without dependencies and then every requirement of its
core, `postgres`, `test` and `dbt` extras with the upper bound removed, prints each library whose
newest release is beyond the bound pyproject.toml sets, and runs the tests. If they pass, raise
those bounds; if not, the failures say what the new major changed.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv-newest"
EXTRAS = ("postgres", "test", "dbt")
_BOUND = re.compile(r",?\s*<[^,;\]]+")


def requirements(extras: tuple[str, ...] = EXTRAS, core: bool = True) -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    found = list(project["dependencies"]) if core else []
    for extra in extras:
        found += [r for r in project["optional-dependencies"][extra] if not r.startswith("anonsql")]
    return found


def lifted(requirement: str) -> str:
    """The requirement without its upper bound (`sqlglot>=25.0,<31` -> `sqlglot>=25.0`)."""
    return _BOUND.sub("", requirement)


def main() -> int:
    if not VENV.exists():
        venv.create(VENV, with_pip=True)
    pip = [str(VENV / "bin" / "python"), "-m", "pip", "install", "-q", "--upgrade"]
    wanted = requirements()
    subprocess.run([*pip, *[lifted(r) for r in requirements(("postgres", "test"))]], check=True)
    # dbt-core 1.12 downloads a parser binary from GitHub while it builds: where that fails
    # (offline registries), the dbt extra keeps its bounds and the line below says so
    dbt = requirements(("dbt",), core=False)
    if subprocess.run([*pip, *[lifted(r) for r in dbt]]).returncode != 0:
        print("the newest dbt does not install here; the dbt extra keeps its bounds")
        subprocess.run([*pip, *dbt], check=True)
    subprocess.run([*pip, "--no-deps", "-e", str(ROOT)], check=True)
    installed = subprocess.run(
        [str(VENV / "bin" / "python"), "-m", "pip", "list", "--format=freeze"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    versions = dict(line.lower().split("==", 1) for line in installed.splitlines() if "==" in line)
    beyond = []
    for requirement in wanted:
        name = re.split(r"[<>=!\[ ]", requirement, maxsplit=1)[0].lower()
        caps = re.findall(r"<\s*([0-9][^,;\]]*)", requirement)
        version = versions.get(name)
        if caps and version and _key(version) >= _key(caps[0]):
            beyond.append(f"{name} {version} (bound <{caps[0]})")
    print("beyond the bounds: " + (", ".join(beyond) if beyond else "none"))
    tests = subprocess.run(
        [str(VENV / "bin" / "python"), "-m", "pytest", "-q", "-n", "2", *sys.argv[1:]], cwd=ROOT
    )
    if beyond:
        verdict = "raise them" if tests.returncode == 0 else "the tests say what changed"
        print(f"newest releases beyond the bounds: {', '.join(beyond)}; {verdict}")
    return tests.returncode


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)[:3])


if __name__ == "__main__":
    raise SystemExit(main())
