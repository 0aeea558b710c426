"""Fast checks of the dbt integration without dbt: the generated package is up to date with
the templates, the Python model's spec and relation handling, and manifest name resolution."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import duckdb
import jinja2
import jinja2.ext
import jinja2.parser
import pytest
from helpers import load_people, people_spec

from anonsql.dbt.generate import builtin_models, generate, stale_files, status_macro
from anonsql.dbt.project import DbtNames, project_spec
from anonsql.dbt.python_model import duckdb_connection, model, model_spec, relation_name
from anonsql.engines import DuckDBEngine
from anonsql.errors import SpecError
from anonsql.spec.output import OutputNames
from anonsql.sql import TableName

THIS = TableName("patients_anon", "analytics")


def test_generated_package_is_up_to_date() -> None:
    # `python -m anonsql.dbt.generate` after changing a privacy or status template
    assert stale_files() == []


def test_status_checksum_macros_come_from_every_status_checksum_template() -> None:
    text = status_macro()
    assert "default__release_checksum" in text and "postgres__release_checksum" in text
    assert "HASHTEXTEXTENDED" in text and "anonsql_dbt.ident(c)" in text and "| ident" not in text


def test_companion_names_follow_output_names() -> None:
    names = next(t for p, t in generate().items() if p.name == "names.sql")
    certificate = OutputNames(TableName("x")).certificate.name
    assert certificate == "x__certificate" and "'__' ~ kind" in names


def test_model_spec_defaults_to_a_table_beside_the_model_schema() -> None:
    spec = model_spec({"privacy": [{"k_anonymity": {"k": 2}}]}, TableName("p", "main"), THIS)
    assert spec["source"] == TableName("p", "main").sql()
    assert spec["output"] == {
        "schema": "analytics_anonsql",
        "name": "patients_anon",
        "materialize": "table",
    }
    chosen = model_spec(
        {"output": {"schema": "rel", "private_schema": "vault"}}, TableName("p"), THIS
    )
    assert chosen["output"]["schema"] == "rel" and chosen["output"]["private_schema"] == "vault"


@pytest.mark.parametrize(
    ("config", "key"),
    [
        (None, "config.anonsql"),
        ({"source": "x"}, "config.anonsql.source"),
        ({"engine": "duckdb"}, "config.anonsql.engine"),
        ({"output": {"schema": "analytics", "name": "patients_anon"}}, "config.anonsql.output"),
        ({"output": "x"}, "config.anonsql.output"),
    ],
)
def test_model_spec_refuses(config: Any, key: str) -> None:
    with pytest.raises(SpecError) as raised:
        model_spec(config, TableName("p"), THIS)
    assert key in str(raised.value)


def test_relation_name_reads_back_what_dbt_duckdb_returns() -> None:
    con = duckdb.connect()
    con.execute('CREATE SCHEMA "my schema"; CREATE TABLE "my schema"."t t" (a INTEGER)')
    rel = con.sql('select * from "my schema"."t t"')
    assert relation_name(rel, "memory") == TableName("t t", "my schema")
    assert relation_name("main.t", "memory") == TableName("t", "main")
    with pytest.raises(SpecError, match="plain table"):
        relation_name(con.sql('select * from "my schema"."t t" where a > 1'), "memory")
    with pytest.raises(SpecError, match="attached database"):
        relation_name(con.sql('select * from memory."my schema"."t t"'), "other")
    assert duckdb_connection(con) is con
    with pytest.raises(SpecError, match="session"):
        duckdb_connection(object())


def test_manifest_names_resolve_source_and_ref() -> None:
    names = DbtNames(
        sources={("raw", "patients"): ("db", "raw data", "patients")},
        nodes={("proj", "stg"): ("db", "analytics", "stg_alias")},
    )
    spec = project_spec(
        {"source": "source('raw', 'patients')", "join": [{"table": "{{ ref('stg') }}"}]},
        names,
        "db",
    )
    assert spec["source"] == TableName("patients", "raw data").sql()
    assert spec["join"][0]["table"] == TableName("stg_alias", "analytics").sql()
    assert project_spec({"source": "main.t"}, names, "db")["source"] == "main.t"
    for text, message in [
        ("ref('missing')", "not in the dbt project"),
        ("source('raw')", "takes"),
        ("ref(x)", "not a dbt source"),
    ]:
        with pytest.raises(SpecError, match=message):
            project_spec({"source": text}, names, "db")
    with pytest.raises(SpecError, match="not in the target"):
        project_spec({"source": "ref('stg')"}, names, "other")
    with pytest.raises(SpecError, match="engine"):
        project_spec({"engine": "duckdb", "source": "t"}, names, "db")


def test_dbt_project_without_dbt_installed_says_which_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import importlib.util

    import anonsql.dbt

    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    with pytest.raises(SpecError, match=r"anonsql\[dbt\]"):
        anonsql.dbt.run_in_project(tmp_path / "spec.yaml", tmp_path)


def test_model_logs_one_line_per_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The dbt Python model logs what the release exposes beyond its models: here the two
    columns people_spec publishes acknowledged."""
    con = duckdb.connect()
    load_people(DuckDBEngine(connection=con))
    config = people_spec(tmp_path)
    for key in ("source", "output"):
        del config[key]
    this = SimpleNamespace(identifier="people_anon", name="people_anon", schema="main")
    with caplog.at_level(logging.WARNING, logger="anonsql.dbt"):
        rel = model(SimpleNamespace(this=this), con, "main.people", config)
    assert len(rel.fetchall()) == 400
    lines = [r.getMessage() for r in caplog.records if r.name == "anonsql.dbt"]
    assert lines and all(line.startswith("main_anonsql.people_anon: ") for line in lines)
    assert any("note (acknowledged, insensitive)" in line for line in lines)


def test_generated_macro_files_define_macros_only() -> None:
    """dbt reads every file of macros/ as macro definitions: anything else at the top level
    (an included template body) is an UnexpectedJinjaBlockDeprecation."""
    env = jinja2.Environment(extensions=[DbtTestTag])
    for path, text in generate().items():
        body = env.parse(text).body
        stray = [
            node
            for node in body
            if not isinstance(node, jinja2.nodes.Macro | jinja2.nodes.CallBlock)
            and not (
                isinstance(node, jinja2.nodes.Output)
                and all(
                    isinstance(n, jinja2.nodes.TemplateData) and not n.data.strip()
                    for n in node.nodes
                )
            )
        ]
        assert stray == [], (path, stray[:1])


def test_every_generated_test_first_refuses_an_untested_adapter() -> None:
    tests = [t for p, t in generate().items() if "{% test " in t]
    assert len(tests) == len(builtin_models())
    for text in tests:
        body = text[text.index("{% test ") :]
        first_call = body.index("{{ anonsql_dbt.")
        assert body[first_call:].startswith("{{ anonsql_dbt.require_tested_adapter() }}")
    # and no generated SQL double-quotes a name itself: quoting is the adapter's (ident)
    for path, text in generate().items():
        sql = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", "", text, flags=re.S)
        assert '"' not in sql, path


class DbtTestTag(jinja2.ext.Extension):
    """dbt's ``{% test name(args) %} ... {% endtest %}``, parsed as a call block."""

    tags = {"test"}  # noqa: RUF012 (jinja2 declares it an instance variable)

    def parse(self, parser: jinja2.parser.Parser) -> jinja2.nodes.Node:
        lineno = next(parser.stream).lineno
        parser.parse_expression()
        body = parser.parse_statements(("name:endtest",), drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_test"), [], [], body).set_lineno(lineno)

    def _test(self, caller: Any) -> str:
        return ""
