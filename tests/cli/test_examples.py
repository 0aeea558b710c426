"""The shipped example specs run end to end from the CLI, on the shipped samples."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from paths import EXAMPLES

from anonsql.cli import main
from anonsql.engines import DuckDBEngine


@pytest.mark.parametrize(
    ("example", "sample", "output"),
    [
        ("adult-arx.yaml", "adult-arx", "anon.adult_arx"),
        ("adult.yaml", "adult", "anon.adult"),
        ("adult-dependencies.yaml", "adult", "anon.adult_fd"),
    ],
)
def test_example_runs(tmp_path: Path, example: str, sample: str, output: str) -> None:
    (tmp_path / "examples").mkdir()
    shutil.copy(EXAMPLES / example, tmp_path / "examples" / example)
    folder = EXAMPLES / example.removesuffix(".yaml")
    if folder.is_dir():
        shutil.copytree(folder, tmp_path / "examples" / folder.name)
    db = tmp_path / f"{sample}.duckdb"
    runner = CliRunner()
    loaded = runner.invoke(main, ["sample", sample, "--database", str(db)])
    assert loaded.exit_code == 0, loaded.output
    result = runner.invoke(main, ["run", str(tmp_path / "examples" / example)])
    assert result.exit_code == 0, result.output
    checked = runner.invoke(main, ["check", str(tmp_path / "examples" / example)])
    assert checked.exit_code == 0 and "holds" in checked.output
    with DuckDBEngine(db) as engine:
        published = engine.fetchall(f"SELECT count(*) FROM {output}")[0][0]
        cert = engine.fetchall(f"SELECT source_rows, suppressed_rows FROM {output}__certificate")
    assert published + cert[0][1] == cert[0][0] == 30162
