"""The publish gate reads the release grouped once (``publish/refined``, each group with its
row count) for the models that count rows only through that count (``PrivacyModel.weighted``),
and the rows for the others: the same violations either way, and a release that breaks a model
is still refused. On every engine the suite runs (real DuckDB and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from helpers import load_people, people_spec, spy_gate_checks

from anonsql import api
from anonsql.engines import Engine
from anonsql.errors import VerificationError
from anonsql.privacy.check import Grouping, PlannedCheck, run_checks
from anonsql.privacy.frequency_l_diversity import FrequencyLDiversity
from anonsql.privacy.k_anonymity import KAnonymity
from anonsql.sql import TableName

#: k-anonymity and a model over the sensitive column's distribution, both weighted
MODELS = [
    {"k_anonymity": {"k": 4}},
    {"frequency_l_diversity": {"l": 2, "column": "disease"}},
]


def spied(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, int], dict[str, int]]]:
    """Each gate check's models read from the grouping, with the violations found that way and
    on the rows."""
    seen: list[tuple[str, dict[str, int], dict[str, int]]] = []

    def during(
        e: Engine,
        relation: TableName,
        checks: Sequence[PlannedCheck],
        grouping: Grouping | None,
    ) -> None:
        assert grouping is not None and grouping.of is not None
        served = ",".join(m.name for c in checks for m in c.models if grouping.serves(c, m))
        grouped = run_checks(e, relation, checks, grouping)
        rows = run_checks(e, relation, checks)
        seen.append((served, dict(grouped.violations), dict(rows.violations)))

    spy_gate_checks(monkeypatch, during)
    return seen


def test_the_gate_reads_the_grouping_with_the_rows_answer(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_people(engine)
    seen = spied(monkeypatch)
    result = api.run(people_spec(tmp_path, privacy=MODELS), engine=engine)
    assert result.check.holds
    [(served, grouped, rows)] = seen
    assert served == "k_anonymity,frequency_l_diversity"
    assert grouped == rows and not any(grouped.values())


def test_a_release_breaking_the_models_is_refused_through_the_grouping(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_people(engine)
    # the algorithm is told every class holds: the gate alone stands between it and analysts
    monkeypatch.setattr(KAnonymity, "holds", lambda self, parts: parts.counts >= 1)
    monkeypatch.setattr(KAnonymity, "min_rows", lambda self: 1)
    monkeypatch.setattr(FrequencyLDiversity, "holds", lambda self, parts: parts.counts >= 1)
    seen = spied(monkeypatch)
    with pytest.raises(VerificationError):
        api.run(people_spec(tmp_path, privacy=MODELS), engine=engine)
    [(served, grouped, rows)] = seen
    assert served == "k_anonymity,frequency_l_diversity"
    assert grouped == rows
    assert all(n > 0 for n in grouped.values()), grouped
    assert not engine.exists(TableName("people", "anon"))
