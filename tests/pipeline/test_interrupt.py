"""A real Ctrl-C (SIGINT) during `anonsql run`: exit code 130, the previous output untouched,
no working tables left behind."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import yaml
from helpers import people_spec, work_schemas

from anonsql.engines import DuckDBEngine


def test_sigint_mid_run_leaves_previous_output(tmp_path: Path) -> None:
    db = tmp_path / "big.duckdb"
    with DuckDBEngine(db) as engine:
        engine.execute(
            "CREATE TABLE main.people AS SELECT 'p' || i AS name, 18 + i % 73 AS age, "
            "(['Lyon','Paris','Nice','Rome','Milan','Boston','Austin','Toronto'])[1 + i % 8] "
            "AS city, "
            "(i * 7919) % 100000 AS income, 'd' || (i % 5) AS disease, 'a' AS note "
            "FROM range(400000) t(i)"
        )
    spec = people_spec(tmp_path, k=5)
    spec["database"] = db.name
    first = tmp_path / "first.yaml"
    first.write_text(yaml.safe_dump(spec), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "anonsql", "run", "--quiet", str(first)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    with DuckDBEngine(db) as engine:
        before = engine.fetchall("SELECT run_id FROM anon.people__certificate")
        rows_before = engine.fetchall("SELECT count(*) FROM anon.people")

    spec["privacy"] = [{"k_anonymity": {"k": 3}}]
    second = tmp_path / "second.yaml"
    second.write_text(yaml.safe_dump(spec), encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "anonsql", "run", str(second)],
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    deadline = time.monotonic() + 120
    for line in proc.stderr:  # wait until the search is under way
        if "round 3:" in line or time.monotonic() > deadline:
            break
    proc.send_signal(signal.SIGINT)
    _, rest = proc.communicate(timeout=120)
    assert proc.returncode == 130, rest

    with DuckDBEngine(db) as engine:
        assert engine.fetchall("SELECT run_id FROM anon.people__certificate") == before
        assert engine.fetchall("SELECT count(*) FROM anon.people") == rows_before
        assert work_schemas(engine) == []
