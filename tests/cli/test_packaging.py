"""Templates, hierarchies and the sample ship in the wheel and are found from an installed,
non-editable wheel."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from paths import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
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
            str(out),
            str(ROOT),
        ],
        check=True,
    )
    return next(out.glob("anonsql-*.whl"))


def test_wheel_contains_resources(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "anonsql/_resources/sql_templates/mondrian/stats.sql" in names
    assert "anonsql/_resources/hierarchies/adult/workclass.txt" in names
    assert "anonsql/_resources/datasets/adult/adult.csv.gz" in names
    assert "anonsql/report/templates/report.html.j2" in names


def test_installed_wheel_finds_templates(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
    )
    script = (
        "import anonsql.resources as r, anonsql.samples as d\n"
        "from anonsql.engines import DuckDBEngine\n"
        "print(r.resource_dir('sql_templates'))\n"
        "e = DuckDBEngine()\n"
        "print(d.load_adult(e))\n"
    )
    # run from a directory without the source tree, with only the installed copy importable
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(target), "PATH": ""},
        check=True,
    )
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith(str(target)), lines
    assert lines[1] == "30162"
