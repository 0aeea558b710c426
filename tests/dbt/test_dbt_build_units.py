"""Fast checks of `anonsql dbt build` and the Python model's --empty handling, without dbt:
how dbt's arguments are split between the steps, which nodes step 1 builds, the findings
line, and the empty relation a Python model returns under --empty."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import duckdb
import pytest
from helpers import load_people, people_spec

from anonsql import api
from anonsql.dbt.build import BuildArgs, Published, model_source, split_args, upstream
from anonsql.dbt.python_model import _empty_model, empty_build, empty_source, findings, model_spec
from anonsql.engines import DuckDBEngine
from anonsql.errors import SpecError
from anonsql.sql import TableName


def test_split_args_sorts_project_selection_and_the_rest() -> None:
    found = split_args(
        [
            "--target",
            "postgres",
            "-s",
            "a",
            "+b",
            "--exclude=c",
            "--empty",
            "--profiles-dir=.",
            "--fail-fast",
            "--vars",
            "{x: 1}",
        ]
    )
    assert found.project == ("--target", "postgres", "--profiles-dir", ".", "--vars", "{x: 1}")
    assert found.select == ("-s", "a", "+b", "--exclude=c")
    assert found.rest == ("--empty", "--fail-fast")
    assert found.target == "postgres" and found.profiles_dir == Path(".") and found.empty
    assert BuildArgs().project_dir == Path(".") and not BuildArgs().empty
    with pytest.raises(SpecError, match="--target"):
        split_args(["--target"])


def node(uid: str, kind: str, parents: list[str] | None = None, **extra: Any) -> Any:
    depends = SimpleNamespace(nodes=parents) if parents is not None else SimpleNamespace()
    return SimpleNamespace(
        unique_id=uid, resource_type=kind, depends_on=depends, fqn=uid.split("."), **extra
    )


def graph() -> Any:
    """raw source -> stg model (+ its test) -> anon model (+ its test) -> mart; and an other
    model beside them."""
    nodes = {
        "seed.p.raw": node("seed.p.raw", "seed"),
        "model.p.stg": node("model.p.stg", "model", ["seed.p.raw"], schema="s", alias="stg"),
        "test.p.stg_ok": node("test.p.stg_ok", "test", ["model.p.stg"]),
        "model.p.anon": node("model.p.anon", "model", ["model.p.stg"], name="anon"),
        "test.p.anon_ok": node("test.p.anon_ok", "test", ["model.p.anon"]),
        "test.p.both": node("test.p.both", "test", ["model.p.stg", "model.p.anon"]),
        "model.p.mart": node("model.p.mart", "model", ["model.p.anon"]),
        "model.p.other": node("model.p.other", "model", []),
    }
    return SimpleNamespace(nodes=nodes, sources={})


def test_step_one_builds_what_the_models_read_and_their_tests_only() -> None:
    manifest = graph()
    everything = set(manifest.nodes)
    assert upstream(manifest, ["model.p.anon"], everything) == [
        "model.p.stg",
        "seed.p.raw",
        "test.p.stg_ok",
    ]
    # the user's selection limits it: a model alone does not rebuild what it reads
    assert upstream(manifest, ["model.p.anon"], {"model.p.anon"}) == []


def test_an_anonsql_model_reads_one_relation_of_the_target_database() -> None:
    manifest = graph()
    manifest.nodes["model.p.stg"].database = "db"
    models = {"model.p.anon": manifest.nodes["model.p.anon"]}
    assert model_source(manifest, "model.p.anon", models, "db") == TableName("stg", "s")
    with pytest.raises(SpecError, match="not in the target's 'other'"):
        model_source(manifest, "model.p.anon", models, "other")
    manifest.nodes["model.p.anon"].depends_on.nodes = ["model.p.stg", "seed.p.raw"]
    with pytest.raises(SpecError, match="exactly one ref"):
        model_source(manifest, "model.p.anon", models, "db")


def test_findings_line_says_verdict_models_cost_and_exposure(tmp_path: Path) -> None:
    con = duckdb.connect()
    engine = DuckDBEngine(connection=con)
    load_people(engine)
    result = api.run(people_spec(tmp_path), engine=engine)
    cert = result.certificate
    assert findings(result) == (
        f"anonsql: verified k_anonymity(k=5); NCP {cert['ncp_percent']:.2f} %; suppressed "
        f"{cert['suppressed_rows']} of {cert['source_rows']} rows; exposure acknowledged: "
        "disease, note"
    )
    line = Published("people_anon", result).line()
    assert line.splitlines()[0] == "anonsql: people_anon -> anon.people: " + findings(
        result
    ).removeprefix("anonsql: ")
    assert len(line.splitlines()) == 1 + len(result.warnings())
    assert json.loads(cert["models"]) == [{"k_anonymity": {"k": 5}}]


def test_python_model_under_empty_returns_the_release_columns_without_rows(
    tmp_path: Path,
) -> None:
    con = duckdb.connect()
    engine = DuckDBEngine(connection=con)
    load_people(engine)
    limited = con.sql(
        'select * from (select * from "memory"."main"."people" where false limit 0) _dbt_x'
    )
    assert empty_source(limited) == TableName("people", "main")
    assert empty_source(con.sql("select * from main.people")) is None
    assert not empty_build()  # no dbt invocation in this process
    config = people_spec(tmp_path)
    for key in ("source", "output"):
        del config[key]
    this = TableName("people_anon", "main")
    spec = model_spec(config, TableName("people", "main"), this)
    # no release yet: the spec's published columns in the source's order, QIDs as text
    guessed = _empty_model(con, engine, spec, TableName("people", "main"))
    assert guessed.fetchall() == []
    declared = [c for c in config["columns"] if config["columns"][c]["role"] != "identifier"]
    assert sorted(guessed.columns) == sorted(declared)
    # once published, the release's own columns and types
    api.run(spec, engine=engine)
    release = TableName("people_anon", "main_anonsql")
    found = _empty_model(con, engine, spec, TableName("people", "main"))
    assert found.fetchall() == []
    assert found.columns == [c.name for c in engine.columns(release) or []]
    assert [str(t) for t in found.types] == [str(t) for t in guessed.types]
    assert engine.count_rows(TableName("people", "main")) > 0
