"""The guard of a live view holds against EXPLAIN on PostgreSQL: an analyst (an unprivileged
role granted the release as ``output.grants`` grants it) who filters a live view with leakproof
operators (``=`` on a quasi-identifier, a sensitive value, a column published unchanged) and
reads the plan with ``EXPLAIN (ANALYZE, FORMAT JSON)`` learns nothing about the rows the guard
withholds. Before the fence, PostgreSQL pushed such filters below the guard's anti-join, and the
plan's row counts gave a withheld class's sensitive-value histogram and confirmed guessed
values; under a table-level model (t-closeness withholds the whole view) every class was
exposed the same way."""

from __future__ import annotations

import itertools
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from helpers import load_people, people_spec
from pg_server import PostgresServer

from anonsql import api
from anonsql.engines import PostgresEngine

pytestmark = pytest.mark.postgres

QIDS = ("age", "city", "income")
DISEASES = ("flu", "cold", "asthma", "diabetes", "ulcer")
#: Keys of a plan node holding a predicate.
CONDITIONS = (
    "Filter",
    "Join Filter",
    "Index Cond",
    "Recheck Cond",
    "Hash Cond",
    "Merge Cond",
    "TID Cond",
    "One-Time Filter",
)
#: Figures of a plan node that do not depend on timing or caching.
FIGURES = (
    "Node Type",
    "Relation Name",
    "Function Name",
    "CTE Name",
    "Join Type",
    "Plan Rows",
    "Actual Rows",
    "Actual Loops",
    "Rows Removed by Filter",
    "Rows Removed by Join Filter",
)
_roles = itertools.count()


@pytest.fixture
def analyst(pg_server: PostgresServer, pg_database: str) -> Iterator[str]:
    """A login role of its own (roles are the cluster's: the name is unique per process)."""
    role = f"analyst_{os.getpid()}_{next(_roles)}"
    with psycopg.connect(pg_server.dsn, autocommit=True) as admin:
        admin.execute(f'CREATE ROLE "{role}" LOGIN')
    try:
        yield role
    finally:
        with psycopg.connect(pg_database, autocommit=True) as con:
            con.execute(f'DROP OWNED BY "{role}"')
        with psycopg.connect(pg_server.dsn, autocommit=True) as admin:
            admin.execute(f'DROP ROLE IF EXISTS "{role}"')


def as_role(pg_server: PostgresServer, pg_database: str, role: str) -> psycopg.Connection[Any]:
    dbname = psycopg.conninfo.conninfo_to_dict(pg_database)["dbname"]
    return psycopg.connect(pg_server.dsn_for(str(dbname), user=role), autocommit=True)


def publish(pg_database: str, tmp_path: Path, role: str, **spec: Any) -> None:
    with PostgresEngine(pg_database) as engine:
        load_people(engine)
        full = people_spec(tmp_path, k=5, **spec)
        # the guard fences the live view (the opt-in); a version has no guard to pass
        full["output"]["materialize"] = "live"
        full["output"]["grants"] = [role]
        api.run(full, engine=engine)


def withhold_a_class(pg_database: str, keep: int) -> tuple[tuple[str, ...], list[str]]:
    """Delete rows of the smallest published class until ``keep`` are left (below k, so the
    guard withholds them); mark what is left with a pass-through value nobody else has. Returns
    the class's published quasi-identifier values and the diseases of the rows left."""
    with psycopg.connect(pg_database, autocommit=True) as con:
        cls = con.execute(
            "SELECT age, city, income FROM anon_private.people__released "
            "GROUP BY age, city, income ORDER BY count(*), age, city, income LIMIT 1"
        ).fetchone()
        assert cls is not None
        members = [
            r[0]
            for r in con.execute(
                "SELECT s.name FROM main.people AS s JOIN anon_private.people__recoding AS m "
                "USING (age, city, income) WHERE m.age__generalized = %s "
                "AND m.city__generalized = %s AND m.income__generalized = %s ORDER BY s.name",
                cls,
            )
        ]
        con.execute("DELETE FROM main.people WHERE name = ANY(%s)", (members[keep:],))
        con.execute("UPDATE main.people SET note = 'guessed' WHERE name = ANY(%s)", (members,))
        diseases = [
            r[0]
            for r in con.execute(
                "SELECT disease FROM main.people WHERE name = ANY(%s)", (members[:keep],)
            )
        ]
    return tuple(str(v) for v in cls), diseases


def plan_of(con: psycopg.Connection[Any], query: str, params: tuple[Any, ...]) -> dict[str, Any]:
    row = con.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {query}", params).fetchone()
    assert row is not None
    found = row[0] if isinstance(row[0], list) else json.loads(row[0])
    plan: dict[str, Any] = found[0]["Plan"]
    return plan


def nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from nodes(child)


def figures(plan: dict[str, Any]) -> list[tuple[Any, ...]]:
    """What every node of the plan reports, timings aside."""
    return [tuple(n.get(k) for k in FIGURES) for n in nodes(plan)]


