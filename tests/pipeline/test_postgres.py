"""PostgreSQL specifics: grants that expose the view and nothing else, concurrent runs,
DSN hygiene."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import psycopg
import pytest
from helpers import load_people, people_spec, work_schemas
from pg_server import PostgresServer

from anonsql import api
from anonsql.engines import PostgresEngine
from anonsql.errors import SpecError
from anonsql.sql import TableName


def test_grants_expose_the_view_not_the_source(
    pg_server: PostgresServer, pg_database: str, tmp_path: Path
) -> None:
    with psycopg.connect(pg_server.dsn, autocommit=True) as admin:
        admin.execute("DROP ROLE IF EXISTS analyst")
        admin.execute("CREATE ROLE analyst LOGIN")
    try:
        with PostgresEngine(pg_database) as engine:
            load_people(engine)
            spec = people_spec(tmp_path, k=5)
            spec["output"]["grants"] = ["analyst"]
            api.run(spec, engine=engine)
        dbname = psycopg.conninfo.conninfo_to_dict(pg_database)["dbname"]
        with psycopg.connect(
            pg_server.dsn_for(str(dbname), user="analyst"), autocommit=True
        ) as con:
            rows = con.execute("SELECT count(*) FROM anon.people").fetchone()
            assert rows == (400,)
            assert con.execute("SELECT count(*) FROM anon.people__metrics").fetchone() is not None
            forbidden_relations = (
                "main.people",
                "anon_private.people__recoding",
                "anon_private.people__released",
            )
            for forbidden in forbidden_relations:
                with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
                    con.execute(f"SELECT * FROM {forbidden}")
    finally:
        with psycopg.connect(pg_server.dsn, autocommit=True) as admin:
            dbname = psycopg.conninfo.conninfo_to_dict(pg_database)["dbname"]
            with psycopg.connect(pg_server.dsn_for(str(dbname)), autocommit=True) as con:
                con.execute("DROP OWNED BY analyst")
            admin.execute("DROP ROLE IF EXISTS analyst")


def test_leaky_function_sees_no_withheld_row(
    pg_server: PostgresServer, pg_database: str, tmp_path: Path
) -> None:
    """The leaky-function attack: an analyst's cheap function in pg_temp, raising a NOTICE with
    its argument, must not be pushed below the view's joins and filters (security_barrier), so
    it never sees a row the view withholds: here the rows of a class that fell below k after
    publishing (the guard withholds them), and rows inserted with a vector the release never
    saw."""
    with psycopg.connect(pg_server.dsn, autocommit=True) as admin:
        admin.execute("DROP ROLE IF EXISTS leaker")
        admin.execute("CREATE ROLE leaker LOGIN")
    try:
        with PostgresEngine(pg_database) as engine:
            load_people(engine)
            spec = people_spec(tmp_path, k=5)
            spec["output"]["grants"] = ["leaker"]
            spec["output"]["materialize"] = "live"  # the guard fences a live view
            result = api.run(spec, engine=engine)
            # shrink one class below k and mark what is left of it
            pid = engine.fetchall(
                "SELECT __anonsql_pid FROM anon_private.people__recoding "
                "GROUP BY __anonsql_pid ORDER BY __anonsql_pid LIMIT 1"
            )[0][0]
            vectors = (
                "SELECT age, city, income FROM anon_private.people__recoding WHERE __anonsql_pid = "
            )
            members = engine.fetchall(
                f"SELECT name FROM main.people WHERE (age, city, income) IN ({vectors}{pid})"
            )
            for (name,) in members[2:]:
                engine.execute(f"DELETE FROM main.people WHERE name = '{name}'")
            for (name,) in members[:2]:
                engine.execute(
                    f"UPDATE main.people SET disease = 'SECRET-{name}' WHERE name = '{name}'"
                )
            engine.execute(
                "INSERT INTO main.people (name, age, city, income, disease, note) "
                "VALUES ('x', 200, 'Lyon', 1, 'SECRET-VALUE', 'a')"
            )
            shown = 400 - len(members)
            assert result.certificate["published_rows"] == 400
        dbname = psycopg.conninfo.conninfo_to_dict(pg_database)["dbname"]
        notices: list[str] = []
        with psycopg.connect(pg_server.dsn_for(str(dbname), user="leaker"), autocommit=True) as con:
            con.add_notice_handler(lambda diag: notices.append(str(diag.message_primary)))
            con.execute(
                "CREATE FUNCTION pg_temp.leak(value text) RETURNS boolean LANGUAGE plpgsql "
                "COST 0.0000001 AS $$ BEGIN RAISE NOTICE 'saw %', value; RETURN true; END $$"
            )
            rows = con.execute("SELECT count(*) FROM anon.people WHERE pg_temp.leak(disease)")
            assert rows.fetchone() == (shown,)
        assert len(notices) == shown
        assert not any("SECRET" in n for n in notices)
    finally:
        with psycopg.connect(pg_server.dsn, autocommit=True) as admin:
            dbname = psycopg.conninfo.conninfo_to_dict(pg_database)["dbname"]
            with psycopg.connect(pg_server.dsn_for(str(dbname)), autocommit=True) as con:
                con.execute("DROP OWNED BY leaker")
            admin.execute("DROP ROLE IF EXISTS leaker")


def test_unknown_role_is_a_spec_error(pg_database: str, tmp_path: Path) -> None:
    with PostgresEngine(pg_database) as engine:
        load_people(engine)
        spec = people_spec(tmp_path, k=5)
        spec["output"]["grants"] = ["nobody_here"]
        with pytest.raises(SpecError, match=r"output.grants\[0\]"):
            api.run(spec, engine=engine)


def test_grants_refused_on_duckdb(tmp_path: Path) -> None:
    from anonsql.engines import DuckDBEngine

    with DuckDBEngine() as engine:
        load_people(engine)
        spec = people_spec(tmp_path, k=5)
        spec["output"]["grants"] = ["analyst"]
        with pytest.raises(SpecError, match=r"output\.grants"):
            api.run(spec, engine=engine)


def test_password_in_dsn_is_refused() -> None:
    with pytest.raises(SpecError, match="PGPASSWORD"):
        PostgresEngine("host=127.0.0.1 user=x password=secret dbname=y")


def test_concurrent_runs_do_not_interfere(pg_database: str, tmp_path: Path) -> None:
    with PostgresEngine(pg_database) as engine:
        load_people(engine)
    results: dict[str, Any] = {}
    errors: list[BaseException] = []

    def one(name: str, k: int) -> None:
        try:
            with PostgresEngine(pg_database) as engine:
                spec = people_spec(tmp_path / name, k=k, output={"schema": "anon", "name": name})
                results[name] = api.run(spec, engine=engine)
        except BaseException as err:  # reported below
            errors.append(err)

    for name in ("one", "two"):
        (tmp_path / name).mkdir()
    threads = [threading.Thread(target=one, args=(n, k)) for n, k in (("one", 3), ("two", 7))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert results["one"].certificate["verified"] and results["two"].certificate["verified"]
    with PostgresEngine(pg_database) as engine:
        assert api.check(
            engine, "anon.one", ["age", "city", "income"], [{"k_anonymity": {"k": 3}}]
        ).holds
        assert api.check(
            engine, "anon.two", ["age", "city", "income"], [{"k_anonymity": {"k": 7}}]
        ).holds
        assert work_schemas(engine) == []


def test_names_past_postgres_limit_are_refused_before_any_work(
    pg_database: str, tmp_path: Path
) -> None:
    """PostgreSQL truncates identifiers past 63 bytes silently (``people__classes`` and
    ``people__certificate`` of a long name would become one relation): the run refuses first,
    naming the key and the longest name allowed, and writes nothing."""
    with PostgresEngine(pg_database) as engine:
        load_people(engine)
        before = work_schemas(engine)
        # "__released_by_person" (20 bytes) is the longest companion suffix: 43 bytes are left
        spec = people_spec(tmp_path, k=5)
        spec["output"]["name"] = "é" * 22  # 44 bytes
        with pytest.raises(SpecError, match="at most 43 bytes") as refused:
            api.run(spec, engine=engine)
        assert refused.value.key == "output.name"
        assert not engine.exists(TableName("é" * 22, "anon"))
        spec["output"]["name"] = "é" * 21 + "x"  # 43 bytes: every companion fits
        api.run(spec, engine=engine)
        assert engine.exists(TableName("é" * 21 + "x", "anon"))
        # a quasi-identifier of 60 bytes: its recoding column would need 73
        long_age = "a" * 60
        engine.execute(f'ALTER TABLE main.people RENAME COLUMN age TO "{long_age}"')
        spec = people_spec(tmp_path, k=5)
        spec["columns"][long_age] = spec["columns"].pop("age")
        with pytest.raises(SpecError, match="at most 50 bytes") as refused:
            api.run(spec, engine=engine)
        assert refused.value.key == f"columns.{long_age}"
        assert work_schemas(engine) == before
