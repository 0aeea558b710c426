"""What cannot be certified against the versions before it is refused, naming ``--replace``;
``--replace`` drops the history, publishes version 1 again and says so in the certificate."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from helpers import load_people, people_spec, snapshot
from history_columns import history_columns  # noqa: F401  (autouse: text and codes)

from anonsql import api
from anonsql.cli import main
from anonsql.engines import DuckDBEngine, Engine
from anonsql.errors import SpecError
from anonsql.sql import TableName

RELEASE = TableName("people", "anon")
T_CLOSENESS = [{"k_anonymity": {"k": 5}}, {"t_closeness": {"column": "disease", "t": 0.9}}]


def changed(engine: Engine) -> None:
    engine.execute("DELETE FROM main.people WHERE name = 'person 0'")


def test_a_release_that_is_not_versioned_is_not_republished_over_a_changed_source(
    engine: Engine, tmp_path: Path
) -> None:
    """t-closeness is decided over the whole table: the release is published whole, and a new
    one over a changed source would be compared with it. Refused, nothing changes; with
    ``replace`` it is published and the certificate says the history was replaced."""
    load_people(engine)
    spec = people_spec(tmp_path, privacy=T_CLOSENESS)
    first = api.run(spec, engine=engine)
    assert "version" not in first.certificate
    published = snapshot(engine, RELEASE)
    api.run(spec, engine=engine)  # the same source: published again
    changed(engine)
    with pytest.raises(SpecError) as refused:
        api.run(spec, engine=engine)
    assert "--replace" in str(refused.value) and "source that changed" in str(refused.value)
    assert snapshot(engine, RELEASE) == published
    again = api.run(spec, engine=engine, replace=True)
    assert again.check.holds and again.certificate["history"] == "replaced"
    assert engine.count_rows(RELEASE) == len(published) - 1


def test_a_changed_spec_over_a_changed_source_is_refused(engine: Engine, tmp_path: Path) -> None:
    """Versions certified under k = 5 cannot be continued under k = 6 once the source changed
    (new classes would be compared with the old); over the same source the spec change starts
    a new history; ``replace`` drops it."""
    load_people(engine)
    first = api.run(people_spec(tmp_path, k=5), engine=engine)
    assert first.certificate["version"] == 1
    restarted = api.run(people_spec(tmp_path, k=6), engine=engine)
    assert restarted.certificate["version"] == 1
    assert str(restarted.certificate["history"]).startswith("restarted")
    changed(engine)
    published = snapshot(engine, RELEASE)
    with pytest.raises(SpecError) as refused:
        api.run(people_spec(tmp_path, k=5), engine=engine)
    assert "--replace" in str(refused.value) and "another spec" in str(refused.value)
    assert snapshot(engine, RELEASE) == published
    replaced = api.run(people_spec(tmp_path, k=5), engine=engine, replace=True)
    assert replaced.certificate["version"] == 1 and replaced.certificate["history"] == "replaced"
    following = api.run(people_spec(tmp_path, k=5), engine=engine)
    assert following.certificate["version"] == 2 and following.certificate["history"] == "kept"


def test_the_cli_refuses_with_exit_2_and_replaces_with_the_flag(tmp_path: Path) -> None:
    db = tmp_path / "people.duckdb"
    with DuckDBEngine(db) as engine:
        load_people(engine)
    spec: dict[str, Any] = people_spec(tmp_path, privacy=T_CLOSENESS)
    spec["database"] = db.name
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(main, ["run", str(path), "--quiet"]).exit_code == 0
    with DuckDBEngine(db) as engine:
        changed(engine)
    refused = runner.invoke(main, ["run", str(path), "--quiet"])
    assert refused.exit_code == 2 and "--replace" in refused.output, refused.output
    assert runner.invoke(main, ["run", str(path), "--quiet", "--replace"]).exit_code == 0


def test_a_spec_naming_another_source_is_compared_with_it(engine: Engine, tmp_path: Path) -> None:
    """A release that is not versioned, re-published from another table with other rows: the
    table the run reads is compared with what was certified, so it is refused too."""
    load_people(engine)
    spec = people_spec(tmp_path, privacy=T_CLOSENESS)
    api.run(spec, engine=engine)
    other = load_people(engine, TableName("people_copy", "main"))
    engine.execute("DELETE FROM main.people_copy WHERE name = 'person 0'")
    with pytest.raises(SpecError, match="--replace"):
        api.run({**spec, "source": str(other)}, engine=engine)
    same = load_people(engine, TableName("people_same", "main"))
    assert api.run({**spec, "source": str(same)}, engine=engine).check.holds


def test_a_history_of_the_earlier_single_table_layout_is_refused(
    engine: Engine, tmp_path: Path
) -> None:
    """A release whose history is the single ``__history`` table of earlier anonsql builds
    is not re-published over as if it had none (an analyst may keep its versions): refused,
    naming ``--replace``, which drops it and starts again at version 1."""
    load_people(engine)
    spec = people_spec(tmp_path, k=5)
    api.run(spec, engine=engine)
    private = "anon_private"
    engine.execute(
        f"CREATE TABLE {private}.people__history AS SELECT * FROM {private}.people__left_rows"
    )
    engine.execute(f"DROP TABLE {private}.people__left_rows")
    published = snapshot(engine, RELEASE)
    with pytest.raises(SpecError) as refused:
        api.run(spec, engine=engine)
    assert "earlier anonsql" in str(refused.value) and "--replace" in str(refused.value)
    assert snapshot(engine, RELEASE) == published
    again = api.run(spec, engine=engine, replace=True)
    assert again.check.holds and again.certificate["version"] == 1
    assert engine.relation_kind(TableName("people__history", private)) is None