def assert_fenced(plan: dict[str, Any], literals: tuple[str, ...], guard: str) -> None:
    """Every node evaluating the analyst's predicate is the guard's fence (a scan of the
    function returning the guarded rows), and nothing below it is in the plan."""
    for node in nodes(plan):
        conditions = " ".join(str(node.get(k, "")) for k in CONDITIONS)
        if any(f"'{value}'" in conditions for value in literals):
            assert node["Node Type"] == "Function Scan", node
            assert node.get("Function Name") == guard, node
        if node.get("Function Name") == guard:
            assert "Plans" not in node, node
    scanned = {n.get("Relation Name") for n in nodes(plan)} - {None}
    assert not scanned, f"the plan reads {scanned} beside the fence"


ATTACKS = {
    "a withheld class's rows": "SELECT * FROM anon.people WHERE age = %s AND city = %s AND "
    "income = %s",
    "a withheld class's count": "SELECT count(*) FROM anon.people WHERE age = %s AND city = %s "
    "AND income = %s",
}


def test_explain_analyze_counts_no_withheld_row(
    pg_server: PostgresServer, pg_database: str, tmp_path: Path, analyst: str
) -> None:
    publish(pg_database, tmp_path, analyst)
    cls, diseases = withhold_a_class(pg_database, keep=4)
    with as_role(pg_server, pg_database, analyst) as con:
        for query in ATTACKS.values():
            plan = plan_of(con, query, cls)
            assert_fenced(plan, cls, "people__guard")
            assert plan["Actual Rows"] == (1 if "count" in query else 0)
            guard = next(n for n in nodes(plan) if n["Node Type"] == "Function Scan")
            assert guard["Actual Rows"] == 0
        # the histogram: one query per sensitive value; every plan reports the same figures
        histogram = "SELECT * FROM anon.people WHERE age = %s AND city = %s AND income = %s AND "
        seen = set()
        for disease in DISEASES:
            plan = plan_of(con, histogram + "disease = %s", (*cls, disease))
            assert_fenced(plan, (*cls, disease), "people__guard")
            seen.add(tuple(figures(plan)))
        assert len(seen) == 1, "the plans tell the sensitive values apart"
        # a guessed value of a column published unchanged: held by the withheld rows alone
        guesses = {
            guess: figures(plan_of(con, "SELECT * FROM anon.people WHERE note = %s", (guess,)))
            for guess in ("guessed", "never held")
        }
        assert guesses["guessed"] == guesses["never held"]
        # a guessed sensitive value: the plans are the same whether the class holds it or not
        held, absent = diseases[0], next(d for d in DISEASES if d not in diseases)
        both = [
            figures(plan_of(con, histogram + "disease = %s", (*cls, d))) for d in (held, absent)
        ]
        assert both[0] == both[1]


def test_explain_under_a_table_level_model_exposes_no_class(
    pg_server: PostgresServer, pg_database: str, tmp_path: Path, analyst: str
) -> None:
    """t-closeness compares each class with the whole table: one violation withholds the whole
    view, and then no filter tells any class's rows apart."""
    privacy = [{"k_anonymity": {"k": 5}}, {"t_closeness": {"column": "disease", "t": 0.5}}]
    publish(pg_database, tmp_path, analyst, privacy=privacy)
    with psycopg.connect(pg_database, autocommit=True) as con:
        con.execute(
            "UPDATE main.people SET disease = 'gout' WHERE name IN (SELECT s.name FROM "
            "main.people AS s JOIN anon_private.people__recoding AS m USING (age, city, income) "
            "WHERE m.__anonsql_pid = "
            "(SELECT min(__anonsql_pid) FROM anon_private.people__recoding))"
        )
        classes = con.execute(
            "SELECT age, city, income FROM anon_private.people__released "
            "GROUP BY age, city, income ORDER BY count(*) DESC LIMIT 3"
        ).fetchall()
    with as_role(pg_server, pg_database, analyst) as con:
        assert con.execute("SELECT count(*) FROM anon.people").fetchone() == (0,)
        seen = set()
        for cls in [*classes, ("nowhere", "nowhere", "nowhere")]:
            for disease in (*DISEASES, "gout"):
                query = ATTACKS["a withheld class's rows"] + " AND disease = %s"
                plan = plan_of(con, query, (*cls, disease))
                assert_fenced(plan, (*cls, disease), "people__guard")
                seen.add(tuple(figures(plan)))
        assert len(seen) == 1, "the plans tell classes or values apart"


#: The source's row of pg_class (its schema is not the analyst's: no regclass cast).
SOURCE = (
    "FROM pg_class WHERE relname = 'people' AND relnamespace = "
    "(SELECT oid FROM pg_namespace WHERE nspname = 'main')"
)


