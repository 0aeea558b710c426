"""`anonsql init` on tables anonsql does not ship: identifiers recognized by their values, the
person column found, exposed columns made quasi-identifiers or left out with the gate's figure,
a model for each sensitive column, no placeholder hierarchy; the spec is checked by a trial run
that leaves nothing behind, and run exactly as written it passes and an independent pandas
check finds no class below k on the quasi-identifiers and the columns published beside them."""

from __future__ import annotations

import datetime
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
import yaml
from click.testing import CliRunner
from init_tables import patients, visits

from anonsql import api
from anonsql.cli import main
from anonsql.engines import DuckDBEngine, Engine
from anonsql.init import detect_identifiers, init_spec
from anonsql.init.trial import SCRATCH_PREFIX
from anonsql.samples import load_sample
from anonsql.sql import TableName

K = 5


def clinic(n: int = 600) -> pa.Table:
    """An id, an e-mail under a neutral name, an age, a birth date, a zip code stored as an
    integer, sex, race, a diagnosis, a visit count that encodes sex, a cohort and a weight."""
    day0 = datetime.date(1950, 1, 1)
    rng = np.random.default_rng(5)
    return pa.table(
        {
            "patient_id": list(range(n)),
            "contact": [f"p{i}@example.org" for i in range(n)],
            "age": [20 + (i * 7) % 60 for i in range(n)],
            "birth_date": [day0 + datetime.timedelta(days=(i * 37) % 20000) for i in range(n)],
            "zip": [2100 + (i * 13) % 40 for i in range(n)],
            "sex": ["F" if i % 2 else "M" for i in range(n)],
            "race": [("a", "b", "c", "d")[i % 4] for i in range(n)],
            "diagnosis": rng.choice(["flu", "cold", "asthma", "none", "ulcer"], n),
            "visits": [2 * (i % 10) + i % 2 for i in range(n)],
            "cohort": [None if i % 10 == 0 else f"group {i % 3}" for i in range(n)],
            "weight": [40_000 + 1000 * ((i * 7) % 13) for i in range(n)],
        }
    )


def identifiers() -> pa.Table:
    """Six rows of each kind, some of them invalid (an SSN area never assigned, an IBAN with a
    wrong checksum, a NINO prefix HMRC does not allocate)."""
    return pa.table(
        {
            "a": ["x@y.org", "q.r@ex.co.uk", "a+b@c.io", "no at", None, "z@w.net"],
            "b": [
                "+44 20 7946 0958",
                "(555) 123-4567",
                "+15551234567",
                "555.123.4567",
                "+33 12 34 56 78",
                "x",
            ],
            "c": ["123-45-6789", "078-05-1120", "666-12-1234", "900-12-1234", "123-00-4567", "1"],
            "d": ["AB 12 34 56 C", "JG103759A", "GB123456A", "QQ123456C", "CE 12 34 56 D", "x"],
            "e": [
                "GB82 WEST 1234 5698 7654 32",
                "DE89370400440532013000",
                "DE89370400440532013001",
                "FR1420041010050500013M02606",
                "NL91ABNA0417164300",
                "NL91ABNA0417164301",
            ],
            "f": ["John Smith", "mary", "Zed Zork", "Garcia", "linda jones", "Robert"],
            "g": ["2020-01-05", "2021-02-03", "2022-03-04", "1999-12-31", "2000-01-01", "x"],
        }
    )


def test_identifiers_by_their_values(engine: Engine) -> None:
    """Counts only: how many sampled values match each pattern, checksums in SQL."""
    table = TableName("ids", "main")
    data = identifiers()
    engine.load_arrow(table, data)
    found = detect_identifiers(engine, table, data.column_names)
    assert {c: (m.pattern.name, m.matched, m.sampled) for c, m in found.items()} == {
        "a": ("email", 4, 5),
        "b": ("phone", 5, 6),
        # 2 valid SSNs of 6 (areas 666 and 9xx, group 00 are never assigned), but SSN-shaped
        # numbers are still numbers one calls or looks up
        "c": ("phone", 5, 6),
        "f": ("person_name", 5, 6),
    }
    # below the share: NINO 3 of 6 (GB, Q first are not allocated), IBAN 4 of 6 (two fail
    # mod 97)
    from anonsql.init.identifiers import PATTERNS, SHARE

    counts = engine.query(
        "init/values",
        relation=table,
        columns=["c", "d", "e"],
        patterns=[
            {"name": p.name, "kind": p.kind, "regex": p.regex, "words": list(p.words)}
            for p in PATTERNS
        ],
        sample=100,
    )[0]
    names = [p.name for p in PATTERNS]
    width = 1 + len(PATTERNS)
    per = {
        c: dict(zip(names, counts[2 + i * width : 1 + (i + 1) * width], strict=True))
        for i, c in enumerate(["c", "d", "e"])
    }
    assert per["c"]["us_ssn"] == 2 and per["d"]["uk_nino"] == 3 and per["e"]["iban"] == 4
    assert SHARE > 0.5
    assert all(d["iban"] == 0 for c, d in per.items() if c != "e")


