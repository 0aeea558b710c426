"""Publishing on an engine without transactional DDL: the publisher picks the versioned swap by
the engine's declared capability, with no other change. DuckDB stands in for such an engine
here (same SQL, ``transactional_ddl = False``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import load_people, people_spec, snapshot

from anonsql import api
from anonsql.engines import DuckDBEngine
from anonsql.errors import VerificationError
from anonsql.privacy.k_anonymity import KAnonymity
from anonsql.publish.swap import TransactionalSwap, VersionedSwap, swap_for
from anonsql.spec.output import OutputNames
from anonsql.sql import TableName


class NonTransactionalDuckDB(DuckDBEngine):
    transactional_ddl = False


def relations(engine: DuckDBEngine, schema: str) -> list[str]:
    return [str(r[0]) for r in engine.query("publish/versions", schema=schema, prefix="")]


def test_strategy_follows_the_capability() -> None:
    names = OutputNames(TableName("t", "anon"))
    assert isinstance(swap_for(DuckDBEngine(), names, "r"), TransactionalSwap)
    assert isinstance(swap_for(NonTransactionalDuckDB(), names, "r"), VersionedSwap)


def test_versioned_release_equals_the_transactional_one(tmp_path: Path) -> None:
    spec = people_spec(tmp_path, k=5)
    with DuckDBEngine() as plain, NonTransactionalDuckDB() as versioned:
        results = []
        for engine in (plain, versioned):
            load_people(engine)
            results.append(api.run(spec, engine=engine))
        assert snapshot(plain, results[0].names.main) == snapshot(versioned, results[1].names.main)
        assert [m.value for m in results[0].metrics] == pytest.approx(
            [m.value for m in results[1].metrics]
        )
        # the final names are views over one version; a second run replaces the version
        first = relations(versioned, "anon")
        api.run(people_spec(tmp_path, k=7), engine=versioned)
        second = relations(versioned, "anon")
        assert len(first) == len(second)
        assert sorted(set(first) - set(second)) != []  # the old version is gone
        assert "people" in second and "people__certificate" in second
        assert api.check_output(versioned, "anon.people").holds


def test_failed_verification_leaves_the_previous_versioned_release(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with NonTransactionalDuckDB() as engine:
        load_people(engine)
        first = api.run(people_spec(tmp_path, k=5), engine=engine)
        before = snapshot(engine, first.names.main)
        names_before = relations(engine, "anon")
        monkeypatch.setattr(KAnonymity, "holds", lambda self, parts: parts.counts >= 1)
        monkeypatch.setattr(KAnonymity, "min_rows", lambda self: 1)
        with pytest.raises(VerificationError):
            api.run(people_spec(tmp_path, k=5), engine=engine)
        assert snapshot(engine, first.names.main) == before
        assert relations(engine, "anon") == names_before
