"""The one conversion of pydantic validation errors into :class:`~anonsql.errors.SpecError`.

The spec, every algorithm's options and every privacy model's parameters are pydantic models;
their errors all go through :func:`spec_error`, so each names the key path, the problem and a fix
(a did-you-mean suggestion for a misspelled key).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import ValidationError

from anonsql.errors import SpecError
from anonsql.registry import suggestion

#: The fix for each kind of pydantic error, when the caller gives none.
FIXES = {
    "missing": "add this key",
    "extra_forbidden": "remove this key or check its spelling",
    "literal_error": "use one of the allowed values",
    "enum": "use one of the allowed values",
    "greater_than_equal": "raise the value",
    "less_than_equal": "lower the value",
}
DEFAULT_FIX = "see the spec reference in README.md"


def spec_error(
    err: ValidationError,
    *,
    prefix: str = "",
    empty: str = "(top level)",
    fix: str | None = None,
    known_keys: Callable[[tuple[Any, ...]], Sequence[str]] | None = None,
    source: str | None = None,
) -> SpecError:
    """The first error of ``err`` as a SpecError keyed ``prefix.<location>``.

    ``empty`` names a location-less error; ``fix`` replaces the per-kind fix; ``known_keys(loc)``
    lists the keys allowed beside an unknown one, for a did-you-mean suggestion.
    """
    first = err.errors()[0]
    loc = tuple(first["loc"])
    where = ".".join(str(p) for p in loc) or empty
    key = f"{prefix}.{where}" if prefix else where
    hint = fix or FIXES.get(first["type"], DEFAULT_FIX)
    if first["type"] == "extra_forbidden" and known_keys is not None:
        hint = suggestion(str(loc[-1]), known_keys(loc)) or hint
    return SpecError(key, first["msg"], hint, source=source)
