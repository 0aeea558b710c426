"""The dbt package's privacy tests against ``anonsql check``, on DuckDB, PostgreSQL and Spark
(dbt-spark's ``session`` method on the tests' local Spark; ``-m spark``).

One dbt project declares a test for every built-in model and each of its examples on two
fixture tables (one row per individual, and rows of persons), built by real dbt. Every test
must fail with exactly the number of violations ``anonsql check`` counts on the same relation,
and its compiled SQL, read the way anonsql reads its templates, must be anonsql's statement.
Quoting is part of the contract: a qid has a space in its name, and on Spark a double-quoted
name is a string literal (a k-anonymity test quoting so would count one class and pass).
An adapter the package is not tested on is refused when the test compiles.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
import sqlglot
import yaml
from dbt_kit import (
    DbtRun,
    dbt,
    dbt_in_process,
    pg_profile,
    require_dbt,
    require_dbt_spark,
    write_profiles,
    write_project,
)
from engine_configs import CONFIGS
from sqlglot import exp

from anonsql import api
from anonsql.dbt.generate import builtin_models
from anonsql.engines import DuckDBEngine, Engine, PostgresEngine
from anonsql.sql import TableName
from anonsql.sql.quoting import TEMPLATE_DIALECT

pytestmark = pytest.mark.slow

QIDS = ["a", "b b"]  # a name with a space: quoting is part of the contract
RECORDS = TableName("records", "main")
VISITS = TableName("visits", "main")
#: The case whose count an adapter quoting names as strings would get wrong.
RAW_K_ANONYMITY = "k_anonymity_raw_table"


def records(n: int = 240, seed: int = 1) -> pa.Table:
    rng = random.Random(seed)
    return pa.table(
        {
            "a": [rng.choice([1, 2, 3, None]) for _ in range(n)],
            "b b": [rng.choice(["x", "y", "z", None]) for _ in range(n)],
            "s": [rng.choice(["flu", "cold", "flu", "ulcer", None]) for _ in range(n)],
            "num": [float(rng.choice([1, 2, 2, 5, 9])) for _ in range(n)],
        }
    )


def visits(persons: int = 80, seed: int = 2) -> pa.Table:
    rng = random.Random(seed)
    rows: dict[str, list[Any]] = {"pid": [], "a": [], "b b": [], "item": []}
    for pid in range(persons):
        a, b = rng.choice([1, 2, 3]), rng.choice(["x", "y"])
        for _ in range(rng.randint(1, 4)):
            if rng.random() < 0.05:
                a = rng.choice([1, 2, 3])  # an inconsistent person
            rows["pid"].append(pid)
            rows["a"].append(a)
            rows["b b"].append(b)
            rows["item"].append(rng.choice(["i1", "i2", "i3", "i4"]))
    return pa.table(rows)


def cases() -> list[dict[str, Any]]:
    """(test name, table, model, params) for every built-in model and example."""
    found = []
    for cls in builtin_models():
        for number, example in enumerate(cls.examples):
            params = dict(example)
            person = None
            if cls.counts_persons:
                table, person = VISITS, "pid"
                if cls.needs_sensitive:
                    params["column"] = "item"
            else:
                table = RECORDS
                if cls.needs_sensitive:
                    params["column"] = "num" if params.get("distance") == "ordered" else "s"
            found.append(
                {
                    "name": f"{cls.name}_{number}",
                    "table": table,
                    "model": cls.name,
                    "params": params,
                    "person": person,
                }
            )
    # the raw table's classes (about 15 rows each) fail k = 20: where a double-quoted name is a
    # string literal (Spark), grouping by it puts every row in one class and the test passes
    # declared under `columns:` (dbt passes column_name): the column fills the sensitive column
    # a model reads; a model given its qids accepts it
    found.append(
        {
            "name": "distinct_l_diversity_under_column",
            "table": RECORDS,
            "model": "distinct_l_diversity",
            "params": {"column": "s", "l": 2},
            "person": None,
            "under": "s",
        }
    )
    found.append(
        {
            "name": "k_anonymity_under_column",
            "table": RECORDS,
            "model": "k_anonymity",
            "params": {"k": 3},
            "person": None,
            "under": "a",
        }
    )
    found.append(
        {
            "name": RAW_K_ANONYMITY,
            "table": RECORDS,
            "model": "k_anonymity",
            "params": {"k": 20},
            "person": None,
        }
    )
    return found


BAD_ARGUMENTS: list[tuple[str, str, dict[str, Any], str]] = [
    ("bad_k_zero", "k_anonymity", {"qids": ["a"], "k": 0}, "k >= 1"),
    ("bad_k_text", "k_anonymity", {"qids": ["a"], "k": "5"}, "must be an integer"),
    ("bad_no_qids", "k_anonymity", {"k": 2}, "give qids"),
    ("bad_t", "t_closeness", {"qids": ["a"], "column": "s", "t": 1.5}, "t <= 1"),
    (
        "bad_distance",
        "t_closeness",
        {"qids": ["a"], "column": "s", "t": 0.2, "distance": "x"},
        "one of equal, ordered",
    ),
    ("bad_c", "recursive_cl_diversity", {"qids": ["a"], "column": "s", "l": 2, "c": 0}, "c > 0"),
    ("bad_no_person", "person_consistency", {"qids": ["a"]}, "give person"),
]
#: The refusal of an adapter without a tested implementation, as it compiles (a singular test
#: asking as BigQuery would: the adapters installed here are all tested ones).
UNTESTED_ADAPTER = (
    "{% if execute %}{{ anonsql_dbt.require_tested_adapter('bigquery') }}{% endif %}\n"
    "SELECT 1 AS x WHERE 1 = 0\n",
    "the bigquery adapter has no tested implementation",
)


def expected(engine: Engine, case: dict[str, Any]) -> tuple[int, str]:
    model_entry = {case["model"]: case["params"]}
    result = api.check(engine, case["table"], QIDS, [model_entry], person=case["person"])
    [count] = result.violations.values()
    from anonsql.privacy import models_from_entries

    [model] = models_from_entries([model_entry])
    sql = model.violations_sql(engine.sql, case["table"], QIDS, person=case["person"])
    return count, sql


def build_project(root: Path, profile: dict[str, Any]) -> Path:
    project = root / "privacy_tests"
    write_project(project, "privacy_tests")
    write_profiles(project, "privacy_tests", {"t": profile}, "t")
    tables: dict[str, list[dict[str, Any]]] = {"records": [], "visits": []}
    columns: dict[str, dict[str, list[dict[str, Any]]]] = {"records": {}, "visits": {}}
    for case in cases():
        arguments: dict[str, Any] = {"qids": QIDS, **case["params"]}
        if case["person"]:
            arguments["person"] = case["person"]
        test = {f"anonsql_dbt.{case['model']}": {"name": case["name"], "arguments": arguments}}
        if "under" in case:
            if arguments.get("column") == case["under"]:
                del arguments["column"]
            columns[case["table"].name].setdefault(case["under"], []).append(test)
        else:
            tables[case["table"].name].append(test)
    for name, model, arguments, _ in BAD_ARGUMENTS:
        tables["records"].append({f"anonsql_dbt.{model}": {"name": name, "arguments": arguments}})
    sources = {
        "version": 2,
        "sources": [
            {
                "name": "fixtures",
                "schema": "main",
                "tables": [
                    {
                        "name": t,
                        "data_tests": tests,
                        "columns": [
                            {"name": c, "data_tests": under} for c, under in columns[t].items()
                        ],
                    }
                    for t, tests in tables.items()
                ],
            }
        ],
    }
    (project / "models").mkdir()
    (project / "models" / "sources.yml").write_text(yaml.safe_dump(sources, sort_keys=False))
    (project / "tests").mkdir()
    (project / "tests" / "untested_adapter.sql").write_text(UNTESTED_ADAPTER[0])
    return project


def without_catalog(sql: str, dialect: str) -> str:
    """``sql`` with its tables named as ``schema.name``, quoted (dbt renders a relation with its
    database and its adapter's quoting policy; anonsql quotes every part)."""
    tree = sqlglot.parse_one(sql, read=dialect)
    for table in tree.find_all(exp.Table):
        table.set("catalog", None)
        for part in ("db", "this"):
            name = table.args.get(part)
            if isinstance(name, exp.Identifier):
                name.set("quoted", True)
    return tree.sql(dialect=dialect)


def run_and_compare(
    engine: Engine, root: Path, profile: dict[str, Any], run_dbt: Any = dbt
) -> None:
    engine.load_arrow(RECORDS, records())
    engine.load_arrow(VISITS, visits())
    wanted = {c["name"]: expected(engine, c) for c in cases()}
    assert wanted[RAW_K_ANONYMITY][0] > 1, wanted[RAW_K_ANONYMITY]
    assert any(n > 0 for n, _ in wanted.values()) and any(n == 0 for n, _ in wanted.values())
    dialect = engine.dialect
    engine.close()  # DuckDB: one process at a time on a database file
    project = build_project(root, profile)
    run_dbt(project, "deps")
    run: DbtRun = run_dbt(project, "test", "--show-all-deprecations", ok=False)
    # no macro of the package is something dbt deprecates (UnexpectedJinjaBlockDeprecation...)
    assert "Deprecat" not in run.output, run.output[-3000:]
    nodes = run.manifest()["nodes"]
    by_name = {nodes[uid]["name"]: r for uid, r in run.results().items() if uid in nodes}
    for name, (count, sql) in wanted.items():
        result = by_name[name]
        assert result["status"] in ("pass", "fail"), (name, result["message"])
        assert result["failures"] == count, (name, result["failures"], count)
        assert result["status"] == ("pass" if count == 0 else "fail"), name
        # the dbt test's SQL, parsed as anonsql parses its templates, is anonsql's statement
        # (Spark's: the adapter's own quoting, which only Spark's dialect reads)
        read = dialect if engine.name == "spark" else TEMPLATE_DIALECT
        compiled = sqlglot.parse_one(result["compiled_code"], read=read)
        ours, theirs = (
            without_catalog(compiled.sql(dialect=dialect), dialect),
            without_catalog(sql, dialect),
        )
        if engine.name == "spark":
            # anonsql's Spark SQL spells out DuckDB's NULLS LAST on every ORDER BY; where the
            # templates leave it implicit the order only numbers classes and codes
            ours, theirs = (text.replace(" NULLS LAST", "") for text in (ours, theirs))
        assert ours == theirs, name
    for name, _, _, message in BAD_ARGUMENTS:
        refused = by_name.get(name)
        assert refused is not None and refused["status"] == "error", name
        assert message in refused["message"], (name, refused["message"])
    refused = by_name["untested_adapter"]
    assert refused["status"] == "error" and UNTESTED_ADAPTER[1] in refused["message"]


def test_dbt_privacy_tests_match_anonsql_check_on_duckdb(tmp_path: Path) -> None:
    require_dbt()
    database = tmp_path / "fixtures.duckdb"
    profile = {"type": "duckdb", "path": str(database), "threads": 1}
    run_and_compare(DuckDBEngine(database), tmp_path, profile)


def test_dbt_privacy_tests_match_anonsql_check_on_postgres(
    tmp_path: Path, pg_database: str
) -> None:
    require_dbt()
    run_and_compare(PostgresEngine(pg_database), tmp_path, pg_profile(pg_database, "main"))


def test_dbt_privacy_tests_match_anonsql_check_on_spark(
    tmp_path: Path, request: pytest.FixtureRequest, spark_session: Any
) -> None:
    """dbt-spark's session method runs in this process, on the tests' Spark session (the
    fixture marks the test ``spark``: it runs in the Spark pass only)."""
    require_dbt_spark()
    engine = CONFIGS["spark"].open(request)
    profile = {"type": "spark", "method": "session", "host": "NA", "schema": "main", "threads": 1}
    run_and_compare(engine, tmp_path, profile, dbt_in_process)
