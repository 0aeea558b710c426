"""``anonsql risk`` on any table (thin over ``api.risk``) and the risk figures ``anonsql
metrics`` shows for a release, cross-checked by hand on a small table."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import yaml
from click.testing import CliRunner
from helpers import load_people, people_spec

from anonsql import api
from anonsql.cli import main
from anonsql.engines import DuckDBEngine
from anonsql.sql import TableName


def small_db(tmp_path: Path) -> Path:
    """Classes of sizes 1, 1, 2 and 4 over (zip, sex): 8 records, 2 sample uniques."""
    db = tmp_path / "small.duckdb"
    zips = ["1", "2", "3", "3", "4", "4", "4", "4"]
    with DuckDBEngine(db) as engine:
        engine.load_arrow(
            TableName("t", "main"), pa.table({"zip": zips, "sex": ["f"] * 8, "w": [2.0] * 8})
        )
    return db


def test_risk_command_prints_the_figures(tmp_path: Path) -> None:
    db = small_db(tmp_path)
    args = ["risk", "--database", str(db), "--relation", "main.t", "--qid", "zip", "--qid", "sex"]
    result = CliRunner().invoke(main, [*args, "--population-size", "80", "--threshold", "0.3"])
    assert result.exit_code == 0, result.output
    lines = {
        parts[1]: float(parts[2])
        for line in result.output.splitlines()
        if len(parts := [p.strip() for p in line.split("│")]) == 4
        and parts[1]
        and parts[2].replace(".", "").replace("e-", "").isdigit()
    }
    # by hand: prosecutor risk per record 1, 1, 1/2, 1/2, 1/4 x 4; average = classes / records
    assert lines["records"] == 8 and lines["classes"] == 4
    assert lines["prosecutor.highest_risk"] == 1.0
    assert lines["prosecutor.success_rate"] == 4 / 8
    assert lines["prosecutor.records_at_risk"] == 4 / 8  # risk above 0.3: 1, 1, 1/2, 1/2
    assert lines["sample_uniques"] == 2 and lines["sample_uniqueness"] == 2 / 8
    assert lines["population_size"] == 80 and lines["sampling_fraction"] == 0.1
    # --json gives the same figures to pipelines
    as_json = CliRunner().invoke(main, [*args, "--population-size", "80", "--json"])
    assert as_json.exit_code == 0, as_json.output
    figures = json.loads(as_json.output)["figures"]
    assert figures["prosecutor.highest_risk"] == 1.0 and figures["sample_uniques"] == 2
    # a missing column is named with the fix, exit code 2
    bad = CliRunner().invoke(main, [*args[:-2], "--qid", "nope"])
    assert bad.exit_code == 2 and "nope" in bad.output and "the columns are" in bad.output


def test_api_risk_with_a_population_table(tmp_path: Path) -> None:
    db = small_db(tmp_path)
    with DuckDBEngine(db) as engine:
        engine.load_arrow(
            TableName("p", "main"),
            pa.table({"zip": ["1", "2", "3", "4"], "sex": ["f"] * 4, "n": [1, 10, 4, 4]}),
        )
        report = api.risk(
            engine, "main.t", ["zip", "sex"], population="main.p", population_count="n"
        )
        figures = report.figures()
    # journalist: a record's risk is 1 / (its class's persons in the population): 1, 1/10,
    # 1/4 (x2), 1/4 (x4); highest 1, classes matched on the population
    assert report.journalist_source == "population"
    assert figures["journalist.highest_risk"] == 1.0
    assert figures["journalist.lowest_risk"] == 0.1
    assert figures["population_size"] == 19


def test_metrics_command_shows_the_release_risk(tmp_path: Path) -> None:
    db = tmp_path / "people.duckdb"
    with DuckDBEngine(db) as engine:
        load_people(engine)
    spec = people_spec(tmp_path, k=5)
    spec["columns"].pop("note")
    spec["database"] = db.name
    spec["risk"] = {"population_size": 4000}
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(main, ["run", str(path)]).exit_code == 0
    result = runner.invoke(main, ["metrics", "--database", str(db), "--output", "anon.people"])
    assert result.exit_code == 0, result.output
    assert "risk.prosecutor.highest_risk" in result.output
    assert "risk.population_uniqueness.pitman" in result.output or "risk.sample_uniques" in (
        result.output
    )


def test_a_population_smaller_than_the_source_is_refused_before_any_work(
    tmp_path: Path,
) -> None:
    """The risk estimates need a population at least the source's size: a smaller one is
    refused when the source is profiled, naming the key and the size to give, with nothing
    written (the measure step refused it only after the whole run)."""
    db = tmp_path / "people.duckdb"
    with DuckDBEngine(db) as engine:
        load_people(engine)
        rows = engine.count_rows(TableName("people", "main"))
    spec = people_spec(tmp_path, k=5)
    spec["database"] = db.name
    spec["risk"] = {"population_size": rows - 1}
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(path)])
    assert result.exit_code == 2, result.output
    assert "risk.population_size" in result.output and f"at least {rows}" in result.output
    assert "Traceback" not in result.output
    with DuckDBEngine(db) as engine:
        assert engine.relation_kind(TableName("people", "anon")) is None
        assert engine.relation_kind(TableName("people__version_rows", "anon_private")) is None
