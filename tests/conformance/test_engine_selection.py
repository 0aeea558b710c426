"""The engines a test session runs on (tests/support/engine_configs.py): opt-in engines only when
``-m`` asks for their marker or ``ANONSQL_TEST_ENGINES`` names them."""

from __future__ import annotations

import pytest
from engine_configs import CONFIGS, asks_for, choose

from anonsql.engines import ENGINES


@pytest.mark.parametrize(
    ("markexpr", "asks"),
    [
        ("", False),
        ("spark", True),
        ("spark and slow", True),
        ("spark or postgres", True),
        ("(spark or duckdb) and not slow", True),
        ("not spark", False),
        ("not postgres", False),
        ("slow", False),
        ("duckdb or not slow", False),
    ],
)
def test_an_opt_in_engine_runs_when_the_mark_expression_asks_for_it(
    markexpr: str, asks: bool
) -> None:
    assert asks_for(markexpr, "spark") is asks


def test_the_session_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANONSQL_TEST_ENGINES", raising=False)
    assert choose("") == ["duckdb", "postgres"]
    assert choose("not postgres") == ["duckdb", "postgres"]  # deselected by -m, not here
    assert choose("spark") == ["duckdb", "postgres", "spark"]
    monkeypatch.setenv("ANONSQL_TEST_ENGINES", "duckdb, spark")
    assert choose("") == ["duckdb", "spark"]
    monkeypatch.setenv("ANONSQL_TEST_ENGINES", "duckdb,oracle")
    with pytest.raises(ValueError, match="oracle"):
        choose("")


def test_every_engine_has_a_configuration_and_a_marker(pytestconfig: pytest.Config) -> None:
    assert set(CONFIGS) == set(ENGINES.names())
    registered = {line.split(":")[0] for line in pytestconfig.getini("markers")}
    assert set(CONFIGS) <= registered