def published(engine: Engine, spec: dict[str, Any]) -> pd.DataFrame:
    out = spec["output"]
    frame: pd.DataFrame = engine.query_arrow(
        "select_all", relation=TableName(out["name"], out["schema"])
    ).to_pandas()
    return frame


def independent_k(frame: pd.DataFrame, spec: dict[str, Any]) -> int:
    """The smallest class over the quasi-identifiers and the insensitive columns published
    unchanged, in rows or (with ``person_id``) distinct persons: pandas, not anonsql."""
    keys = [
        c for c, d in spec["columns"].items() if d["role"] in ("quasi_identifier", "insensitive")
    ]
    person = spec.get("person_id")
    grouped = frame.groupby(keys, dropna=False)
    sizes = grouped[person].nunique() if person else grouped.size()
    return int(sizes.min())


def test_init_proposes_a_spec_that_passes(engine: Engine) -> None:
    table = TableName("clinic", "main")
    engine.load_arrow(table, clinic())
    found = init_spec(engine, table)
    roles = {s.column: s for s in found.suggestions}
    assert {c: s.role for c, s in roles.items()} == {
        "patient_id": "identifier",
        "contact": "identifier",  # by its values: every sampled value is an e-mail address
        "age": "quasi_identifier",
        "birth_date": "quasi_identifier",
        "zip": "quasi_identifier",
        "sex": "quasi_identifier",
        "race": "quasi_identifier",
        "diagnosis": "sensitive",
        "visits": "left_out",  # it gives sex away
        "cohort": "left_out",  # exposed, and it holds NULLs: it cannot be a quasi-identifier
        "weight": "quasi_identifier",  # exposed: alone it splits every class below k
    }
    assert any("e-mail addresses: 600 of 600" in r for r in roles["contact"].reasons)
    assert any("single value of sex" in r for r in roles["visits"].reasons)
    # no placeholder grouping: sex and race are redacted (no rare value to group)
    assert roles["sex"].declaration["hierarchy"] == {"builder": "redact"}
    assert roles["race"].declaration["hierarchy"] == {"builder": "redact"}
    # the sensitive column gets a model the table can satisfy, said in the spec
    spec = yaml.safe_load(found.yaml)
    models = {next(iter(m)): next(iter(m.values())) for m in spec["privacy"]}
    assert models["entropy_l_diversity"] == {"column": "diagnosis", "l": 3}
    assert "entropy of ln 4.99 over the table" in found.yaml
    # every suggestion is explained; the verdict heads the spec; nothing left behind
    for s in found.suggestions:
        for reason in s.reasons:
            assert f"# {reason}" in found.yaml
    assert found.verdict is not None and found.verdict.passes, found.verdict
    assert "passes: k_anonymity (k = 5), entropy_l_diversity" in found.yaml
    assert not [s for s in work_schemas(engine) if s.startswith(SCRATCH_PREFIX)]
    assert not engine.exists(TableName("clinic", "anon"))
    # run exactly as written
    result = api.run(spec, engine=engine)
    assert result.certificate["verified"]
    frame = published(engine, spec)
    assert len(frame) == 600 and independent_k(frame, spec) >= K
    entropy = frame.groupby(
        [c for c, d in spec["columns"].items() if d["role"] == "quasi_identifier"]
    )["diagnosis"].agg(lambda s: -sum(p * math.log(p) for p in s.value_counts(normalize=True)))
    assert entropy.min() >= math.log(3) - 1e-9


def work_schemas(engine: Engine) -> list[str]:
    return engine.schemas_starting_with("anonsql")


def test_init_without_check_writes_an_unchecked_spec(engine: Engine) -> None:
    table = TableName("visits", "main")
    engine.load_arrow(table, visits(rows=900, persons=300))
    found = init_spec(engine, table, check=False)
    assert found.verdict is None and "Not checked" in found.yaml
    assert found.person == "patient_id"
    assert "300 persons for 900 rows" in found.yaml


