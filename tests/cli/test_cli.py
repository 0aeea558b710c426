"""The CLI: run, check, metrics, demo, and documented exit codes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner
from helpers import load_people, people_spec

from anonsql.cli import main
from anonsql.engines import DuckDBEngine


def make_db(tmp_path: Path) -> Path:
    db = tmp_path / "people.duckdb"
    with DuckDBEngine(db) as engine:
        load_people(engine)
    return db


def write_spec(tmp_path: Path, db: Path, **overrides: Any) -> Path:
    spec = people_spec(tmp_path, **overrides)
    spec["database"] = db.name  # relative to the spec file's folder
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    return path


def check_args(db: Path, k: int) -> list[str]:
    """`anonsql check` of anon.people's three QIDs against k-anonymity."""
    qids = [arg for q in ("age", "city", "income") for arg in ("--qid", q)]
    return [
        "check",
        "--database",
        str(db),
        "--relation",
        "anon.people",
        *qids,
        "--model",
        f"k_anonymity:k={k}",
    ]


def test_run_check_metrics_round_trip(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    spec = write_spec(tmp_path, db, k=5)
    runner = CliRunner()
    result = runner.invoke(main, ["run", str(spec)])
    assert result.exit_code == 0, result.output
    assert "verified" in result.output and "anon.people" in result.output
    result = runner.invoke(main, ["check", str(spec)])
    assert result.exit_code == 0 and "holds" in result.output
    result = runner.invoke(main, check_args(db, 5))
    assert result.exit_code == 0, result.output
    # a stricter model than the one published: violations, exit code 4
    result = runner.invoke(main, check_args(db, 50))
    assert result.exit_code == 4 and "VIOLATED" in result.output
    result = runner.invoke(main, ["metrics", "--database", str(db), "--output", "anon.people"])
    assert result.exit_code == 0 and "ncp" in result.output


def test_exit_code_for_bad_spec(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    spec = write_spec(tmp_path, db, k=0)
    result = CliRunner().invoke(main, ["run", str(spec)])
    assert result.exit_code == 2
    assert "privacy[0].k_anonymity.k" in result.output
    missing = CliRunner().invoke(main, ["run", str(tmp_path / "nope.yaml")])
    assert missing.exit_code == 2


def test_exit_code_for_invalid_yaml(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("source: [unclosed\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(path)])
    assert result.exit_code == 2 and "line" in result.output


def test_demo(tmp_path: Path) -> None:
    db = tmp_path / "demo.duckdb"
    result = CliRunner().invoke(main, ["demo", "--database", str(db)])
    assert result.exit_code == 0, result.output
    assert "30162" in result.output and "verified" in result.output
    with DuckDBEngine(db) as engine:
        assert engine.fetchall("SELECT count(*) FROM anon.adult")[0][0] == 30162
