"""The attack step at publish: results in the certificate and the summary, and the gate
refusing a release an attack breaks (nothing published, the previous output intact)."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest
from helpers import load_people, people_spec, snapshot

from anonsql import api
from anonsql.attacks import AttackRefused, attack_results
from anonsql.engines import Engine
from anonsql.measure.exposure import linked_exposure
from anonsql.release.reader import read_certificate
from anonsql.spec.output import OutputNames
from anonsql.sql import TableName


def test_the_certificate_records_every_attack(engine: Engine, tmp_path: Path) -> None:
    load_people(engine)
    result = api.run(people_spec(tmp_path, k=5), engine=engine)
    results = attack_results(result.certificate)
    assert {r.attack for r in results} == {"singling_out", "linkability", "inference", "linkage"}
    single = next(r for r in results if r.attack == "singling_out" and r.adversary == "certified")
    assert single.knows == ("age", "city", "income")
    assert (single.success, single.bound) == (0.0, 0.0)
    labels = dict(result.summary())
    assert "attack singling_out" in labels
    assert "attack linkage (knowing every published column)" in labels
    # linkage is the gate's recovery measure: knowing every published column (disease and note,
    # both acknowledged) it recovers what the certificate records for them together
    linkage = next(r for r in results if r.attack == "linkage" and r.adversary == "columns")
    together = linked_exposure(result.certificate).combined
    assert together is not None
    assert linkage.parameters["recovered_rows"] == dict(together.recovered_rows)
    assert linkage.measured and linkage.bound is None  # acknowledged: not bounded
    # the note column is insensitive: what it adds is reported, not bounded
    assert "singling_out" in labels["not bounded by this release"]


def zoned(n: int = 60) -> pa.Table:
    """Ages in classes of at least 5 once generalized; ``zone`` determines the age and
    is unique for the first row."""
    ages = [18 + (i % 30) for i in range(n)]
    return pa.table(
        {
            "age": ages,
            "zone": [f"z{a}" if i else "z-unique" for i, a in enumerate(ages)],
            # both values with every age: the disease narrows no age down (the linkage gate)
            "disease": [["flu", "cold"][(i // 30) % 2] for i in range(n)],
        }
    )


def zoned_spec(tmp_path: Path) -> dict[str, object]:
    spec = people_spec(tmp_path, k=5)
    spec.update(
        source="main.zoned",
        output={"schema": "anon", "name": "zoned"},
        columns={
            "age": {"role": "quasi_identifier", "type": "numeric"},
            "zone": {"role": "insensitive", "acknowledge_linked": True},
            "disease": {"role": "sensitive"},
        },
    )
    return spec


def test_the_gate_refuses_a_linked_column_that_isolates_rows(
    engine: Engine, tmp_path: Path
) -> None:
    engine.load_arrow(TableName("zoned", "main"), zoned())
    # a release without the column is published and kept
    kept = people_spec(tmp_path, k=5)
    kept.update(
        source="main.zoned",
        output={"schema": "anon", "name": "zoned"},
        columns={
            # zone left out (not `role: identifier`: its values repeat without naming persons)
            "age": {"role": "quasi_identifier", "type": "numeric"},
            "disease": {"role": "sensitive"},
        },
    )
    first = api.run(kept, engine=engine)
    before = snapshot(engine, first.names.main)
    with pytest.raises(AttackRefused) as refused:
        api.run(zoned_spec(tmp_path), engine=engine)
    message = str(refused.value)
    assert "singling_out knowing age, zone" in message
    assert "> 0 (the bound the certified models promise)" in message
    assert "Fix:" in message
    assert "z-unique" not in message  # no data value in the message
    assert refused.value.exit_code == 4
    assert snapshot(engine, OutputNames(TableName("zoned", "anon")).main) == before
    certificate = read_certificate(engine, first.names)
    assert certificate is not None and certificate["run_id"] == first.certificate["run_id"]