def run_init(tmp_path: Path, name: str, table: pa.Table | None) -> dict[str, Any]:
    """`anonsql init` then `anonsql run` of the written spec, exactly as written."""
    db = tmp_path / f"{name}.duckdb"
    with DuckDBEngine(db) as engine:
        if table is None:
            load_sample(engine, "adult", TableName(name, "main"))
        else:
            engine.load_arrow(TableName(name, "main"), table)
    path = tmp_path / f"{name}.yaml"
    runner = CliRunner()
    made = runner.invoke(
        main, ["init", "--database", str(db), "--table", f"main.{name}", "-o", str(path)]
    )
    assert made.exit_code == 0, made.output
    assert "init: passes:" in made.output, made.output
    ran = runner.invoke(main, ["run", str(path), "--quiet", "--json"])
    assert ran.exit_code == 0, ran.output
    return dict(yaml.safe_load(path.read_text()))


def read_release(tmp_path: Path, name: str, spec: dict[str, Any]) -> pd.DataFrame:
    with DuckDBEngine(tmp_path / f"{name}.duckdb") as engine:
        assert not [s for s in work_schemas(engine) if s.startswith(SCRATCH_PREFIX)]
        return published(engine, spec)


def test_adult_as_written(tmp_path: Path) -> None:
    spec = run_init(tmp_path, "adult", None)
    text = (tmp_path / "adult.yaml").read_text()
    assert "final_weight" not in spec["columns"]
    assert "left out: alone it puts 30,162 of 30,162 rows in classes of fewer than k = 5" in text
    for column in ("workclass", "occupation", "hours_per_week", "relationship"):
        assert spec["columns"][column]["role"] == "quasi_identifier"
    assert "builder: ordered" not in text
    frame = read_release(tmp_path, "adult", spec)
    assert len(frame) == 30_162 and independent_k(frame, spec) >= K


def test_patients_as_written(tmp_path: Path) -> None:
    spec = run_init(tmp_path, "patients", patients())
    text = (tmp_path / "patients.yaml").read_text()
    assert spec["person_id"] == "patient_ref"
    assert "26,720 persons for 50,000 rows" in text
    for column in ("contact", "reach", "given", "family", "length_of_stay"):
        assert column not in spec["columns"], column
    assert "e-mail addresses" in text and "phone numbers" in text and "person names" in text
    assert spec["columns"]["insurer"]["role"] == "quasi_identifier"
    assert "F..M" not in text and "..Hispanic" not in text
    assert {"fingerprint_l_diversity": {"column": "diagnosis", "l": 2}} in spec["privacy"]
    frame = read_release(tmp_path, "patients", spec)
    assert len(frame) == 50_000 and independent_k(frame, spec) >= K


def test_visits_as_written(tmp_path: Path) -> None:
    spec = run_init(tmp_path, "visits", visits())
    assert spec["person_id"] == "patient_id" and "patient_id" not in spec["columns"]
    assert "8,000 persons for 20,000 rows" in (tmp_path / "visits.yaml").read_text()
    frame = read_release(tmp_path, "visits", spec)
    assert len(frame) == 20_000 and independent_k(frame, spec) >= K


def test_init_command(tmp_path: Path) -> None:
    db = tmp_path / "warehouse" / "clinic.duckdb"
    db.parent.mkdir()
    with DuckDBEngine(db) as engine:
        engine.load_arrow(TableName("clinic", "main"), clinic())
    spec = tmp_path / "specs" / "clinic.yaml"
    spec.parent.mkdir()
    runner = CliRunner()
    args = ["init", "--database", str(db), "--table", "main.clinic"]
    made = runner.invoke(main, [*args, "-o", str(spec), "--no-check"])
    assert made.exit_code == 0, made.output
    assert "not checked" in made.output
    assert yaml.safe_load(spec.read_text())["database"] == "../warehouse/clinic.duckdb"
    again = runner.invoke(main, [*args, "-o", str(spec)])
    assert again.exit_code == 2 and "--force" in again.stderr
    profiled = runner.invoke(main, [*args, "--json", "--no-check"])
    assert profiled.exit_code == 0
    assert '"role": "quasi_identifier"' in profiled.stdout
    missing = runner.invoke(main, ["init", "--database", str(db), "--table", "main.nope"])
    assert missing.exit_code == 2 and "does not exist" in missing.stderr


@pytest.mark.parametrize("values", [["F", "M"], ["a", "b", "c"]])
def test_redact_and_frequent_builders(values: list[str]) -> None:
    from anonsql.errors import HierarchyError
    from anonsql.hierarchies import build_hierarchy

    redacted = build_hierarchy({"builder": "redact"}, values, name="x")
    assert redacted.height == 1 and redacted.leaf_count == len(values)
    grouped = build_hierarchy(
        {"builder": "frequent", "keep": values[:1], "other": "rest"}, values, name="x"
    )
    assert grouped.height == 2
    with pytest.raises(HierarchyError):
        build_hierarchy(
            {"builder": "frequent", "keep": values[:1], "other": values[-1]}, values, name="x"
        )
