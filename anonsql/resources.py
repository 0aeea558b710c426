"""Locate the resources shipped with anonsql: SQL templates, reference hierarchies, sample data
and the dbt package.

In a source checkout they live at the repository root (``sql_templates/``, ``hierarchies/``,
``datasets/``, ``integrations/dbt/``); an installed wheel carries them under
``anonsql/_resources/`` (``dbt/`` for the dbt package). One function
answers for both so that nothing else needs to know how anonsql was installed.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent
RESOURCE_KINDS = ("sql_templates", "hierarchies", "datasets", "dbt")
#: Where a kind lives in a source checkout, when not at the root under its own name.
_CHECKOUT = {"dbt": Path("integrations") / "dbt"}


@cache
def resource_dir(kind: str) -> Path:
    """Return the directory holding one kind of shipped resource."""
    if kind not in RESOURCE_KINDS:
        raise ValueError(f"unknown resource kind {kind!r}; expected one of {RESOURCE_KINDS}")
    candidates = (
        _PACKAGE_DIR / "_resources" / kind,
        _PACKAGE_DIR.parent / _CHECKOUT.get(kind, Path(kind)),
    )
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    tried = ", ".join(str(c) for c in candidates)
    raise FileNotFoundError(
        f"anonsql resources {kind!r} not found (looked in {tried}); reinstall anonsql"
    )
