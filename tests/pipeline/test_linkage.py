"""The linkage gate on the reviewer's cases (issue 29), on every engine: columns published
unchanged that give a quasi-identifier away together or nearly alone, a pass-through that
drifts into exposure after publishing, an init-like Adult spec publishing everything, and
several rows per person. Each refusal publishes nothing; each figure is recomputed in pandas
(tests/support/linkage_reference.py)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import linkage_reference as reference
import pandas as pd
import pyarrow as pa
import pytest
import yaml
from click.testing import CliRunner
from helpers import CITY_HIERARCHY

from anonsql import api
from anonsql.attacks.step import attack_results
from anonsql.cli import main
from anonsql.demo import ADULT_QIDS
from anonsql.engines import DuckDBEngine, Engine
from anonsql.errors import SpecError
from anonsql.measure.exposure import linked_exposure
from anonsql.resolve.linked import LinkageError
from anonsql.samples import load_adult
from anonsql.sql import TableName

OUTPUT = TableName("ages", "anon")


def ages(n: int = 300, seed: int = 0) -> pd.DataFrame:
    rng = random.Random(seed)
    age = [rng.randint(20, 79) for _ in range(n)]
    return pd.DataFrame(
        {
            "age": age,
            "income": [rng.randint(10, 99) for _ in range(n)],
            "decade": [a // 10 for a in age],
            "digit": [a % 10 for a in age],
            # the age itself for 98 % of the rows, a shared code for the others
            "code": [f"c{a}" if rng.random() < 0.98 else "mixed" for a in age],
            "note": ["a"] * n,
            "label": ["x"] * n,
        }
    )


def load(engine: Engine, frame: pd.DataFrame, name: str = "ages") -> TableName:
    relation = TableName(name, "main")
    engine.load_arrow(relation, pa.Table.from_pandas(frame, preserve_index=False))
    return relation


def ages_spec(**columns: dict[str, Any]) -> dict[str, Any]:
    return {
        "source": "main.ages",
        "output": {"schema": "anon", "name": "ages"},
        "columns": {
            "age": {"role": "quasi_identifier", "type": "numeric"},
            "income": {"role": "quasi_identifier", "type": "numeric"},
            **columns,
        },
        "privacy": [{"k_anonymity": {"k": 5}}],
    }


def frame(engine: Engine, relation: TableName) -> pd.DataFrame:
    found: pd.DataFrame = engine.query_arrow("select_all", relation=relation).to_pandas()
    return found


def generalized(published: pd.DataFrame, q: str = "age") -> int:
    return int(published[q].astype(str).str.startswith("[").sum())


def refusal(engine: Engine, spec: dict[str, Any]) -> LinkageError:
    with pytest.raises(LinkageError) as refused:
        api.run(spec, engine=engine)
    assert not engine.exists(OUTPUT)  # nothing published
    return refused.value


def test_two_columns_together_give_the_age_away(engine: Engine) -> None:
    """Neither the decade nor the last digit alone narrows an age to one value; together they
    give every generalized age away."""
    source = ages()
    load(engine, source)
    error = refusal(
        engine, ages_spec(decade={"role": "insensitive"}, digit={"role": "insensitive"})
    )
    recovery = {f.qid: f for f in error.findings if f.kind == "recovery"}
    assert recovery["age"].columns == ("decade", "digit")
    message = str(error)
    assert "decade, digit together give away 'age'" in message
    assert "acknowledge_linked" in message and "quasi-identifier" in message
    assert error.key == "columns.decade"

    acknowledged = {"role": "insensitive", "acknowledge_linked": True}
    result = api.run(ages_spec(decade=acknowledged, digit=acknowledged), engine=engine)
    published = frame(engine, result.names.main)
    exposure = linked_exposure(result.certificate)
    assert exposure.combined is not None
    expected = reference.recovered(published, source, {"age": None}, ["decade", "digit"])
    assert exposure.combined.recovered_rows["age"] == expected["age"] == generalized(published)
    assert generalized(published) > 0
    # the refusal counted the same rows on the same partitioning
    assert recovery["age"].rows == expected["age"]
    assert any(w.startswith("decade, digit together") for w in result.warnings())


def test_a_column_fixing_the_age_for_98_percent_of_rows(engine: Engine) -> None:
    """No confidence threshold: a near-dependency recovers every row whose range leaves one
    candidate, counted exactly."""
    source = ages()
    load(engine, source)
    error = refusal(engine, ages_spec(code={"role": "sensitive"}))
    (finding,) = [f for f in error.findings if f.qid == "age"]
    assert finding.columns == ("code",)

    result = api.run(
        ages_spec(code={"role": "sensitive", "acknowledge_linked": True}), engine=engine
    )
    published = frame(engine, result.names.main)
    expected = reference.recovered(published, source, {"age": None, "income": None}, ["code"])
    (code,) = linked_exposure(result.certificate).acknowledged
    assert code.recovered_rows == expected
    assert code.small_class_rows is None  # sensitive: the adversary does not know it
    assert finding.rows == expected["age"] >= 0.9 * generalized(published)


def test_the_attack_and_the_measure_read_one_recovery_query(engine: Engine) -> None:
    """The linkage attack and the acknowledged column's exposure ask the same question of the
    same relations at publish: it is sent once, and both record the figures recomputed in
    pandas."""
    source = ages()
    load(engine, source)
    sent: list[str] = []
    engine.listeners.append(sent.append)
    try:
        result = api.run(
            ages_spec(code={"role": "sensitive", "acknowledge_linked": True}), engine=engine
        )
    finally:
        engine.listeners.remove(sent.append)
    published = frame(engine, result.names.main)
    expected = reference.recovered(published, source, {"age": None, "income": None}, ["code"])
    (code,) = linked_exposure(result.certificate).acknowledged
    attacked = [
        r.parameters["recovered_rows"]
        for r in attack_results(result.certificate)
        if r.attack == "linkage"
    ]
    assert code.recovered_rows == expected
    assert attacked == [expected]
    assert expected["age"] > 0
    # the shared template's first CTE (the source's pairs of the first quasi-identifier)
    assert sum("pairs0" in sql for sql in sent) == 1


def test_a_pass_through_drifting_into_the_age(engine: Engine) -> None:
    """A live view (the opt-in) publishes a constant sensitive label and a constant insensitive
    note. The source's label then becomes the age: `check` and `status` fail on recovery, the
    exact age beside every generalized one. The note then becomes the age too: the guard
    withholds the classes it refines below k."""
    source = ages()
    load(engine, source)
    spec = ages_spec(label={"role": "sensitive"}, note={"role": "insensitive"})
    spec["output"]["materialize"] = "live"
    result = api.run(spec, engine=engine)
    assert api.check_output(engine, "anon.ages").holds
    assert not api.status(engine, "anon.ages").exposed
    shown = len(frame(engine, result.names.main))

    engine.execute("UPDATE main.ages SET label = CAST(age AS VARCHAR)")
    view = frame(engine, result.names.main)
    assert len(view) == shown  # a sensitive column does not refine classes
    drifted = source.assign(label=source["age"].astype(str))
    recovered = reference.recovered(view, drifted, {"age": None}, ["label", "note"])
    assert recovered["age"] == generalized(view) > 0
    checked = api.check_output(engine, "anon.ages")
    assert not checked.holds
    assert checked.violations["recovery of age through (note, label) [rows]"] == recovered["age"]
    status = api.status(engine, "anon.ages")
    assert status.exposed and status.recovered_rows >= recovered["age"]

    engine.execute("UPDATE main.ages SET note = CAST(age AS VARCHAR)")
    view = frame(engine, result.names.main)
    assert len(view) < shown  # the guard withheld the refined classes below k
    assert (view.groupby(["age", "income", "note"]).size() >= 5).all()


def test_a_version_does_not_drift_and_the_next_is_refused(engine: Engine) -> None:
    """A versioned release (the default) shows its certified rows whatever the source becomes:
    after the label turns into the age the view is unchanged and holds; re-publishing is
    refused by the linkage gate, and the version analysts read stays the one certified."""
    source = ages()
    load(engine, source)
    spec = ages_spec(label={"role": "sensitive"})
    result = api.run(spec, engine=engine)
    before = frame(engine, result.names.main)
    engine.execute("UPDATE main.ages SET label = CAST(age AS VARCHAR)")
    after = frame(engine, result.names.main)
    assert (
        before.sort_values(list(before.columns))
        .reset_index(drop=True)
        .equals(after.sort_values(list(after.columns)).reset_index(drop=True))
    )
    assert set(after["label"]) == set(source["label"])
    assert api.check_output(engine, "anon.ages").holds
    with pytest.raises(LinkageError):
        api.run(spec, engine=engine)
    kept = frame(engine, result.names.main)
    assert len(kept) == len(before) and set(kept["label"]) == set(source["label"])


def test_check_and_status_exit_codes_on_drift(tmp_path: Path) -> None:
    """The CLI: `anonsql check SPEC` exits 4 and `anonsql status` 6 once a pass-through gives
    the age away."""
    db = tmp_path / "ages.duckdb"
    with DuckDBEngine(db) as engine:
        load(engine, ages())
    spec = ages_spec(label={"role": "sensitive"})
    spec["output"]["materialize"] = "live"
    spec["database"] = db.name
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(main, ["run", str(path)]).exit_code == 0
    assert runner.invoke(main, ["check", str(path)]).exit_code == 0
    with DuckDBEngine(db) as engine:
        engine.execute("UPDATE main.ages SET label = CAST(age AS VARCHAR)")
    checked = runner.invoke(main, ["check", str(path)])
    assert checked.exit_code == 4 and "recovery of age" in checked.output, checked.output
    status = runner.invoke(main, ["status", str(path)])
    assert status.exit_code == 6 and "exposed" in status.output, status.output


@pytest.mark.slow
def test_an_init_like_adult_spec_is_refused(engine: Engine) -> None:
    """Adult's other columns published unchanged beside six quasi-identifiers: refused, naming
    the final weight among the columns."""
    load_adult(engine)
    columns: dict[str, Any] = {
        q: ADULT_QIDS[q]
        for q in ("age", "education_num", "marital_status", "race", "sex", "native_country")
    }
    for column in (
        "workclass",
        "occupation",
        "final_weight",
        "relationship",
        "capital_gain",
        "capital_loss",
        "hours_per_week",
    ):
        columns[column] = {"role": "insensitive"}
    columns["class"] = {"role": "sensitive"}
    spec = {
        "source": "main.adult",
        "output": {"schema": "anon", "name": "adult"},
        "columns": columns,
        "privacy": [{"k_anonymity": {"k": 5}}],
    }
    with pytest.raises(LinkageError) as refused:
        api.run(spec, engine=engine)
    assert not engine.exists(TableName("adult", "anon"))
    named = {c for f in refused.value.findings for c in f.columns}
    assert "final_weight" in named
    assert "final_weight" in str(refused.value)


def visits(patients: int = 120, seed: int = 1) -> pa.Table:
    rng = random.Random(seed)
    cities = [line.split(";")[0] for line in CITY_HIERARCHY.splitlines()]
    rows = []
    for p in range(patients):
        age, city = rng.randint(20, 79), rng.choice(cities)
        rows += [(f"p{p}", age, city) for _ in range(1 + p % 4)]
    return pa.table({n: [r[i] for r in rows] for i, n in enumerate(("patient_id", "age", "city"))})


def visits_spec(tmp_path: Path, **extra: Any) -> dict[str, Any]:
    (tmp_path / "city.csv").write_text(CITY_HIERARCHY, encoding="utf-8")
    spec: dict[str, Any] = {
        "source": "main.visits",
        "output": {"schema": "anon", "name": "visits"},
        "columns": {
            "patient_id": {"role": "identifier"},
            "age": {"role": "quasi_identifier", "type": "numeric"},
            "city": {"role": "quasi_identifier", "hierarchy": str(tmp_path / "city.csv")},
        },
        "privacy": [{"k_anonymity": {"k": 5}}],
    }
    spec.update(extra)
    return spec


def test_several_rows_per_person(engine: Engine, tmp_path: Path) -> None:
    """A repeated identifier: record-level k is refused with the fix; counted in persons with
    ``person_id``; counted in rows and labelled with the acknowledgement."""
    table = visits()
    engine.load_arrow(TableName("visits", "main"), table)
    with pytest.raises(SpecError) as refused:
        api.run(visits_spec(tmp_path), engine=engine)
    assert refused.value.key == "columns.patient_id"
    assert "person_id" in refused.value.fix and "record_level: acknowledged" in refused.value.fix
    assert f"{len(set(table['patient_id'].to_pylist()))} distinct values" in str(refused.value)
    assert not engine.exists(TableName("visits", "anon"))

    spec = visits_spec(tmp_path, person_id="patient_id")
    del spec["columns"]["patient_id"]
    spec["privacy"] = [{"person_k_anonymity": {"k": 5}}]
    persons = api.run(spec, engine=engine)
    assert '"unit": "persons"' in str(persons.certificate["counts"])
    assert ("k counts", "persons (distinct patient_id)") in persons.summary()
    view = frame(engine, persons.names.main)
    assert view.groupby(["age", "city"])["patient_id"].nunique().min() >= 5

    rows = api.run(visits_spec(tmp_path, record_level="acknowledged"), engine=engine)
    assert '"acknowledged": true' in str(rows.certificate["counts"])
    assert any(w.startswith("k counts rows, acknowledged") for w in rows.warnings())
    checked = api.check(engine, "anon.visits", ["age", "city"], [{"k_anonymity": {"k": 5}}])
    assert checked.counted.startswith("rows")


def test_a_column_splitting_the_classes_of_a_table_release(engine: Engine) -> None:
    """A frozen table's gate checks the table analysts query (not the released view it was
    copied from), refined classes included: a published column splitting the classes below k
    refuses it as it refuses a live view."""
    source = ages()
    source["half"] = [i % 2 for i in range(len(source))]
    load(engine, source)
    for materialize in ("table", "live"):
        spec = ages_spec(half={"role": "insensitive"})
        spec["output"]["materialize"] = materialize
        error = refusal(engine, spec)
        (finding,) = [f for f in error.findings if f.model]
        assert finding.columns == ("half",) and finding.classes > 0
