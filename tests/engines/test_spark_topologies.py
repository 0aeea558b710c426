"""anonsql on Spark topologies a user runs, started by the tests on 127.0.0.1: the recipe's
``spark-submit`` job (examples/spark_job.py, docs/spark.md) against a standalone cluster of a
master and two workers. (The Spark Connect server runs the conformance selection of
``make test-spark``: ``ANONSQL_SPARK_TOPOLOGY=connect``, tests/conftest.py.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import yaml
from helpers import people, people_spec
from spark_topology import local_conf, spark_home, standalone_cluster

pytestmark = [pytest.mark.spark, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def test_the_spark_submit_recipe_on_a_standalone_cluster(tmp_path: Path) -> None:
    data = people()
    folder = tmp_path / "people"
    folder.mkdir()
    pq.write_table(data, folder / "part-0.parquet")
    spec = people_spec(tmp_path)
    del spec["source"]
    spec["engine"] = "spark"
    (tmp_path / "spec.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "PYSPARK_PYTHON": sys.executable,
        "PYSPARK_DRIVER_PYTHON": sys.executable,
        "SPARK_LOCAL_IP": "127.0.0.1",
    }
    with standalone_cluster(tmp_path / "cluster", workers=2) as cluster:
        done = subprocess.run(
            [
                str(spark_home() / "bin" / "spark-submit"),
                "--master",
                cluster.master,
                "--deploy-mode",
                "client",
                "--driver-memory",
                "1g",
                "--executor-memory",
                "1g",
                *local_conf(tmp_path / "driver"),
                str(ROOT / "examples" / "spark_job.py"),
                str(tmp_path / "spec.yaml"),
                str(folder),
            ],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=env,
            timeout=1200,
            check=False,
        )
        executors = list((cluster.folder).glob("worker-*/app-*/*"))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    summary = json.loads(next(line for line in done.stdout.splitlines() if line.startswith("{")))
    assert summary == {"output": "anon.people", "verified": True}
    assert f"released rows: {data.num_rows}" in done.stdout
    assert executors, "the job ran no executor on the workers"