def stat_row(con: psycopg.Connection[Any], relation: str) -> tuple[Any, ...] | None:
    """What ``pg_stat_user_tables`` shows of ``relation`` (schema.name), waiting for the
    statistics of sessions that ended to be flushed."""
    schema, name = relation.split(".")
    row: tuple[Any, ...] | None = None
    for _ in range(50):
        con.execute("SELECT pg_stat_clear_snapshot()")
        found = con.execute(
            "SELECT n_tup_ins, n_tup_del FROM pg_stat_user_tables "
            "WHERE schemaname = %s AND relname = %s",
            (schema, name),
        ).fetchone()
        row = None if found is None else tuple(found)
        if row is not None and row[1]:
            return row
        time.sleep(0.1)
    return row


def test_statistics_an_analyst_reads_and_what_revoking_them_stops(
    pg_server: PostgresServer, pg_database: str, tmp_path: Path, analyst: str
) -> None:
    """What remains beside the fence on PostgreSQL (docs/security.md "Statistics views"): an
    unprivileged role reads the cumulative statistics and the planner's row estimates of tables
    it cannot SELECT (exact insert and delete counts of the source), but not their column
    statistics nor the statistics catalog; a DBA's REVOKE from PUBLIC on the statistics views and
    the functions under them stops the first."""
    publish(pg_database, tmp_path, analyst)
    with psycopg.connect(pg_database, autocommit=True) as con:
        con.execute("ANALYZE main.people")
        deleted = con.execute(
            "DELETE FROM main.people WHERE name IN (SELECT name FROM main.people LIMIT 3)"
        ).rowcount
    with as_role(pg_server, pg_database, analyst) as con:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            con.execute("SELECT count(*) FROM main.people")
        # cumulative statistics: readable, exact
        row = stat_row(con, "main.people")
        assert row is not None and row[1] == deleted
        assert stat_row(con, "anon_private.people__recoding") is not None
        assert con.execute(f"SELECT pg_stat_get_tuples_deleted(oid) {SOURCE}").fetchone() == (
            deleted,
        )
        # the planner's estimates: readable
        reltuples = con.execute(f"SELECT reltuples {SOURCE}").fetchone()
        assert reltuples is not None and reltuples[0] > 0
        # column statistics: only of columns the role may read
        assert con.execute(
            "SELECT count(*) FROM pg_stats WHERE schemaname IN ('main', 'anon_private')"
        ).fetchone() == (0,)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            con.execute("SELECT count(*) FROM pg_statistic")
    with psycopg.connect(pg_database, autocommit=True) as dba:
        dba.execute(
            "REVOKE SELECT ON pg_stat_all_tables, pg_stat_user_tables, pg_stat_sys_tables, "
            "pg_stat_xact_all_tables, pg_stat_xact_user_tables, pg_statio_all_tables, "
            "pg_statio_user_tables FROM PUBLIC"
        )
        dba.execute(
            "DO $$ DECLARE f regprocedure; BEGIN FOR f IN SELECT oid FROM pg_proc "
            "WHERE proname LIKE 'pg\\_stat\\_get\\_%' LOOP "
            "EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f); END LOOP; END $$"
        )
    with as_role(pg_server, pg_database, analyst) as con:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            con.execute("SELECT n_tup_del FROM pg_stat_user_tables")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            con.execute(f"SELECT pg_stat_get_tuples_deleted(oid) {SOURCE}")
        # the release itself still reads
        count = con.execute("SELECT count(*) FROM anon.people").fetchone()
        assert count is not None and count[0] > 0


def test_catalog_shows_an_analyst_no_data_value(
    pg_server: PostgresServer, pg_database: str, tmp_path: Path, analyst: str
) -> None:
    """Every role reads the catalogs: the names and columns of the source and of the private
    relations, the private views' definitions and the guard function's body. None of them holds
    a value of a quasi-identifier, sensitive or identifier column."""
    publish(pg_database, tmp_path, analyst)
    with psycopg.connect(pg_database, autocommit=True) as con:
        values = {
            str(v)
            for row in con.execute("SELECT name, city, disease, note FROM main.people")
            for v in row
        }
    with as_role(pg_server, pg_database, analyst) as con:
        texts = [
            str(r[0])
            for query in (
                "SELECT definition FROM pg_views WHERE schemaname IN ('anon', 'anon_private')",
                "SELECT prosrc FROM pg_proc JOIN pg_namespace AS n ON n.oid = pronamespace "
                "WHERE nspname IN ('anon', 'anon_private')",
                "SELECT attname FROM pg_attribute JOIN pg_class AS c ON c.oid = attrelid "
                "JOIN pg_namespace AS n ON n.oid = relnamespace "
                "WHERE nspname IN ('main', 'anon', 'anon_private')",
            )
            for r in con.execute(query)
        ]
    assert any("people__guard" in t for t in texts), "the analyst reads the view definitions"
    assert any("NOT EXISTS" in t for t in texts), "the analyst reads the guard's body"
    catalog = "\n".join(texts)
    found = sorted(v for v in values - {"a", "b"} if f"'{v}'" in catalog)
    assert not found, f"the catalogs show data values: {found}"
