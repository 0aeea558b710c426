"""A fresh ``pip install anonsql`` without extras: it imports, runs the demo on DuckDB, and a
PostgreSQL or Spark spec says which extra to install (psycopg and pyspark are not there)."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest
from paths import ROOT


@pytest.mark.slow
def test_pip_install_without_extras_runs_the_demo(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
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
    wheel = next(dist.glob("anonsql-*.whl"))
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
