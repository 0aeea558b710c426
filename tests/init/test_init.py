"""`anonsql init` on a table anonsql does not ship: the profile is right, roles and hierarchies
are suggested with reasons, a column that determines a QID is flagged, the source's risk is
counted, and the written spec runs as it is on every engine."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest
import yaml
from click.testing import CliRunner

from anonsql import api
from anonsql.cli import main
from anonsql.engines import DuckDBEngine, Engine, TypeClass
from anonsql.init import init_spec
from anonsql.resolve.linked import LinkageError
from anonsql.sql import TableName

TABLE = TableName("patients", "main")


def patients(n: int = 600) -> pa.Table:
    """Made here: an id, an email, an age, a birth date, a zip code stored as an integer, sex,
    race, a diagnosis, a visit count that encodes sex, and a cohort."""
    import datetime

    day0 = datetime.date(1950, 1, 1)
    return pa.table(
        {
            "patient_id": list(range(n)),
            "email": [f"p{i}@example.org" for i in range(n)],
            "age": [20 + (i * 7) % 60 for i in range(n)],
            "birth_date": [day0 + datetime.timedelta(days=(i * 37) % 20000) for i in range(n)],
            "zip": [2100 + (i * 13) % 40 for i in range(n)],
            "sex": ["F" if i % 2 else "M" for i in range(n)],
            "race": [("a", "b", "c", "d")[i % 4] for i in range(n)],
            "diagnosis": [
                ("flu", "cold", "asthma", "none", "ulcer")[(i * 3) % 5] for i in range(n)
            ],
            "visits": [2 * (i % 10) + i % 2 for i in range(n)],
            "cohort": [None if i % 10 == 0 else f"group {i % 3}" for i in range(n)],
            "area": [f"{(i * 29) % 97:05d}" for i in range(n)],
            "weight": [40_000 + 1000 * ((i * 7) % 13) for i in range(n)],
        }
    )


def test_profile_roles_and_hierarchies(engine: Engine) -> None:
    engine.load_arrow(TABLE, patients())
    found = init_spec(engine, TABLE)
    profile = {p.name: p for p in found.profiles}
    assert profile["patient_id"].uniqueness == 1.0 and profile["sex"].distinct == 2
    assert profile["cohort"].null_share == 0.1 and profile["cohort"].nulls == 60
    assert profile["birth_date"].type_class is TypeClass.TEMPORAL
    # digit-only text is taken for a code; numbers only when their name says so
    assert profile["area"].zip_like and not profile["zip"].zip_like
    assert not profile["weight"].zip_like
    roles = {s.column: s for s in found.suggestions}
    assert {c: s.role for c, s in roles.items()} == {
        "patient_id": "identifier",
        "email": "identifier",
        "age": "quasi_identifier",
        "birth_date": "quasi_identifier",
        "zip": "quasi_identifier",
        "sex": "quasi_identifier",
        "race": "quasi_identifier",
        "diagnosis": "sensitive",
        "visits": "left_out",  # flagged: it gives sex away
        "cohort": "insensitive",
        "area": "quasi_identifier",
        "weight": "insensitive",
    }
    assert roles["age"].declaration == {"role": "quasi_identifier", "type": "numeric"}
    assert roles["birth_date"].declaration["hierarchy"]["builder"] == "date"
    assert roles["zip"].declaration["hierarchy"] == {"builder": "mask", "char": "*", "pad": "0"}
    assert roles["area"].declaration["hierarchy"] == {"builder": "mask", "char": "*"}
    assert roles["sex"].declaration["hierarchy"]["builder"] == "ordered"
    assert any("FLAGGED" in r and "sex" in r for r in roles["visits"].reasons)
    assert any("near-unique" in r for r in roles["email"].reasons)
    # risk over the QIDs: the birth date alone makes every row unique
    assert found.risk is not None
    assert found.risk.rows == 600 and found.risk.unique_rows == 600 and found.risk.highest == 1.0
    assert "600 of 600 rows (100.0 %) are unique" in found.yaml
    # every suggestion is explained in the spec, and the spec parses
    for s in found.suggestions:
        for reason in s.reasons:
            assert f"# {reason}" in found.yaml
    spec = yaml.safe_load(found.yaml)
    assert "visits" not in spec["columns"]
    assert spec["source"] == "main.patients" and spec["engine"] == engine.name
    # the skeleton plans as written; the linkage gate refuses the columns it publishes
    # unchanged (init does not read the gate's findings yet): leaving out the columns the
    # findings name, the run verifies and no row is lost
    planned = api.plan(spec, engine=engine)
    assert planned.rows == 600 and "visits" in planned.dropped
    assert not engine.exists(TableName("patients", "anon"))
    with pytest.raises(LinkageError) as refused:
        api.run(spec, engine=engine)
    named = {c for f in refused.value.findings for c in f.columns}
    assert "cohort" in named and not engine.exists(TableName("patients", "anon"))
    spec["columns"] = {c: v for c, v in spec["columns"].items() if c not in named}
    result = api.run(spec, engine=engine)
    assert result.certificate["verified"] and result.certificate["published_rows"] == 600


def test_init_command_writes_a_spec_that_runs(tmp_path: Path) -> None:
    db = tmp_path / "warehouse" / "clinic.duckdb"
    db.parent.mkdir()
    with DuckDBEngine(db) as engine:
        engine.load_arrow(TABLE, patients())
    spec = tmp_path / "specs" / "patients.yaml"
    spec.parent.mkdir()
    runner = CliRunner()
    made = runner.invoke(
        main, ["init", "--database", str(db), "--table", "main.patients", "-o", str(spec)]
    )
    assert made.exit_code == 0, made.output
    assert yaml.safe_load(spec.read_text())["database"] == "../warehouse/clinic.duckdb"
    again = runner.invoke(
        main, ["init", "--database", str(db), "--table", "main.patients", "-o", str(spec)]
    )
    assert again.exit_code == 2 and "--force" in again.stderr
    ran = runner.invoke(main, ["run", str(spec), "--quiet", "--json"])
    # refused by the linkage gate, naming the fixes (test_profile_roles_and_hierarchies)
    assert ran.exit_code == 2 and "acknowledge_linked" in ran.stderr, ran.output
    profiled = runner.invoke(
        main, ["init", "--database", str(db), "--table", "main.patients", "--json"]
    )
    assert profiled.exit_code == 0
    assert '"role": "quasi_identifier"' in profiled.stdout
    missing = runner.invoke(main, ["init", "--database", str(db), "--table", "main.nope"])
    assert missing.exit_code == 2 and "does not exist" in missing.stderr
