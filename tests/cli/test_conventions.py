"""CLI conventions: --json (parsed by jq), --dry-run, -v/--log-level with redacted SQL,
ANONSQL_* settings, --version, the report command; and the package's public API."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from paths import ROOT
from test_cli import make_db, write_spec

import anonsql
from anonsql.cli import main
from anonsql.engines import DuckDBEngine
from anonsql.sql import TableName


def jq(expression: str, text: str) -> str:
    """``jq -r EXPRESSION`` of ``text`` (skipped where jq is missing, outside CI)."""
    if shutil.which("jq") is None:
        if os.environ.get("CI"):
            pytest.fail("jq is required in CI (.ci/run installs it)")
        pytest.skip("jq is not installed")
    done = subprocess.run(
        ["jq", "-r", expression], input=text, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_json_outputs_parse(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    spec = write_spec(tmp_path, db, k=5)
    runner = CliRunner()
    ran = runner.invoke(main, ["run", str(spec), "--json", "--quiet"])
    assert ran.exit_code == 0, ran.output
    found = json.loads(ran.stdout)
    assert found["verified"] is True and found["output"] == "anon.people"
    assert found["certificate"]["models"] == [{"k_anonymity": {"k": 5}}]
    assert jq(".certificate.source_rows", ran.stdout) == "400"
    assert jq('.metrics[] | select(.metric == "ncp" and .attribute == null) | .value', ran.stdout)
    checked = runner.invoke(main, ["check", str(spec), "--json"])
    assert checked.exit_code == 0
    assert jq(".holds", checked.stdout) == "true"
    measured = runner.invoke(main, ["metrics", str(spec), "--json"])
    classes = jq('map(select(.metric == "classes")) | .[0].value', measured.stdout)
    assert float(classes) == found["certificate"]["classes"]
    status = runner.invoke(main, ["status", str(spec), "--json"])
    assert jq(".stale", status.stdout) == "false"


def test_dry_run_writes_nothing_and_shows_the_plan(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    spec = write_spec(tmp_path, db, k=5)
    runner = CliRunner()
    planned = runner.invoke(main, ["run", str(spec), "--dry-run", "--json"])
    assert planned.exit_code == 0, planned.output
    plan = json.loads(planned.stdout)
    assert plan["rows"] == 400 and plan["algorithm"] == "mondrian"
    assert plan["quasi_identifiers"]["age"].startswith("numeric")
    assert "anon.people" in plan["publishes"] and plan["dropped"] == ["name"]
    assert plan["statements"] and all("'…'" in s or "'" not in s for s in plan["statements"])
    assert not any(re.search(r"\b\d{2,}\b", s) for s in plan["statements"])
    text = runner.invoke(main, ["run", str(spec), "--dry-run"])
    assert "nothing was written" in text.stdout and "SELECT" in text.stdout
    with DuckDBEngine(db) as engine:
        assert not engine.schema_exists("anon")
        assert not engine.exists(TableName("people", "anon"))


def test_verbose_shows_redacted_sql(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    spec = write_spec(tmp_path, db, k=5)
    ran = CliRunner().invoke(main, ["-v", "run", str(spec), "--quiet"])
    assert ran.exit_code == 0, ran.output
    assert "anonsql.sql" in ran.stderr and "SELECT" in ran.stderr
    # the city hierarchy's values reach SQL as literals, and never the log
    assert "'…'" in ran.stderr
    for value in ("Austin", "Toronto", "Boston"):
        assert value not in ran.stderr
    # numbers too: incomes are multiples of 1000 from 10000 to 200000, and their extremes and
    # split points would otherwise reach the SQL as literals
    assert " # " in ran.stderr
    assert not re.findall(r"\b\d{2,3}000\b", ran.stderr)
    quiet = CliRunner().invoke(main, ["run", str(spec), "--quiet"])
    assert "SELECT" not in quiet.stderr


def test_settings_from_environment(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    spec = write_spec(tmp_path, db, k=5)
    runner = CliRunner()
    assert runner.invoke(main, ["run", str(spec), "--quiet"]).exit_code == 0
    env = {"ANONSQL_DATABASE": str(db), "ANONSQL_METRICS_JSON": "1"}
    measured = runner.invoke(main, ["metrics", "--output", "anon.people"], env=env)
    assert measured.exit_code == 0, measured.output
    assert any(m["metric"] == "ncp" for m in json.loads(measured.stdout))
    logged = runner.invoke(
        main, ["status", str(spec)], env={"ANONSQL_LOG_LEVEL": "debug", "ANONSQL_STATUS_JSON": "1"}
    )
    assert "SELECT" in logged.stderr and json.loads(logged.stdout)["stale"] is False


def test_version_and_report_command(tmp_path: Path) -> None:
    runner = CliRunner()
    version = runner.invoke(main, ["--version"])
    assert version.exit_code == 0 and anonsql.__version__ in version.stdout
    db = make_db(tmp_path)
    spec = write_spec(tmp_path, db, k=5)
    report = tmp_path / "people.html"
    ran = runner.invoke(main, ["run", str(spec), "--quiet", "--report", str(report)])
    assert ran.exit_code == 0, ran.output
    assert "<h2>Equivalence classes</h2>" in report.read_text(encoding="utf-8")
    again = tmp_path / "again.html"
    made = runner.invoke(
        main, ["report", "--database", str(db), "--output", "anon.people", "-o", str(again)]
    )
    assert made.exit_code == 0, made.output
    assert "anon.people" in again.read_text(encoding="utf-8")
    missing = runner.invoke(main, ["report", "--database", str(db), "--output", "anon.nope"])
    assert missing.exit_code == 2 and "not a relation published by anonsql" in missing.stderr


def test_import_is_cheap() -> None:
    """``import anonsql`` loads no database driver, data frame or report code."""
    code = (
        "import sys, anonsql\n"
        "heavy = [m for m in ('duckdb', 'psycopg', 'pandas', 'anonsql.api') if m in sys.modules]\n"
        "print(heavy)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "[]"


def test_package_conventions() -> None:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = project["dependencies"]
    duckdb = next(d for d in core if d.startswith("duckdb"))
    assert "<3" in duckdb  # 2.0 broke the Python API; stay below the next major
    assert not any(d.startswith(("psycopg", "dbt", "pyspark")) for d in core)
    extras = project["optional-dependencies"]
    assert {"postgres", "dbt", "spark", "report"} <= set(extras)
    assert (ROOT / "anonsql" / "py.typed").is_file()


def test_error_messages_keep_their_brackets(tmp_path: Path) -> None:
    """An error's text is printed as it is (rich markup would eat ``[postgres]``)."""
    db = make_db(tmp_path)
    spec = write_spec(tmp_path, db, k=5, algorithm="[no_such_algorithm]")
    ran = CliRunner().invoke(main, ["run", str(spec), "--quiet"])
    assert ran.exit_code == 2 and "[no_such_algorithm]" in ran.stderr


def test_duckdb_progress_bar_is_off() -> None:
    """DuckDB prints its own progress bar to stdout during statements longer than two seconds
    (seen at 1e7 rows), which corrupted ``anonsql run --json``: engines anonsql opens turn it
    off, and a connection the caller owns is left as it is."""
    import duckdb

    query = "SELECT current_setting('enable_progress_bar')"
    with DuckDBEngine() as engine:
        assert engine.con.execute(query).fetchall() == [(False,)]
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = true")
    DuckDBEngine(connection=con)
    assert con.execute(query).fetchall() == [(True,)]
