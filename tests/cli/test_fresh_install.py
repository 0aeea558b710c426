"""A fresh ``pip install anonsql`` without extras: it imports, runs the demo on DuckDB, and a
PostgreSQL or Spark spec says which extra to install (psycopg and pyspark are not there); and the
wheel carries the dbt package, which a dbt project outside the repository builds with."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import venv
from pathlib import Path

import pytest
import yaml
from dbt_kit import dbt_env, require_dbt, write_profiles, write_project
from paths import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(dist),
            str(ROOT),
        ],
        check=True,
    )
    return next(dist.glob("anonsql-*.whl"))


@pytest.mark.slow
def test_pip_install_without_extras_runs_the_demo(tmp_path: Path, wheel: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True)
    installed = subprocess.run(
        [str(python), "-m", "pip", "list", "--format=freeze"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.lower()
    assert "duckdb==" in installed and "psycopg" not in installed and "pyspark" not in installed
    work = tmp_path / "work"
    work.mkdir()
    anonsql = env_dir / "bin" / "anonsql"
    demo = subprocess.run(
        [str(anonsql), "demo", "--database", "demo.duckdb", "--k", "10"],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert demo.returncode == 0, demo.stderr
    assert "anon.adult" in demo.stdout and "yes: 0 violating classes" in demo.stdout
    typed = subprocess.run(
        [
            str(python),
            "-c",
            "import anonsql, importlib.resources as r; "
            "print(anonsql.__version__, r.files('anonsql').joinpath('py.typed').is_file())",
        ],
        cwd=work,
        capture_output=True,
        text=True,
        check=True,
    )
    assert typed.stdout.split() == ["0.1.0", "True"]
    postgres = subprocess.run(
        [
            str(anonsql),
            "status",
            "--engine",
            "postgres",
            "--database",
            "host=127.0.0.1",
            "--output",
            "anon.t",
        ],
        cwd=work,
        capture_output=True,
        text=True,
    )
    assert postgres.returncode == 2, postgres.stderr
    assert "anonsql[postgres]" in postgres.stderr
    spark = subprocess.run(
        [str(anonsql), "status", "--engine", "spark", "--database", "local[1]", "--output", "a.t"],
        cwd=work,
        capture_output=True,
        text=True,
    )
    assert spark.returncode == 2, spark.stderr
    assert "anonsql[spark]" in spark.stderr and "Traceback" not in spark.stderr


_RNG = random.Random(0)
SEED = "person_id,age,income,disease\n" + "\n".join(
    f"{i},{_RNG.randint(18, 30)},{_RNG.randint(1, 4) * 10000},{_RNG.choice(['flu', 'cold'])}"
    for i in range(600)
)
MODEL = """import anonsql.dbt


def model(dbt, session):
    return anonsql.dbt.model(dbt, session, dbt.ref("people"), dbt.config.get("anonsql"))
"""
MODEL_CONFIG = {
    "version": 2,
    "models": [
        {
            "name": "people_anon",
            "config": {
                "materialized": "table",
                "anonsql": {
                    "columns": {
                        "person_id": {"role": "identifier"},
                        "age": {"role": "quasi_identifier", "type": "numeric"},
                        "income": {"role": "quasi_identifier", "type": "numeric"},
                        "disease": {"role": "sensitive"},
                    },
                    "privacy": [
                        {"k_anonymity": {"k": 5}},
                        {"distinct_l_diversity": {"column": "disease", "l": 2}},
                    ],
                },
            },
            "data_tests": [
                {"anonsql_dbt.k_anonymity": {"arguments": {"qids": ["age", "income"], "k": 5}}},
                "anonsql_dbt.certified",
                "anonsql_dbt.attacks",
            ],
        }
    ],
}


@pytest.mark.slow
def test_the_wheel_carries_the_dbt_package(tmp_path: Path, wheel: Path) -> None:
    """dbt builds a project of the user's own, outside the repository, with the package the
    installed wheel carries (dbt itself comes from the test environment: installing the dbt
    extra from the registry is the registry's test, not ours)."""
    require_dbt()
    import dbt as dbt_module

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True)
    # dbt and anonsql's dependencies from the test environment, after the wheel's anonsql
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(purelib) / "test_environment.pth").write_text(
        str(Path(dbt_module.__path__[0]).parent) + "\n"
    )
    # outside the checkout, which `python -m` would put first on the path
    env = {**dbt_env(), "PYTHONPATH": ""}
    located = subprocess.run(
        [str(python), "-m", "anonsql.dbt.package"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    package = Path(located)
    assert package.is_relative_to(env_dir) and (package / "dbt_project.yml").is_file(), located
    assert (package / "macros" / "generated" / "k_anonymity.sql").is_file()
    project = tmp_path / "users_project"
    write_project(project, "users_project")
    (project / "packages.yml").write_text(yaml.safe_dump({"packages": [{"local": located}]}))
    write_profiles(
        project,
        "users_project",
        {"t": {"type": "duckdb", "path": str(project / "users.duckdb"), "threads": 1}},
        "t",
    )
    (project / "seeds").mkdir()
    (project / "seeds" / "people.csv").write_text(SEED + "\n")
    (project / "models").mkdir()
    (project / "models" / "people_anon.py").write_text(MODEL)
    (project / "models" / "people_anon.yml").write_text(yaml.safe_dump(MODEL_CONFIG))
    for command in (["deps"], ["build"]):
        done = subprocess.run(
            [str(python), "-m", "dbt.cli.main", *command, "--profiles-dir", str(project)],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    # the model ran on the wheel's anonsql, not on this checkout
    where = subprocess.run(
        [str(python), "-c", "import anonsql; print(anonsql.__file__)"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        env=env,
    ).stdout.strip()
    assert Path(where).is_relative_to(env_dir), where
    results = json.loads((project / "target" / "run_results.json").read_text())["results"]
    statuses = {
        r["unique_id"].split(".")[-2 if r["unique_id"].startswith("test") else -1]: r["status"]
        for r in results
    }
    assert all(s in ("pass", "success") for s in statuses.values()), statuses
    assert any("attacks" in name for name in statuses) and any(
        "certified" in name for name in statuses
    ), statuses
