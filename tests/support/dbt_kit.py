"""Running real dbt from the tests: a dbt subprocess (the interpreter running the tests, so
dbt imports this checkout of anonsql), profiles for DuckDB and the test PostgreSQL server, and
the results dbt writes (run_results.json, compiled SQL, manifest)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
import yaml
from paths import ROOT

PACKAGE = ROOT / "integrations" / "dbt" / "anonsql_dbt"


def require_dbt() -> None:
    """Skip without dbt (the ``anonsql[dbt]`` extra), except where the test command installed
    it (``make test`` sets ANONSQL_REQUIRE_DBT): there a missing dbt is a failure."""
    if importlib.util.find_spec("dbt.adapters.duckdb") and importlib.util.find_spec(
        "dbt.adapters.postgres"
    ):
        return
    message = "dbt-core, dbt-duckdb and dbt-postgres are not installed (pip install anonsql[dbt])"
    if os.environ.get("ANONSQL_REQUIRE_DBT") or os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def require_dbt_spark() -> None:
    """Skip without dbt-spark (the ``anonsql[dbt-spark]`` extra), except in CI."""
    if importlib.util.find_spec("dbt.adapters.spark") and importlib.util.find_spec("pyspark"):
        return
    message = "dbt-spark is not installed (pip install 'anonsql[dbt-spark]')"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def dbt_env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DBT_", "PG")) and k != "PYTEST_CURRENT_TEST"
    }
    env.update(
        DBT_SEND_ANONYMOUS_USAGE_STATS="false",
        DBT_VERSION_CHECK="false",
        DBT_PARTIAL_PARSE="false",
        DBT_USE_COLORS="false",
        PYTHONPATH=str(ROOT),
    )
    env.update(extra)
    return env


@dataclass
class DbtRun:
    returncode: int
    output: str
    project: Path

    def results(self) -> dict[str, dict[str, Any]]:
        """run_results.json by node unique_id: status, failures, message."""
        data = json.loads((self.project / "target" / "run_results.json").read_text())
        return {r["unique_id"]: r for r in data["results"]}

    def manifest(self) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads((self.project / "target" / "manifest.json").read_text())
        return loaded


def dbt(project: Path, *args: str, env: dict[str, str] | None = None, ok: bool = True) -> DbtRun:
    """``dbt ARGS`` in ``project`` (profiles.yml beside dbt_project.yml)."""
    done = subprocess.run(
        [sys.executable, "-m", "dbt.cli.main", *args, "--profiles-dir", str(project)],
        cwd=project,
        env=env or dbt_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    run = DbtRun(done.returncode, done.stdout + done.stderr, project)
    if ok and done.returncode != 0:
        raise AssertionError(f"dbt {' '.join(args)} failed:\n{run.output[-6000:]}")
    return run


def pg_profile(dsn: str, schema: str) -> dict[str, Any]:
    """A dbt-postgres target for a test database (password through env_var, as documented)."""
    parts = psycopg.conninfo.conninfo_to_dict(dsn)
    return {
        "type": "postgres",
        "host": parts["host"],
        "port": int(str(parts["port"])),
        "user": parts["user"],
        "password": "{{ env_var('DBT_ENV_SECRET_PG_PASSWORD', '') }}",
        "dbname": parts["dbname"],
        "schema": schema,
        "threads": 1,
    }


def write_profiles(
    project: Path, name: str, outputs: dict[str, dict[str, Any]], target: str
) -> None:
    profiles = {name: {"target": target, "outputs": outputs}}
    (project / "profiles.yml").write_text(yaml.safe_dump(profiles, sort_keys=False))


def write_project(project: Path, name: str, **extra: Any) -> None:
    project.mkdir(parents=True, exist_ok=True)
    config = {
        "name": name,
        "version": "1.0.0",
        "config-version": 2,
        "profile": name,
        "flags": {"send_anonymous_usage_stats": False},
        **extra,
    }
    (project / "dbt_project.yml").write_text(yaml.safe_dump(config, sort_keys=False))
    (project / "packages.yml").write_text(
        yaml.safe_dump({"packages": [{"local": str(PACKAGE)}]}, sort_keys=False)
    )


def dbt_in_process(project: Path, *args: str, ok: bool = True) -> DbtRun:
    """``dbt ARGS`` in this process: dbt-spark's ``session`` method runs its SQL on this
    process's active Spark session (the tests' one, with their tables), which a dbt subprocess
    would not see."""
    from dbt.cli.main import dbtRunner
    from dbt_common.events.base_types import EventMsg

    lines: list[str] = []

    def keep(event: EventMsg) -> None:
        # the protobuf message has a msg field its type stubs leave out
        lines.append(f"[{event.info.name}] {getattr(event.info, 'msg', '')}")

    # no log file: dbt's file handler would stay open in this process
    flags = ["--no-partial-parse", "--no-send-anonymous-usage-stats", "--no-use-colors"]
    flags += ["--log-level-file", "none"]
    done = dbtRunner(callbacks=[keep]).invoke(
        [*args, *flags, "--project-dir", str(project), "--profiles-dir", str(project)]
    )
    run = DbtRun(0 if done.success else 1, "\n".join(lines), project)
    if ok and not done.success:
        raise AssertionError(f"dbt {' '.join(args)} failed:\n{run.output[-6000:]}")
    return run
