"""dbt conventions around anonymized models, with real dbt: `--empty` (nothing published, no
misleading error), the run-operation macros `anonsql_dbt.status` / `anonsql_dbt.check` (on
DuckDB and PostgreSQL), a plain `dbt build` of a model anonsql never published, and the
dbt-duckdb Python model (its findings, `--empty`)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
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
MODEL = "model.anonsql_example.patients_anon"


def copy_example(tmp: Path) -> Path:
    project = tmp / "examples" / "dbt"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns("target", "dbt_packages"))
    (tmp / "integrations" / "dbt").mkdir(parents=True)
    (tmp / "integrations" / "dbt" / "anonsql_dbt").symlink_to(PACKAGE)
    return project


def anonsql_build(project: Path, *args: str, env: dict[str, str]) -> DbtRun:
    done = subprocess.run(
        [sys.executable, "-m", "anonsql", "dbt", "build", "--profiles-dir", ".", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return DbtRun(done.returncode, done.stdout + done.stderr, project)


class Target:
    """The example on one of its targets: dbt's arguments and environment, an engine."""

    def __init__(self, name: str, env: dict[str, str], dsn: str | None, project: Path) -> None:
        self.name, self.env, self.dsn, self.project = name, env, dsn, project
        self.schema = "main" if dsn is None else "analytics"
        self.args = ("--target", name)

    def engine(self) -> Engine:
        if self.dsn is None:
            return DuckDBEngine(self.project / "anonsql_example.duckdb")
        return PostgresEngine(self.dsn)

    @property
    def release(self) -> TableName:
        return TableName("patients_anon", self.schema + "_anonsql")

    def operation(self, macro: str, ok: bool = True) -> DbtRun:
        args = ["--args", "{release: " + str(self.release) + "}"]
        return dbt(self.project, "run-operation", macro, *self.args, *args, env=self.env, ok=ok)


@pytest.fixture(params=["duckdb", pytest.param("postgres", marks=pytest.mark.postgres)])
def example(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Target]:
    require_dbt()
    project = copy_example(tmp_path)
    if request.param == "duckdb":
        target = Target("duckdb", dbt_env(), None, project)
    else:
        dsn = request.getfixturevalue("pg_database")
        parts = psycopg.conninfo.conninfo_to_dict(dsn)
        env = dbt_env(
            PGHOST=str(parts["host"]),
            PGPORT=str(parts["port"]),
            PGUSER=str(parts["user"]),
            PGDATABASE=str(parts["dbname"]),
        )
        target = Target("postgres", env, dsn, project)
    dbt(project, "deps", env=target.env)
    yield target


UPDATE = {
    "duckdb": "UPDATE main.patients SET age = age + 1 WHERE patient_id = 1",
    "postgres": "UPDATE analytics.patients SET age = age + 1 WHERE patient_id = 1",
}


def columns(engine: Engine, relation: TableName) -> list[tuple[str, str]]:
    return [(c.name, c.data_type) for c in engine.columns(relation) or []]


def test_empty_builds_publish_nothing_and_operations_gate_on_problems(example: Target) -> None:
    # a fresh --empty build (CI's schema check): nothing published, the model built empty with
    # the spec's published columns, and the log lines say so; no misleading error
    model = TableName("patients_anon", example.schema)
    empty = anonsql_build(example.project, *example.args, "--empty", env=example.env)
    assert empty.returncode == 0, empty.output[-4000:]
    assert "dbt build --empty reads no rows: no release published" in empty.output
    message = empty.results()[MODEL]["message"]
    assert message.startswith("anonsql: --empty and no release at") and "built empty" in message
    with example.engine() as engine:
        assert engine.columns(example.release) is None
        guessed = columns(engine, model)
        assert engine.count_rows(model) == 0
    # the real build, then the operations find no problem and log the certificate's line
    built = anonsql_build(example.project, *example.args, env=example.env)
    assert built.returncode == 0, built.output[-4000:]
    status = example.operation("anonsql_dbt.status")
    assert f"{example.release}: anonsql: verified k_anonymity(k=5)" in status.output
    assert "no problem found by anonsql_dbt.status" in status.output
    check = example.operation("anonsql_dbt.check")
    assert "no problem found by anonsql_dbt.check" in check.output
    # --empty again: the model keeps the release's columns, no rows; nothing republished
    with example.engine() as engine:
        versions = api.status(engine, example.release).version
        assert columns(engine, model) == columns(engine, example.release) == guessed
    again = anonsql_build(example.project, *example.args, "--empty", env=example.env)
    assert again.returncode == 0, again.output[-4000:]
    assert again.results()[MODEL]["message"].startswith("anonsql: --empty: nothing published")
    with example.engine() as engine:
        assert engine.count_rows(model) == 0
        assert columns(engine, model) == columns(engine, example.release)
        assert api.status(engine, example.release).version == versions
        # the source changes: status fails (dbt exits 1) and logs the problem `certified` finds
        engine.execute(UPDATE[example.name])
    stale = example.operation("anonsql_dbt.status", ok=False)
    assert stale.returncode == 1
    assert f"{example.release}: problem: stale: the source changed" in stale.output
    assert "1 problem(s) with" in stale.output


