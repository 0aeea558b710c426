"""The example dbt project (examples/dbt), built for real with the one command
`anonsql dbt build` on DuckDB and on the test PostgreSQL server: the same project, the same
lineage (raw seed -> anonymized model in dbt's manifest), the same release semantics."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest
from dbt_kit import PACKAGE, DbtRun, dbt, dbt_env, require_dbt
from paths import ROOT

from anonsql import api
from anonsql.engines import DuckDBEngine, Engine, PostgresEngine
from anonsql.sql import TableName

pytestmark = pytest.mark.slow

EXAMPLE = ROOT / "examples" / "dbt"
QIDS = ["age", "sex", "race", "marital_status", "education_num"]
RAW_TESTS: dict[str, dict[str, dict[str, Any]]] = {
    "raw_patients_k_anonymity": {"k_anonymity": {"k": 5}},
    "raw_patients_distinct_l_diversity": {"distinct_l_diversity": {"column": "occupation", "l": 2}},
}


def copy_example(tmp: Path) -> Path:
    """The example with the package at the same relative path as in the repository, so its
    packages.yml is used unchanged."""
    project = tmp / "examples" / "dbt"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns("target", "dbt_packages"))
    (tmp / "integrations" / "dbt").mkdir(parents=True)
    (tmp / "integrations" / "dbt" / "anonsql_dbt").symlink_to(PACKAGE)
    return project


def by_name(run: DbtRun) -> dict[str, dict[str, Any]]:
    nodes = run.manifest()["nodes"]
    return {nodes[uid]["name"]: r for uid, r in run.results().items() if uid in nodes}


def check_build(run: DbtRun, engine: Engine, raw: TableName, tested: str) -> None:
    """Every privacy test of the anonymized relation passes; on the raw table each fails with
    the number of violations `anonsql check` counts."""
    results = by_name(run)
    for name, model in RAW_TESTS.items():
        count = next(iter(api.check(engine, raw, QIDS, [model]).violations.values()))
        assert count > 0
        assert results[name]["status"] == "warn" and results[name]["failures"] == count, name
    tests = [r for n, r in results.items() if n.startswith("anonsql_dbt_") and tested in n]
    assert len(tests) == 4, sorted(results)
    assert all(r["status"] == "pass" for r in tests), [
        (r["unique_id"], r["message"]) for r in tests
    ]


def relations(engine: Engine, schemas: tuple[str, ...]) -> list[tuple[Any, ...]]:
    rows = engine.fetchall(
        "SELECT table_schema, table_name FROM information_schema.tables ORDER BY 1, 2"
    )
    return [r for r in rows if r[0] in schemas or str(r[0]).startswith("anonsql_work_")]


def public_relations(engine: Engine, schema: str) -> list[str]:
    return [r[1] for r in relations(engine, (schema,))]


def assert_stale_like_status(run: DbtRun, engine: Engine, release: TableName, tested: str) -> None:
    """The package's `certified` test fails when `anonsql status` says the release is stale:
    one problem (stale), plus one when the tested relation no longer shows the rows certified
    (a live view that now hides changed rows)."""
    found = api.status(engine, release)
    assert found.stale
    expected = 1 + (found.published_rows != found.certified_rows)
    results = by_name(run)
    certified = [r for n, r in results.items() if "certified" in n and tested in n]
    assert len(certified) == 1, sorted(results)
    assert certified[0]["status"] == "fail" and certified[0]["failures"] == expected, certified
    # dbt's output says why (its own message is only the count)
    assert "stale: the source changed since the release was certified" in run.output


def cli(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "anonsql", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def anonsql_build(project: Path, *args: str, env: dict[str, str] | None = None) -> DbtRun:
    """`anonsql dbt build ARGS` in the example, as its README says."""
    done = cli("dbt", "build", "--profiles-dir", ".", *args, cwd=project, env=env or dbt_env())
    run = DbtRun(done.returncode, done.stdout + done.stderr, project)
    assert done.returncode == 0, run.output[-6000:]
    return run


MODEL, SEED = "model.anonsql_example.patients_anon", "seed.anonsql_example.patients"
FINDINGS = "anonsql: verified k_anonymity(k=5), distinct_l_diversity(column=occupation, l=2); NCP "


def check_lineage_and_findings(run: DbtRun, engine: Engine, release: TableName) -> None:
    """The raw seed is the anonymized model's one parent in dbt's graph; the model's log line
    and its run result carry the certificate's findings (verdict, models, NCP, suppression,
    acknowledged exposure), as `anonsql run` measured them."""
    manifest = run.manifest()
    assert manifest["parent_map"][MODEL] == [SEED]
    assert MODEL in manifest["child_map"][SEED]
    # dbt docs show the companions (sources) and the package's docs blocks on the columns
    companions = {
        s["name"]: s["description"]
        for s in manifest["sources"].values()
        if s["source_name"] == "patients_anon_release"
    }
    assert sorted(companions) == RELEASE_SCHEMA[1:]
    assert "`anonsql status`" in companions["patients_anon__certificate"]
    described = manifest["nodes"][MODEL]["columns"]
    assert described["age"]["description"].startswith("Generalized by anonsql (a numeric")
    assert "hierarchy" in described["sex"]["description"]
    certificate = engine.query_arrow(
        "select_all", relation=release.with_name(release.name + "__certificate")
    ).to_pylist()[0]
    line = (
        f"{FINDINGS}{certificate['ncp_percent']:.2f} %; suppressed "
        f"{certificate['suppressed_rows']} of {certificate['source_rows']} rows; "
        "exposure acknowledged: hours_per_week, occupation"
    )
    result = run.results()[MODEL]
    assert result["status"] == "success" and result["message"] == line
    assert result["adapter_response"]["rows_affected"] == certificate["published_rows"]
    assert line in run.output  # dbt's log line of the model
    # the wrapper's own lines: the warnings of `anonsql run` in full
    assert "anonsql: patients_anon: occupation (acknowledged, sensitive): gives" in run.output


def test_example_builds_on_duckdb(tmp_path: Path) -> None:
    require_dbt()
    project = copy_example(tmp_path)
    dbt(project, "deps")
    # nothing in the example or the package is something dbt deprecates
    parsed = dbt(project, "parse", "--show-all-deprecations")
    assert "Deprecat" not in parsed.output, parsed.output[-3000:]
    first = anonsql_build(project)
    database = project / "anonsql_example.duckdb"
    model, release = TableName("patients_anon", "main"), TableName("patients_anon", "main_anonsql")
    with DuckDBEngine(database) as engine:
        check_build(first, engine, TableName("patients", "main"), "patients_anon")
        check_lineage_and_findings(first, engine, release)
        assert api.check_output(engine, release).holds
        assert not api.status(engine, release).stale
        assert api.check(engine, model, QIDS, [{"k_anonymity": {"k": 5}}]).holds
        certificate = engine.query_arrow(
            "select_all", relation=release.with_name("patients_anon__certificate")
        ).to_pylist()[0]
        assert certificate["verified"] and certificate["source"] == "main.patients"
        # private by construction: the analysts' schema holds the raw seed and the model (a
        # copy of the release's certified rows) only, and the model no identifier; the
        # release's schema holds no companion with original values (the private schema does)
        assert public_relations(engine, "main") == ["patients", "patients_anon"]
        assert public_relations(engine, "main_anonsql") == RELEASE_SCHEMA
        assert "patients_anon__recoding" in public_relations(engine, "main_anonsql_private")
        columns = [c.name for c in engine.columns(model) or []]
        assert "patient_id" not in columns and set(QIDS) <= set(columns)
        rows = sorted(engine.query("select_all", relation=model), key=repr)
        assert rows == sorted(engine.query("select_all", relation=release), key=repr)
        layout = relations(engine, ("main", "main_anonsql", "main_anonsql_private"))
    # a second build republishes the same rows, and leaves nothing behind
    second = anonsql_build(project)
    assert all(r["status"] in ("pass", "success", "warn") for r in second.results().values())
    with DuckDBEngine(database) as engine:
        assert sorted(engine.query("select_all", relation=model), key=repr) == rows
        assert relations(engine, ("main", "main_anonsql", "main_anonsql_private")) == layout
        # the source changes after the build: the certified test fails as status does
        engine.execute("UPDATE main.patients SET age = age + 1 WHERE patient_id = 1")
    stale = dbt(project, "test", "--select", "patients_anon", ok=False)
    assert stale.returncode == 1
    with DuckDBEngine(database) as engine:
        assert_stale_like_status(stale, engine, release, "patients_anon")


RELEASE_SCHEMA = [
    "patients_anon",
    "patients_anon__certificate",
    "patients_anon__classes",
    "patients_anon__metrics",
]


def test_example_builds_on_postgres_with_the_same_command(tmp_path: Path, pg_database: str) -> None:
    require_dbt()
    project = copy_example(tmp_path)
    parts = psycopg.conninfo.conninfo_to_dict(pg_database)
    secret = "s3cret-not-to-be-seen"
    env = dbt_env(
        PGHOST=str(parts["host"]),
        PGPORT=str(parts["port"]),
        PGUSER=str(parts["user"]),
        PGDATABASE=str(parts["dbname"]),
        DBT_ENV_SECRET_PGPASSWORD=secret,  # trust auth: accepted and unused
    )
    target = ("--target", "postgres")
    dbt(project, "deps", env=env)
    release = TableName("patients_anon", "analytics_anonsql")
    for _ in range(2):  # the one documented command, twice: idempotent
        build = anonsql_build(project, *target, env=env)
        assert secret not in build.output
        with PostgresEngine(pg_database) as engine:
            check_build(build, engine, TableName("patients", "analytics"), "patients_anon")
            check_lineage_and_findings(build, engine, release)
            assert api.check_output(engine, release).holds
            assert public_relations(engine, "analytics") == ["patients", "patients_anon"]
            assert not api.status(engine, release).stale
            assert relations(engine, ()) == []  # no working schema left behind
            assert public_relations(engine, "analytics_anonsql") == RELEASE_SCHEMA
    with PostgresEngine(pg_database) as engine:
        engine.execute("UPDATE analytics.patients SET age = age + 1 WHERE patient_id = 1")
    stale = dbt(project, "test", *target, "--select", "patients_anon", env=env, ok=False)
    assert stale.returncode == 1
    with PostgresEngine(pg_database) as engine:
        assert_stale_like_status(stale, engine, release, "patients_anon")


def test_dbt_project_refuses_a_password_written_in_profiles(tmp_path: Path) -> None:
    require_dbt()
    project = copy_example(tmp_path)
    profiles = (project / "profiles.yml").read_text()
    written = profiles.replace("\"{{ env_var('DBT_ENV_SECRET_PGPASSWORD', '') }}\"", "hunter2")
    (project / "profiles.yml").write_text(written)
    dbt(project, "deps")
    done = cli(
        "dbt", "build", "--target", "postgres", "--profiles-dir", ".", cwd=project, env=dbt_env()
    )
    assert done.returncode == 2, done.stderr
    assert "env_var" in done.stderr and "hunter2" not in done.stdout + done.stderr
    # refused before dbt built anything
    assert not (project / "target" / "run_results.json").exists()
