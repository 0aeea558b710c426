"""``anonsql attack`` and ``anonsql.api.attack``: the attacks mounted on a published release
find what the publish step certified."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner
from helpers import load_people, people_spec

from anonsql import api
from anonsql.attacks import attack_results
from anonsql.cli import main
from anonsql.engines import DuckDBEngine, Engine


def test_attacks_on_demand_match_those_at_publish(engine: Engine, tmp_path: Path) -> None:
    load_people(engine)
    spec = people_spec(
        tmp_path,
        k=4,
        privacy=[
            {"k_anonymity": {"k": 4}},
            {"entropy_l_diversity": {"column": "disease", "l": 2}},
        ],
    )
    result = api.run(spec, engine=engine)
    at_publish = attack_results(result.certificate)
    on_demand = api.attack(engine, "anon.people")
    assert on_demand == at_publish
    inference = [r for r in on_demand if r.attack == "inference" and r.adversary == "certified"]
    assert inference and inference[0].bound is not None and not inference[0].breaks


def test_the_attack_command(tmp_path: Path) -> None:
    db = tmp_path / "people.duckdb"
    with DuckDBEngine(db) as engine:
        load_people(engine)
    spec = people_spec(tmp_path, k=5)
    spec["database"] = db.name
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(main, ["run", str(path)]).exit_code == 0
    shown = runner.invoke(main, ["attack", str(path)])
    assert shown.exit_code == 0, shown.output
    assert "singling_out" in shown.output and "linkage" in shown.output
    found = runner.invoke(
        main, ["attack", "--database", str(db), "--output", "anon.people", "--json"]
    )
    assert found.exit_code == 0, found.output
    results = json.loads(found.output)
    assert {r["attack"] for r in results} >= {"singling_out", "linkability", "inference"}
