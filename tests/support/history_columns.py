"""An autouse fixture for the history tests (``from history_columns import history_columns``):
each runs on a history holding text and on one holding codes (the tables are small: codes are
forced, as a source of ``CODED_FROM_ROWS`` rows would have them)."""

from __future__ import annotations

import pytest

from anonsql.versions import layout


@pytest.fixture(autouse=True, params=["text", "codes"])
def history_columns(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "codes":
        monkeypatch.setattr(layout, "CODED_FROM_ROWS", 0)
    return str(request.param)
