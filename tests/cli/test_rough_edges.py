"""The command line's rough edges (issue 32): a missing database is never created, ``--json``
errors are JSON on stdout, ``-v`` SQL is pasteable when piped, ``--version`` and ``--help``
load no pipeline, and a misspelled required key gets a did-you-mean."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import sqlglot
import yaml
from click.testing import CliRunner
from paths import ROOT
from test_cli import make_db, write_spec

from anonsql.cli import main

#: A release's commands and how each names a database that does not exist.
READ_WITH_DATABASE = [
    ["check", "--relation", "anon.people", "--qid", "age", "--model", "k_anonymity:k=5"],
    ["metrics", "--output", "anon.people"],
    ["status", "--output", "anon.people"],
    ["report", "--output", "anon.people"],
    ["attack", "--output", "anon.people"],
    ["cleanup"],
    ["risk", "--relation", "main.people", "--qid", "age"],
    ["init", "--table", "main.people", "--no-check"],
    ["export", "--output", "anon.people", "--to", "exported.duckdb"],
]
READ_WITH_SPEC = ["check", "metrics", "status", "report", "attack", "cleanup"]
READ_WITH_SPEC += ["export --to exported.duckdb"]


def typo_spec(tmp_path: Path) -> tuple[Path, Path]:
    """A spec whose ``database:`` names a file that does not exist (beside a real one)."""
    db = make_db(tmp_path)
    spec = write_spec(tmp_path, db)
    data = yaml.safe_load(spec.read_text(encoding="utf-8"))
    data["database"] = "peple.duckdb"
    spec.write_text(yaml.safe_dump(data), encoding="utf-8")
    return spec, tmp_path / "peple.duckdb"


@pytest.mark.parametrize("args", READ_WITH_DATABASE, ids=lambda a: a[0])
def test_a_missing_database_is_not_created_by_database(
    tmp_path: Path, args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # export's --to is relative
    missing = tmp_path / "peple.duckdb"
    ran = CliRunner().invoke(main, [args[0], "--database", str(missing), *args[1:]])
    assert ran.exit_code == 2, ran.output
    assert "does not exist" in ran.stderr and "peple.duckdb" in ran.stderr
    assert not missing.exists() and not Path("exported.duckdb").exists()


@pytest.mark.parametrize("command", [*READ_WITH_SPEC, "run", "run --dry-run"])
def test_a_missing_database_is_not_created_by_spec(
    tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # export's --to is relative
    spec, missing = typo_spec(tmp_path)
    name, *options = command.split()
    ran = CliRunner().invoke(main, [name, str(spec), *options])
    assert ran.exit_code == 2, ran.output
    assert "database: " in ran.stderr and "does not exist" in ran.stderr
    assert not missing.exists() and not Path("exported.duckdb").exists()
    assert sorted(p.name for p in tmp_path.glob("*.duckdb*")) == ["people.duckdb"]


def error_document(stdout: str) -> dict[str, Any]:
    found = json.loads(stdout)
    assert isinstance(found, dict) and set(found) == {"error", "exit_code"}
    assert set(found["error"]) == {"type", "message", "key"}
    return found


def test_json_errors_are_json_on_stdout(tmp_path: Path) -> None:
    runner = CliRunner()
    db = make_db(tmp_path)
    # a bad spec: a SpecError naming its key
    bad = write_spec(tmp_path, db, k=0)
    ran = runner.invoke(main, ["run", str(bad), "--json", "--quiet"])
    found = error_document(ran.stdout)
    assert ran.exit_code == found["exit_code"] == 2
    assert found["error"]["type"] == "SpecError"
    assert found["error"]["key"] == "privacy[0].k_anonymity.k"
    assert "privacy[0].k_anonymity.k" in found["error"]["message"]
    # no such release
    status = runner.invoke(
        main, ["status", "--database", str(db), "--output", "anon.nope", "--json"]
    )
    found = error_document(status.stdout)
    assert status.exit_code == found["exit_code"] == 2
    assert found["error"]["key"] == "output" and "anon.nope" in found["error"]["message"]
    # infeasible models: exit 3, not a SpecError (no key)
    hard = {"recursive_cl_diversity": {"column": "disease", "c": 0.1, "l": 3}}
    spec = write_spec(tmp_path, db, privacy=[hard])
    infeasible = runner.invoke(main, ["run", str(spec), "--json", "--quiet"])
    found = error_document(infeasible.stdout)
    assert infeasible.exit_code == found["exit_code"] == 3
    assert found["error"]["type"] == "InfeasibleError" and found["error"]["key"] is None
    # without --json, stdout stays empty and the error goes to stderr
    plain = runner.invoke(main, ["run", str(spec), "--quiet"])
    assert plain.exit_code == 3 and plain.stdout == "" and "error:" in plain.stderr


def test_verbose_sql_is_pasteable_when_piped(tmp_path: Path) -> None:
    """Piped, each statement is logged whole under a ``-- anonsql.sql`` comment and ends with
    ``;``: long lines are not wrapped at 80 columns, and the statements parse."""
    db = make_db(tmp_path)
    spec = write_spec(tmp_path, db)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "80"}
    done = subprocess.run(
        [sys.executable, "-m", "anonsql", "-v", "run", str(spec), "--quiet"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    records = done.stderr.split("-- anonsql.sql\n")[1:]
    assert len(records) > 20
    statements = [r.rsplit(";", 1)[0] for r in records]
    long_lines = [line for s in statements for line in s.splitlines() if len(line) > 80]
    assert long_lines, "no statement has a line longer than 80 characters"
    # statements without redacted values are SQL as it ran: they parse
    literal_free = [s for s in statements if "#" not in s and "'…'" not in s]
    assert any(len(s.splitlines()[0]) > 80 for s in literal_free)
    for statement in literal_free:
        sqlglot.parse_one(statement, read="duckdb")


@pytest.mark.parametrize("option", ["--version", "--help"])
def test_version_and_help_load_no_pipeline(option: str) -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "anonsql", option],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        check=True,
    )
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    heavy = {"anonsql.pipeline", "anonsql.api", "anonsql.engines", "duckdb", "pandas", "pyarrow"}
    assert "anonsql.cli" in imported
    assert not heavy & imported, heavy & imported
    assert ("version" in done.stdout) if option == "--version" else ("Commands:" in done.stdout)


@pytest.mark.parametrize(
    ("change", "key", "found"),
    [
        (lambda s: s.update(privcy=s.pop("privacy")), "privacy", "privcy"),
        (lambda s: s["columns"]["age"].update(rol=s["columns"]["age"].pop("role")), "role", "rol"),
        (lambda s: s["output"].update(nme=s["output"].pop("name")), "name", "nme"),
    ],
    ids=["top level", "column", "output"],
)
def test_a_misspelled_required_key_gets_a_did_you_mean(
    tmp_path: Path, change: Any, key: str, found: str
) -> None:
    db = make_db(tmp_path)
    spec = write_spec(tmp_path, db)
    data = yaml.safe_load(spec.read_text(encoding="utf-8"))
    change(data)
    spec.write_text(yaml.safe_dump(data), encoding="utf-8")
    ran = CliRunner().invoke(main, ["run", str(spec), "--quiet"])
    assert ran.exit_code == 2
    message = " ".join(ran.stderr.split())
    assert f"{key}: Field required" in message
    assert f"did you mean {key}? (found {found})" in message
