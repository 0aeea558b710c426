"""The workload error (anonsql.metrics.workload) on every engine: the estimator against an
independent pandas recomputation on a hand-built release (generalized intervals, hierarchy
nodes, suppressed rows), then on releases anonsql publishes (``__metrics``, the certificate,
``anonsql metrics``, the run's JSON summary), and a run without a workload unchanged."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from click.testing import CliRunner
from helpers import CITY_HIERARCHY, load_people, people_spec
from workload_reference import RefQuery, reference_error

from anonsql import api
from anonsql.cli import main
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.hierarchies.model import Hierarchy
from anonsql.metrics.workload import (
    QidKind,
    WorkloadTarget,
    integer_bounds,
    measure_workload,
)
from anonsql.spec.model import WorkloadQuery
from anonsql.spec.workload import Condition, parse_query
from anonsql.sql import TableName

CITIES = Hierarchy([line.split(";") for line in CITY_HIERARCHY.splitlines()], name="city")
SOURCE = TableName("wl_source", "main")
RELEASE = TableName("wl_release", "main")
NODES = TableName("wl_nodes", "main")


def _fixture(engine: Engine) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """120 source rows; a release generalizing each row around its values (interval widths and
    hierarchy levels drawn at random) that leaves every tenth row out (suppressed)."""
    rng = random.Random(3)
    cities = [n.label for n in CITIES.nodes if n.is_leaf]
    source, release = [], []
    for i in range(120):
        row = {
            "age": rng.randint(20, 60),
            "weight": rng.choice([50.5, 55.0, 61.25, 70.0, 72.5, 80.0]),
            "city": rng.choice(cities),
            "disease": rng.choice(["flu", "cold", "ulcer"]),
            "income": rng.choice([None, *range(10, 100, 7)]),
        }
        source.append(row)
        if i % 10 == 9:
            continue
        low = row["age"] - rng.randint(0, 6)
        age = f"[{low}, {low + rng.randint(0, 9)}]"
        if not (low <= row["age"] <= low + 9):
            age = str(row["age"])
        published = dict(row, age=age if _inside(age, row["age"]) else str(row["age"]))
        weights = sorted({r for r in (50.5, 55.0, 61.25, 70.0, 72.5, 80.0)})
        j = weights.index(row["weight"])
        lo, hi = weights[max(0, j - rng.randint(0, 2))], weights[min(5, j + rng.randint(0, 1))]
        published["weight"] = f"[{lo!r}, {hi!r}]" if lo != hi else repr(lo)
        path = CITIES.path(row["city"])
        published["city"] = path[rng.randint(0, len(path) - 1)]
        release.append(published)
    types = {"age": pa.int32(), "weight": pa.float64(), "city": pa.string()}
    types |= {"disease": pa.string(), "income": pa.int64()}
    engine.ensure_schema("main")
    for table, rows, kinds in (
        (SOURCE, source, types),
        (RELEASE, release, dict(types, age=pa.string(), weight=pa.string())),
    ):
        engine.drop(table)
        engine.load_arrow(
            table, pa.table({c: pa.array([r[c] for r in rows], t) for c, t in kinds.items()})
        )
    nodes = CITIES.nodes_table()
    engine.drop(NODES)
    engine.load_arrow(NODES, nodes.append_column("attribute", pa.array(["city"] * len(nodes))))
    return source, release


def _inside(interval: str, value: int) -> bool:
    lo, hi = (int(x) for x in interval[1:-1].split(", "))
    return lo <= value <= hi


KINDS = (
    QidKind("age", "integer", 20, 60),
    QidKind("weight", "real", 50.5, 80.0),
    QidKind("city", "categorical"),
)
QUERIES = {
    "count_all": "SELECT COUNT(*) FROM wl_release",
    "age_range": "SELECT COUNT(*) FROM wl_release WHERE age BETWEEN 30 AND 39",
    "age_open": "SELECT COUNT(*) FROM wl_release WHERE age > 25 AND 50 >= age AND age < 45",
    "age_in": "SELECT COUNT(*) FROM wl_release WHERE age IN (30, 31, 45, 99)",
    "by_age": "SELECT age, COUNT(*) FROM wl_release WHERE age <= 35 GROUP BY age",
    "by_age_in": "SELECT age, COUNT(*) FROM wl_release WHERE age IN (30, 40) GROUP BY age",
    "weight": "SELECT COUNT(*) FROM wl_release WHERE weight >= 55 AND weight < 72.5",
    "by_weight": "SELECT weight, COUNT(*) FROM wl_release GROUP BY weight",
    "by_city": "SELECT city, COUNT(*) FROM wl_release GROUP BY city",
    "cities": "SELECT COUNT(*) FROM wl_release WHERE city IN ('Lyon', 'Rome', 'Boston')",
    "two_dims": "SELECT city, disease, COUNT(*) FROM wl_release "
    "WHERE age BETWEEN 28 AND 47 AND city IN ('Lyon', 'Paris', 'Nice') GROUP BY city, disease",
    "three_dims": "SELECT COUNT(*) FROM main.wl_release "
    "WHERE age >= 30 AND weight <= 70 AND city = 'Boston'",
    "by_age_city": "SELECT age, city, COUNT(*) FROM wl_release WHERE age < 30 GROUP BY city, age",
    "sum": "SELECT disease, SUM(income) FROM wl_release WHERE age BETWEEN 30 AND 50 "
    "GROUP BY disease",
    "avg": "SELECT city, AVG(income) FROM wl_release WHERE disease = 'flu' GROUP BY city",
    "avg_all": "SELECT AVG(income) FROM wl_release WHERE weight > 60",
    "empty": "SELECT COUNT(*) FROM wl_release WHERE age > 100",
}


def _ref_query(sql: str) -> RefQuery:
    q = parse_query(WorkloadQuery(name="q", sql=sql), "q", "wl_release", "main")
    return RefQuery(
        q.aggregate, q.column, [(c.column, c.op, c.values) for c in q.where], q.group_by
    )


def test_the_estimator_matches_an_independent_recomputation(engine: Engine) -> None:
    import pandas as pd

    source, release = _fixture(engine)
    queries = tuple(
        parse_query(WorkloadQuery(name=n, sql=s), n, "wl_release", "main")
        for n, s in QUERIES.items()
    )
    errors = measure_workload(engine, RELEASE, NODES, WorkloadTarget(queries, SOURCE, KINDS))
    leaves = {
        "city": {
            n.label: [CITIES.leaf_node(r).label for r in range(n.first_leaf, n.last_leaf + 1)]
            for n in CITIES.nodes
        }
    }
    kinds = {k.column: k.kind for k in KINDS}
    src, rel = pd.DataFrame(source), pd.DataFrame(release)
    for got in errors:
        groups, mean, total = reference_error(src, rel, _ref_query(got.sql), kinds, leaves)
        assert got.groups == groups, got.name
        assert got.mean_relative_error == pytest.approx(mean, rel=1e-9, abs=1e-12), got.name
        assert got.total_error == pytest.approx(total, rel=1e-9, abs=1e-12), got.name
    by_name = {e.name: e for e in errors}
    assert by_name["count_all"].mean_relative_error == pytest.approx(12 / 120)  # suppressed
    assert by_name["empty"].mean_relative_error == 0.0
    assert by_name["by_city"].groups == 8
    assert all(e.mean_relative_error > 0 for n, e in by_name.items() if n != "empty")


def test_an_exact_release_has_no_error(engine: Engine) -> None:
    _fixture(engine)
    engine.drop(RELEASE)
    engine.run("create_table_as_select_all", target=RELEASE, source=SOURCE)
    queries = tuple(
        parse_query(WorkloadQuery(name=n, sql=s), n, "wl_release", "main")
        for n, s in QUERIES.items()
    )
    errors = measure_workload(engine, RELEASE, NODES, WorkloadTarget(queries, SOURCE, KINDS))
    assert [e.mean_relative_error for e in errors] == pytest.approx([0.0] * len(QUERIES))
    assert [e.total_error for e in errors] == pytest.approx([0.0] * len(QUERIES))


def test_integer_conditions_become_integer_ranges() -> None:
    assert integer_bounds([Condition("age", ">", (25.5,))]) == (26, None, None)
    assert integer_bounds([Condition("age", "<", (30,))]) == (None, 29, None)
    assert integer_bounds(
        [Condition("age", "in", (30, 30.5, 70)), Condition("age", "<=", (50,))]
    ) == (None, 50, [30])


# -- releases anonsql publishes -------------------------------------------------------------

WORKLOAD = [
    {"name": "by_city", "sql": "SELECT city, COUNT(*) FROM people GROUP BY city"},
    {"name": "thirties", "sql": "SELECT COUNT(*) FROM people WHERE age BETWEEN 30 AND 39"},
    {
        "name": "young_fr",
        "sql": "SELECT age, COUNT(*) FROM anon.people WHERE age < 30 "
        "AND city IN ('Lyon', 'Paris', 'Nice') GROUP BY age",
    },
    {
        "name": "flu_by_note",
        "sql": "SELECT note, COUNT(*) FROM people WHERE disease = 'flu' GROUP BY note",
    },
]


def _spec(tmp_path: Path, **extra: Any) -> dict[str, Any]:
    spec = people_spec(tmp_path, k=5)
    spec.update(extra)
    return spec


def test_a_run_certifies_and_records_the_workload_error(engine: Engine, tmp_path: Path) -> None:
    load_people(engine)
    result = api.run(_spec(tmp_path, workload=WORKLOAD), engine=engine)
    records = json.loads(result.certificate["workload_error"])
    assert [r["name"] for r in records] == [q["name"] for q in WORKLOAD]
    assert [r["sql"] for r in records] == [q["sql"] for q in WORKLOAD]
    for r in records:
        assert result.metric("workload_error", r["name"]) == r["mean_relative_error"]
        assert result.metric("workload_total_error", r["name"]) == r["total_error"]
        assert result.metric("workload_groups", r["name"]) == r["groups"]
    mean = sum(r["mean_relative_error"] for r in records) / len(records)
    assert result.metric("workload_error") == pytest.approx(mean)
    assert result.summary_json()["certificate"]["workload_error"] == records
    # read back: `anonsql metrics` recomputes the same figures from the certificate's queries
    again = {
        (m.name, m.attribute): m.value for m in api.recompute_metrics(engine, result.names.main)
    }
    for m in result.metrics:
        assert again[(m.name, m.attribute)] == pytest.approx(m.value), m


def test_a_run_without_workload_is_unchanged(engine: Engine, tmp_path: Path) -> None:
    load_people(engine)
    result = api.run(_spec(tmp_path), engine=engine)
    assert "workload_error" not in result.certificate
    assert not [m for m in result.metrics if m.name.startswith("workload")]
    assert '"workload"' not in api.as_spec(_spec(tmp_path)).canonical_json()
    # a workload is measured, not obeyed, unless the split rule reads it: the same release
    rows = sorted(engine.query("select_all", relation=result.names.main), key=repr)
    spec = _spec(tmp_path, workload=WORKLOAD, output={"schema": "anon", "name": "people2"})
    spec["workload"] = [dict(q, sql=q["sql"].replace("people", "people2")) for q in WORKLOAD]
    other = api.run(spec, engine=engine)
    assert sorted(engine.query("select_all", relation=other.names.main), key=repr) == rows
    same = {k: v for k, v in other.certificate.items() if k != "workload_error"}
    changes = {k for k, v in result.certificate.items() if same.get(k) != v}
    assert changes <= {"run_id", "created_at", "output", "seconds", "spec_sha256"}


def test_the_cli_prints_the_workload_error(tmp_path: Path) -> None:
    from anonsql.engines import DuckDBEngine

    database = tmp_path / "db.duckdb"
    engine = DuckDBEngine(str(database))
    load_people(engine)
    spec = _spec(tmp_path, workload=WORKLOAD, database=str(database))
    api.run(spec, engine=engine)
    engine.close()
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(json.dumps(spec), encoding="utf-8")
    done = CliRunner().invoke(main, ["metrics", str(spec_file), "--json"])
    assert done.exit_code == 0, done.output
    names = {(m["metric"], m["attribute"]) for m in json.loads(done.output)}
    assert ("workload_error", "by_city") in names and ("workload_error", None) in names


@pytest.mark.parametrize(
    ("sql", "problem"),
    [
        ("SELECT COUNT(*) FROM people WHERE agee > 3", "names column 'agee'"),
        ("SELECT COUNT(*) FROM people WHERE name = 'x'", "does not publish"),
        ("SELECT SUM(age) FROM people", "aggregates quasi-identifier 'age'"),
        ("SELECT SUM(disease) FROM people", "not numeric"),
        ("SELECT COUNT(*) FROM people WHERE city > 'Lyon'", "categorical quasi-identifier"),
        ("SELECT COUNT(*) FROM people WHERE age = 'old'", "with a string"),
        ("SELECT COUNT(*) FROM other", "not the release"),
    ],
)
def test_resolve_refuses_columns_the_release_cannot_answer(
    engine: Engine, tmp_path: Path, sql: str, problem: str
) -> None:
    load_people(engine)
    spec = _spec(tmp_path, workload=[{"name": "q", "sql": sql}])
    with pytest.raises(SpecError) as err:
        api.run(spec, engine=engine)
    assert err.value.key == "workload[0].sql"
    assert problem in err.value.problem
    assert not engine.exists(TableName("people", "anon"))
