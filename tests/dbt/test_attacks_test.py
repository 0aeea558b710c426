"""The dbt package's `attacks` test against `anonsql attack`, on DuckDB and PostgreSQL.

A release published by anonsql passes the test (every attack with a bound stays within it).
Then its certified rows are tampered with, as a writer with access to the private schema could:
one row with a combination no other row has, a sensitive value alone in its group and an age
interval inside which one source age has that disease. `anonsql attack` then breaks its bounds
(singling out, linkability, attribute inference, linkage), and the dbt test must fail with
exactly one problem per broken attack. A relation without a certificate is one problem, and an
adapter the test is not tested on is refused when it compiles.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from dbt_kit import DbtRun, dbt, pg_profile, require_dbt, write_profiles, write_project
from helpers import load_people, people_spec, tamper_history

from anonsql import api
from anonsql.engines import DuckDBEngine, Engine, PostgresEngine
from anonsql.sql import TableName

pytestmark = pytest.mark.slow

RELEASE = TableName("people", "anon")
#: A row no other row is like: isolated (singling out), a group of one (linkability), its
#: disease alone in the group (inference), and one source age inside [89, 89.5] (linkage: the
#: fixture's ages are 18..90 and each of 3,000 people has one of five diseases).
TAMPERED = ("[89, 89.5]", "Lyon", "[10000, 11000]", "flu")
NAMES = {
    "release": "anonsql_dbt_source_attacks_anon_people_",
    "raw": "anonsql_dbt_source_attacks_raw_people_",
}


def publish(engine: Engine, tmp: Path) -> None:
    load_people(engine, n=3000)
    spec = people_spec(tmp, k=5)
    del spec["columns"]["note"]  # repeats: it would be taken for a person key
    spec["columns"]["disease"] = {"role": "sensitive"}
    spec["privacy"].append({"recursive_cl_diversity": {"column": "disease", "l": 2, "c": 3}})
    api.run(spec, engine=engine)


def broken(engine: Engine) -> list[str]:
    """The attacks `anonsql attack` finds broken (each certified, with a bound)."""
    results = api.attack(engine, RELEASE)
    bounded = [r for r in results if r.bound is not None]
    assert {r.attack for r in bounded} == {"singling_out", "linkability", "inference", "linkage"}
    return sorted(r.attack for r in results if r.breaks)


def tamper(engine: Engine) -> None:
    columns = ("age", "city", "income", "disease")
    tamper_history(engine, RELEASE, "anon_private", dict(zip(columns, TAMPERED, strict=True)))


def project(root: Path, profile: dict[str, Any]) -> Path:
    path = root / "attacks_project"
    write_project(path, "attacks_project")
    write_profiles(path, "attacks_project", {"t": profile}, "t")
    sources = {
        "version": 2,
        "sources": [
            {
                "name": "anon",
                "schema": "anon",
                "tables": [{"name": "people", "data_tests": ["anonsql_dbt.attacks"]}],
            },
            {
                "name": "raw",
                "schema": "main",
                "tables": [{"name": "people", "data_tests": ["anonsql_dbt.attacks"]}],
            },
        ],
    }
    (path / "models").mkdir()
    (path / "models" / "sources.yml").write_text(yaml.safe_dump(sources, sort_keys=False))
    (path / "tests").mkdir()
    (path / "tests" / "untested_adapter.sql").write_text(
        "{% if execute %}{{ anonsql_dbt.require_tested_adapter('spark', tested=['duckdb', "
        "'postgres'], what='attacks test') }}{% endif %}\nSELECT 1 AS x WHERE 1 = 0\n"
    )
    return path


def results(run: DbtRun) -> dict[str, dict[str, Any]]:
    nodes = run.manifest()["nodes"]
    found: dict[str, dict[str, Any]] = {}
    for uid, result in run.results().items():
        name = nodes[uid]["name"]
        key = next((k for k, prefix in NAMES.items() if name.startswith(prefix)), name)
        found[key] = result
    return found


def run_and_compare(open_engine: Any, root: Path, profile: dict[str, Any]) -> None:
    with open_engine() as engine:
        publish(engine, root)
        assert broken(engine) == []
    path = project(root, profile)
    dbt(path, "deps")
    clean = results(dbt(path, "test", ok=False))
    assert clean["release"]["status"] == "pass", clean["release"]["message"]
    # the raw table has no certificate: one problem, named
    assert clean["raw"]["status"] == "fail" and clean["raw"]["failures"] == 1
    # `dbt build --empty` reads every relation empty: nothing to attack, no problem
    empty = results(dbt(path, "build", "--empty", "--exclude", "untested_adapter", ok=False))
    assert empty["release"]["status"] == "pass" and empty["raw"]["status"] == "pass", empty
    refused = clean["untested_adapter"]
    assert refused["status"] == "error" and "spark adapter has no tested" in refused["message"]
    with open_engine() as engine:
        tamper(engine)
        found = broken(engine)
    assert found == ["inference", "linkability", "linkage", "singling_out"], found
    run = dbt(path, "test", "--select", "source:anon", ok=False)
    after = results(run)
    assert after["release"]["status"] == "fail"
    assert after["release"]["failures"] == len(found), after["release"]
    # the problems name the broken attacks, as the engine reads the test's own SQL
    with open_engine() as engine:
        problems = [row[0] for row in engine.fetchall(after["release"]["compiled_code"])]
    assert sorted(p.split(" ")[0] for p in problems) == found, problems
    assert all("knowing age, city, income" in p for p in problems), problems
    # and dbt's output says why, a line each (dbt's own message is only the count)
    for problem in problems:
        assert problem in run.output, (problem, run.output[-3000:])


def test_dbt_attacks_test_matches_anonsql_attack_on_duckdb(tmp_path: Path) -> None:
    require_dbt()
    database = tmp_path / "attacks.duckdb"
    profile = {"type": "duckdb", "path": str(database), "threads": 1}
    run_and_compare(lambda: DuckDBEngine(database), tmp_path, profile)


def test_dbt_attacks_test_matches_anonsql_attack_on_postgres(
    tmp_path: Path, pg_database: str
) -> None:
    require_dbt()
    run_and_compare(lambda: PostgresEngine(pg_database), tmp_path, pg_profile(pg_database, "main"))
