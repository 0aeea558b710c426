"""Every fenced code block of README.md, CONTRIBUTING.md and docs/**/*.md runs.

A page is a script: its blocks run in order in one working folder, laid out as a clone's root
after ``make setup`` for the commands the docs show: a copy of ``examples/``, the dbt package
where ``examples/dbt`` finds it, and ``.venv/bin`` (also first on PATH) holding ``anonsql`` (this
checkout's, as ``python -m anonsql``), ``python``, ``dbt``, an ``activate`` script and ``make``,
which runs ``make demo`` as the Makefile's recipe says (``make -n``). Shell blocks run under
bash; Python blocks with this checkout's anonsql; YAML specs are written and run with ``anonsql
run`` (in this process, which has anonsql imported already) or validated, as their info string
says; SQL blocks run on the DuckDB file the blocks before them built, or on the page's
PostgreSQL database. How a block says what to do: ``tests/support/doc_blocks.py``.

Blocks that do not run are marked ``no-run: REASON`` and must be listed in :data:`OPTED_OUT`
(so each one is seen in review); known failures (bugs) are marked ``xfail: REASON`` and must
fail. The docs test's summary (``tests/docs/conftest.py``) lists both. With
``ANONSQL_DOCS_SHOW=1`` and ``-s``, each block's time and output are printed.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml
from doc_blocks import SHELL, BadBlock, Block, all_blocks, blocks, page_words, pages
from paths import ROOT

#: Blocks that do not run, by (page, first line): each with the reason the page gives.
OPTED_OUT = {
    ("README.md", "make test"),
    ("README.md", "python3 -m venv .venv && . .venv/bin/activate"),
    # a running Spark session / a cluster: tests/engines/test_spark_api.py and
    # test_spark_topologies.py run these calls and this job
    ("docs/spark.md", "import anonsql.spark"),
    ("docs/spark.md", "spark-submit --master spark://spark-master:7077 --deploy-mode client \\"),
}

#: dbt's command line (``python -m dbt.cli.main`` warns that the module is imported twice).
DBT_MAIN = "import sys; from dbt.cli.main import cli; sys.exit(cli())"
#: Seconds a block may take.
TIMEOUT = 600
#: Top-level spec keys whose mappings a ``merge=`` fragment updates key by key (a ``~`` value
#: removes the key); every other key is replaced whole.
MERGED_KEYS = frozenset({"columns", "output", "risk"})


def page_params() -> list[Any]:
    params = []
    for page in pages():
        marks = [pytest.mark.slow] if "slow" in page_words(page) else []
        params.append(pytest.param(page, marks=marks, id=str(page)))
    return params


class Page:
    """The working folder, environment and state shared by one page's blocks."""

    def __init__(self, page: Path, tmp: Path, extra_env: dict[str, str]) -> None:
        self.page = page
        self.work = tmp / "work"
        # the clone after `make setup`: the commands are in .venv/bin (and on PATH)
        self.bin = self.work / ".venv" / "bin"
        self.scratch = tmp / "blocks"
        for folder in (self.work, self.bin, self.scratch):
            folder.mkdir(parents=True)
        shutil.copytree(
            ROOT / "examples",
            self.work / "examples",
            ignore=shutil.ignore_patterns("target", "dbt_packages", "logs", "*.duckdb*"),
        )
        (self.work / "integrations" / "dbt").mkdir(parents=True)
        (self.work / "integrations" / "dbt" / "anonsql_dbt").symlink_to(
            ROOT / "integrations" / "dbt" / "anonsql_dbt"
        )
        self._write_shims()
        inherited = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("ANONSQL_", "PG", "DBT_", "PYTEST_"))
        }
        self.env = {
            **inherited,
            "PATH": f"{self.bin}{os.pathsep}{os.environ.get('PATH', '')}",
            "PYTHONPATH": str(ROOT),
            "COLUMNS": "100",
            "NO_COLOR": "1",
            "DBT_SEND_ANONYMOUS_USAGE_STATS": "false",
            "DBT_VERSION_CHECK": "false",
            "DBT_PARTIAL_PARSE": "false",
            "DBT_USE_COLORS": "false",
            **extra_env,
        }
        self.count = 0
        self.specs = 0

    def _write_shims(self) -> None:
        python = shlex.quote(sys.executable)
        make_shim = shlex.quote(str(Path(__file__).with_name("make_shim.py")))
        real_make = shlex.quote(shutil.which("make") or "")
        shims = {
            "anonsql": f'exec {python} -m anonsql "$@"',
            "python": f'exec {python} "$@"',
            "python3": f'exec {python} "$@"',
            "dbt": f"exec {python} -c '{DBT_MAIN}' \"$@\"",
            "make": f'exec {python} {make_shim} {real_make} "$@"',
        }
        for name, body in shims.items():
            path = self.bin / name
            path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
            path.chmod(0o755)
        # sourced, as a virtual environment's: puts .venv/bin first on PATH
        (self.bin / "activate").write_text(
            f'PATH={shlex.quote(str(self.bin))}:"$PATH"; export PATH\n', encoding="utf-8"
        )

    def execute(self, command: list[str]) -> tuple[int, str]:
        """A process in the working folder and the page's environment: exit code, output."""
        done = subprocess.run(
            command,
            cwd=self.work,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        return done.returncode, done.stdout + done.stderr

    def shell(self, script: str) -> tuple[int, str]:
        path = self.scratch_file(".sh", script)
        return self.execute(["bash", "-e", "-o", "pipefail", str(path)])

    def scratch_file(self, suffix: str, text: str) -> Path:
        self.count += 1
        path = self.scratch / f"block{self.count}{suffix}"
        path.write_text(text, encoding="utf-8")
        return path

    # -- the languages -----------------------------------------------------------------------

    def run(self, block: Block) -> tuple[int, str]:
        """Run a block; return its exit code and output."""
        if "from" in block.options:
            return self.excerpt(block)
        if block.language in SHELL:
            return self.shell(block.text)
        if block.language == "console":
            return self.console(block)
        if block.language == "python":
            return self.execute([sys.executable, str(self.scratch_file(".py", block.text))])
        if block.language == "yaml":
            return self.yaml(block)
        if block.language == "sql":
            return self.sql(block)
        if block.language == "toml":
            return self.toml(block)
        raise AssertionError(block.language)

    def console(self, block: Block) -> tuple[int, str]:
        commands = [line[2:] for line in block.text.splitlines() if line.startswith("$ ")]
        expected = [
            line.strip()
            for line in block.text.splitlines()
            if line.strip() and not line.startswith("$ ")
        ]
        if not commands:
            raise BadBlock(f"{block.where}: a console block shows commands as `$ command`")
        code, output = self.shell("\n".join(commands) + "\n")
        shown = " ".join(output.split())
        missing = [line for line in expected if " ".join(line.split()) not in shown]
        if code == 0 and missing:
            return 1, f"{output}\n-- the block shows output the commands did not print: {missing}"
        return code, output

    def yaml(self, block: Block) -> tuple[int, str]:
        loaded = yaml.safe_load(block.text)
        target = block.options.get("file") or block.file_comment()
        if "merge" in block.options:
            base_path = self.work / block.options["merge"]
            base = yaml.safe_load(base_path.read_text(encoding="utf-8"))
            loaded = merge(base, loaded or {})
            if target is None:
                self.specs += 1
                target = str(
                    base_path.relative_to(self.work).with_name(
                        f"{base_path.stem}.{self.specs}.yaml"
                    )
                )
            text = yaml.safe_dump(loaded, sort_keys=False)
        else:
            text = block.text
        is_spec = isinstance(loaded, dict) and "source" in loaded
        if not is_spec:
            if target is None:
                raise BadBlock(
                    f"{block.where}: a YAML block that is not a spec names its file (file=) "
                    "or the repository file it quotes (from=)"
                )
            self.write(target, text)
            return 0, ""
        if target is None:
            self.specs += 1
            target = f"spec{self.specs}.yaml"
        path = self.write(target, text)
        if "write" in block.flags:
            return 0, ""
        if "validate" in block.flags:
            return validate(path)
        command = ["run", str(path.relative_to(self.work))]
        return self.cli([*command, "--dry-run" if "dry-run" in block.flags else "--quiet"])

    def cli(self, args: list[str]) -> tuple[int, str]:
        """``anonsql ARGS`` in this process (the test has anonsql imported already: a second
        of start-up saved per spec), in the working folder and the page's environment."""
        from click.testing import CliRunner

        from anonsql.cli import main

        with working_folder(self.work), patched_environ(self.env):
            done = CliRunner().invoke(main, args)
        return done.exit_code, done.output

    def write(self, relative: str, text: str) -> Path:
        path = self.work / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def excerpt(self, block: Block) -> tuple[int, str]:
        """The block's lines appear, in order, in the repository file it quotes."""
        source = ROOT / block.options["from"]
        if not source.is_file():
            return 1, f"{block.options['from']} does not exist"
        lines = [line.rstrip() for line in source.read_text(encoding="utf-8").splitlines()]
        position = 0
        for wanted in (line.rstrip() for line in block.text.splitlines()):
            if not wanted.strip():
                continue
            try:
                position = lines.index(wanted, position) + 1
            except ValueError:
                return 1, f"not in {block.options['from']} (in this order): {wanted!r}"
        return 0, ""

    def sql(self, block: Block) -> tuple[int, str]:
        if block.options.get("engine") == "postgres":
            import psycopg

            names = {"PGHOST": "host", "PGPORT": "port", "PGUSER": "user", "PGDATABASE": "dbname"}
            dsn = " ".join(f"{names[k]}={v}" for k, v in self.env.items() if k in names)
            if not dsn:
                raise BadBlock(f"{block.where}: the page does not ask for postgres")
            try:
                with psycopg.connect(dsn, autocommit=True) as con:
                    con.execute(block.text.encode())
            except psycopg.Error as err:
                return 1, str(err)
            return 0, ""
        database = self.database(block)
        output = []
        try:  # in the page's working folder, as the shell blocks: relative paths (COPY) land there
            with contextlib.chdir(self.work), duckdb.connect(str(database)) as con:
                for statement in con.extract_statements(block.text):
                    output.append(str(con.execute(statement).fetchall()))
        except duckdb.Error as err:
            return 1, f"{database.name}: {err}"
        return 0, "\n".join(output)

    def database(self, block: Block) -> Path:
        if "db" in block.options:
            return self.work / block.options["db"]
        files = sorted(self.work.rglob("*.duckdb"), key=lambda p: p.stat().st_mtime)
        if not files:
            raise BadBlock(f"{block.where}: no DuckDB file built yet to run this SQL on")
        return files[-1]

    def toml(self, block: Block) -> tuple[int, str]:
        """Entry points: the groups must be registries anonsql reads."""
        tomllib = pytest.importorskip("tomllib")  # Python 3.11

        from anonsql.algorithms.registry import ALGORITHMS
        from anonsql.engines.registry import ENGINES
        from anonsql.layouts.registry import LAYOUTS
        from anonsql.metrics.registry import METRICS
        from anonsql.privacy.registry import PRIVACY_MODELS

        groups = {r.group for r in (ALGORITHMS, ENGINES, LAYOUTS, METRICS, PRIVACY_MODELS)}
        data = tomllib.loads(block.text)
        declared = data.get("project", {}).get("entry-points", {})
        unknown = set(declared) - groups
        if not declared or unknown:
            return 1, f"entry-point groups {sorted(unknown) or '(none)'}; anonsql reads {groups}"
        return 0, ""


def validate(path: Path) -> tuple[int, str]:
    """A spec that needs a server, validated without one: the spec's keys, its models, the
    algorithm's options and its models, the engine's settings."""
    from anonsql.algorithms.registry import ALGORITHMS
    from anonsql.api import as_spec
    from anonsql.engines.registry import ENGINES
    from anonsql.errors import AnonsqlError
    from anonsql.privacy import models_from_entries

    try:
        spec = as_spec(path)
        models = models_from_entries(spec.privacy)
        algorithm = ALGORITHMS.get(spec.algorithm_name).from_spec(spec.algorithm_options)
        algorithm.check_models(models)
        unknown = ENGINES.get(spec.engine).refused_settings(spec.engine_settings)
    except AnonsqlError as err:
        return 2, str(err)
    return (2, f"engine_settings not accepted: {sorted(unknown)}") if unknown else (0, "")


@contextlib.contextmanager
def working_folder(path: Path) -> Iterator[None]:
    """``contextlib.chdir`` (Python 3.11)."""
    saved = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(saved)


@contextlib.contextmanager
def patched_environ(env: dict[str, str]) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def merge(base: dict[str, Any], fragment: dict[str, Any]) -> dict[str, Any]:
    """``base`` updated by ``fragment`` (:data:`MERGED_KEYS` key by key)."""
    merged = dict(base)
    for key, value in fragment.items():
        if key in MERGED_KEYS and isinstance(value, dict) and isinstance(merged.get(key), dict):
            inner = dict(merged[key])
            for name, item in value.items():
                if item is None:
                    inner.pop(name, None)
                else:
                    inner[name] = item
            merged[key] = inner
        elif value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged


def children_cpu() -> float:
    """CPU seconds of the finished child processes (a block's cost on a busy machine)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@pytest.fixture
def page_env(request: pytest.FixtureRequest) -> Iterator[dict[str, str]]:
    """PG* variables of a fresh database, for pages that ask for PostgreSQL."""
    page: Path = request.node.callspec.params["page"]
    words = page_words(page)
    if "dbt" in words:
        from dbt_kit import require_dbt

        require_dbt()
    if "postgres" not in words:
        yield {}
        return
    dsn = request.getfixturevalue("pg_database")
    parts = dict(item.split("=", 1) for item in dsn.split())
    yield {
        "PGHOST": parts["host"],
        "PGPORT": parts["port"],
        "PGUSER": parts["user"],
        "PGDATABASE": parts["dbname"],
    }


@pytest.mark.parametrize("page", page_params())
def test_page_runs(page: Path, tmp_path: Path, page_env: dict[str, str]) -> None:
    state = Page(page, tmp_path, page_env)
    for block in blocks(page):
        if block.language == "text" or block.skipped:
            continue
        started, cpu = time.monotonic(), children_cpu()
        code, output = state.run(block)
        expected_code = int(block.options.get("exit", "0"))
        seconds = time.monotonic() - started
        print(f"{block.where} {block.language}: {seconds:.1f} s, {children_cpu() - cpu:.1f} s CPU")
        if os.environ.get("ANONSQL_DOCS_SHOW"):  # pytest -s: each block's output
            print(output)
        if block.expected_failure:
            assert code != expected_code, (
                f"{block.where} is marked xfail ({block.expected_failure}) but ran: "
                "remove the marker"
            )
            continue
        assert code == expected_code, (
            f"{block.where} ({block.language}) exited {code}, expected {expected_code} "
            f"after {seconds:.1f} s:\n{block.text}\n--- output (last 6000 characters):\n"
            f"{output[-6000:]}"
        )
        if "expect" in block.options:
            assert block.options["expect"] in output, (
                f"{block.where}: the output does not hold {block.options['expect']!r}:\n{output}"
            )


def test_every_block_declares_how_it_runs() -> None:
    """Languages known, opt-outs with reasons and listed, text blocks hold no commands."""
    found = all_blocks()
    skipped = {(str(b.page), b.first_line) for b in found if b.skipped}
    assert skipped == OPTED_OUT, (
        "blocks marked no-run differ from OPTED_OUT: keep them rare and list each one; "
        f"not listed: {sorted(skipped - OPTED_OUT)}, listed but not found: "
        f"{sorted(OPTED_OUT - skipped)}"
    )
    for block in found:
        if block.language == "text":
            commands = [
                line
                for line in block.text.splitlines()
                if line.lstrip().startswith(("anonsql ", "$ ", "make ", "pip "))
            ]
            assert not commands, f"{block.where}: commands belong in a sh block: {commands}"


def test_pages_parse() -> None:
    for page in pages():
        page_words(page)
        blocks(page)
