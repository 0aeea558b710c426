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
            for forbidden in ("main.people", "anon.people__recoding"):
                with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
                    con.execute(f"SELECT * FROM {forbidden}")
    finally:
        with psycopg.connect(pg_server.dsn, autocommit=True) as admin:
            dbname = psycopg.conninfo.conninfo_to_dict(pg_database)["dbname"]
            with psycopg.connect(pg_server.dsn_for(str(dbname)), autocommit=True) as con:
                con.execute("DROP OWNED BY analyst")
            admin.execute("DROP ROLE IF EXISTS analyst")


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
