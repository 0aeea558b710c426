"""A limitation, held so that docs/threat-model.md stays true: DuckDB has no roles, so whoever
opens a release's database file reads everything in it, the source and the private schema (the
recoding map: every original quasi-identifier vector) included. The file is not a way to share
a release."""

from __future__ import annotations

from pathlib import Path

from helpers import load_people, people_spec

from anonsql import api
from anonsql.engines import DuckDBEngine


def test_whoever_opens_the_file_reads_the_source_and_the_private_schema(tmp_path: Path) -> None:
    db = tmp_path / "release.duckdb"
    with DuckDBEngine(db) as engine:
        load_people(engine)
        api.run(people_spec(tmp_path, k=5), engine=engine)
    with DuckDBEngine(db) as analyst:  # no credentials, no role: the file is enough
        assert analyst.fetchall("SELECT count(*) FROM main.people") == [(400,)]
        recoding = analyst.fetchall("SELECT count(*) FROM anon_private.people__recoding")
        assert recoding[0][0] > 0
