"""Spark as a Spark user has it: a running session is used and never stopped (nor its settings
changed), a DataFrame goes in and the release comes out as one, files are read by path, and the
CLI runs on a local master with no metastore (its own session, stopped at the end)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
import yaml
from engine_configs import CONFIGS
from helpers import load_people, people, people_spec, snapshot

import anonsql.spark
from anonsql import api
from anonsql.engines import DuckDBEngine, Engine
from anonsql.errors import SpecError

pytestmark = pytest.mark.spark

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def spark(request: pytest.FixtureRequest) -> Iterator[Engine]:
    engine = CONFIGS["spark"].open(request)
    try:
        yield engine
    finally:
        engine.close()


def duckdb_release(spec: dict[str, Any]) -> list[tuple[Any, ...]]:
    with DuckDBEngine() as duck:
        load_people(duck)
        result = api.run(spec, engine=duck)
        return snapshot(duck, result.names.main)


def test_the_callers_session_is_used_and_left_running(
    spark: Engine, spark_session: Any, tmp_path: Path
) -> None:
    """``anonsql.run`` with ``engine: spark`` in a process that runs Spark: the run works in a
    new session of that application, and the caller's session still runs afterwards with its
    own settings (issue 31: it was stopped)."""
    load_people(spark)
    spark_session.conf.set("spark.sql.shuffle.partitions", "3")
    spec = {
        **people_spec(tmp_path),
        "engine": "spark",
        "database": "local[2]",
        "engine_settings": {"spark.sql.shuffle.partitions": 5},
    }
    result = api.run(spec)  # no engine given: anonsql opens (attaches to) Spark itself
    assert result.certificate["verified"]
    assert spark_session.sql("SELECT 1 AS one").collect()[0].one == 1
    assert spark_session.conf.get("spark.sql.shuffle.partitions") == "3"
    spark_session.conf.set("spark.sql.shuffle.partitions", "2")
    with pytest.raises(SpecError, match=r"engine_settings\.memory_limit"):
        api.run({**spec, "engine_settings": {"memory_limit": "1GB"}})


def test_a_dataframe_in_a_dataframe_out(spark: Engine, spark_session: Any, tmp_path: Path) -> None:
    spec = people_spec(tmp_path)
    expected = duckdb_release(spec)
    # from Arrow: PySpark 4.3 warns on pandas 3 (the versions users get), which anonsql never
    # hands to Spark
    frame = spark_session.createDataFrame(people())
    given = {k: v for k, v in spec.items() if k != "source"}
    release = anonsql.spark.anonymize(frame, given)
    assert release.check.holds and release.certificate["verified"]
    assert str(release.certificate["source"]) == "anonsql_inputs.people"
    columns = release.dataframe.columns
    rows = sorted((tuple(r[c] for c in columns) for r in release.dataframe.collect()), key=repr)
    assert rows == expected
    # a catalog table by name, the spec's own source replaced
    load_people(spark)
    again = anonsql.spark.anonymize("main.people", spec, session=spark_session)
    assert str(again.certificate["source"]) == "main.people"
    assert again.dataframe.count() == len(expected)
    assert spark_session.sql("SELECT 1 AS one").collect()[0].one == 1


def test_parquet_by_path_gives_duckdbs_release(spark: Engine, tmp_path: Path) -> None:
    folder = tmp_path / "people"
    folder.mkdir()
    pq.write_table(people(), folder / "part-0.parquet")
    spec = {**people_spec(tmp_path), "source": f"parquet:{folder}"}
    with DuckDBEngine() as duck:
        expected = api.run(spec, engine=duck)
        expected_rows = snapshot(duck, expected.names.main)
    result = api.run({**spec, "engine": "spark"}, engine=spark)
    assert snapshot(spark, result.names.main) == expected_rows
    assert result.certificate["source"] == expected.certificate["source"]
    with pytest.raises(SpecError, match="does not exist"):
        api.run({**spec, "source": f"parquet:{tmp_path / 'missing'}"}, engine=spark)


@pytest.mark.slow
def test_the_cli_runs_on_a_local_master_and_stops_its_session(tmp_path: Path) -> None:
    """A process of its own (its own JVM): ``anonsql run`` on local[1] reading a Parquet file
    exits 0 with a verified release, and the session it created is stopped."""
    pq.write_table(people(), tmp_path / "people.parquet")
    spec = {
        **people_spec(tmp_path),
        "source": "parquet:people.parquet",
        "engine": "spark",
        "database": "local[1]",
        "engine_settings": {
            "spark.sql.warehouse.dir": str(tmp_path / "warehouse"),
            "spark.driver.memory": "1g",
        },
    }
    (tmp_path / "spec.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
    script = (
        "import sys, anonsql.cli\n"
        "from pyspark import SparkContext\n"
        "try:\n"
        "    anonsql.cli.main(['run', sys.argv[1], '--json'], standalone_mode=False)\n"
        "finally:\n"
        "    print('context left:', SparkContext._active_spark_context is not None)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "spec.yaml")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert '"verified": true' in done.stdout
    assert "context left: False" in done.stdout