def test_operations_refuse_a_bad_release_name_clearly(tmp_path: Path) -> None:
    require_dbt()
    project = copy_example(tmp_path)
    dbt(project, "deps")
    run = dbt(project, "run-operation", "anonsql_dbt.status", "--args", "{release: x}", ok=False)
    assert run.returncode == 1 and "release must be schema.name, got x" in run.output
    run = dbt(project, "run-operation", "anonsql_dbt.check", "--args", "{release: a.b}", ok=False)
    assert run.returncode == 1 and "no relation a.b" in run.output


def test_plain_dbt_build_says_to_use_anonsql_dbt_build(tmp_path: Path) -> None:
    require_dbt()
    project = copy_example(tmp_path)
    dbt(project, "deps")
    run = dbt(project, "build", ok=False)
    assert run.returncode == 1
    assert "no release of patients_anon at" in run.output
    assert "Fix: build with `anonsql dbt build`" in run.output
    assert run.results()[MODEL]["status"] == "error"


def test_a_model_reading_the_source_directly_is_refused(tmp_path: Path) -> None:
    require_dbt()
    project = copy_example(tmp_path)
    (project / "models" / "patients_anon.sql").write_text("select * from {{ ref('patients') }}")
    dbt(project, "deps")
    run = anonsql_build(project, env=dbt_env())
    assert run.returncode == 1, run.output[-3000:]
    assert "its SQL is not anonsql_dbt.release(...)" in run.output
    with DuckDBEngine(project / "anonsql_example.duckdb") as engine:
        assert engine.columns(TableName("patients_anon", "main")) is None


PYTHON_MODEL = """import anonsql.dbt


def model(dbt, session):
    return anonsql.dbt.model(dbt, session, dbt.ref("patients"), dbt.config.get("anonsql"))
"""


def python_example(tmp: Path) -> Path:
    """The example with its anonymized model written as a dbt-duckdb Python model."""
    project = copy_example(tmp)
    (project / "models" / "patients_anon.sql").unlink()
    (project / "models" / "patients_anon.py").write_text(PYTHON_MODEL)
    yml = project / "models" / "patients.yml"
    yml.write_text(yml.read_text().replace("materialized: anonsql", "materialized: table"))
    return project


#: An empty build has no release to check (`anonsql dbt build --empty` leaves these out).
NO_RELEASE_TESTS = ("--exclude", "test_name:certified", "test_name:attacks")


def results(run: DbtRun) -> dict[str, Any]:
    return run.results()[MODEL]


def test_python_model_logs_findings_and_builds_empty(tmp_path: Path) -> None:
    require_dbt()
    project = python_example(tmp_path)
    dbt(project, "deps")
    release = TableName("patients_anon", "main_anonsql")
    model = TableName("patients_anon", "main")
    database = project / "anonsql_example.duckdb"
    # --empty on a fresh project: dbt hands the model an empty subquery; nothing published,
    # the model gets the spec's published columns (quasi-identifiers as text), no rows
    empty = dbt(
        project, "build", "--empty", "--select", "patients", "patients_anon", *NO_RELEASE_TESTS
    )
    assert results(empty)["status"] == "success"
    assert "dbt --empty reads no rows: nothing published" in empty.output
    with DuckDBEngine(database) as engine:
        assert engine.columns(release) is None
        expected_empty = columns(engine, model)
    assert [c for c, _ in expected_empty] == [
        "age",
        "sex",
        "race",
        "marital_status",
        "education_num",
        "occupation",
        "hours_per_week",
    ]
    built = dbt(project, "build")
    assert results(built)["status"] == "success"
    with DuckDBEngine(database) as engine:
        certificate = engine.query_arrow(
            "select_all", relation=release.with_name("patients_anon__certificate")
        ).to_pylist()[0]
        assert certificate["verified"]
        # the empty build guessed the release's columns and types right
        assert columns(engine, model) == expected_empty
    line = (
        "anonsql: verified k_anonymity(k=5), distinct_l_diversity(column=occupation, l=2); "
        f"NCP {certificate['ncp_percent']:.2f} %; suppressed {certificate['suppressed_rows']} "
        f"of {certificate['source_rows']} rows; exposure acknowledged: hours_per_week, occupation"
    )
    assert line in built.output
    # --empty with a release: its columns, no rows, nothing republished
    again = dbt(project, "build", "--empty", "--select", "patients_anon", *NO_RELEASE_TESTS)
    assert results(again)["status"] == "success"
    with DuckDBEngine(database) as engine:
        assert engine.count_rows(model) == 0
        assert columns(engine, model) == columns(engine, release)
