"""The one conversion of pydantic validation errors into :class:`~anonsql.errors.SpecError`.

The spec, every algorithm's options and every privacy model's parameters are pydantic models;
their errors all go through :func:`spec_error`, so each names the key path, the problem and a fix
(a did-you-mean suggestion for a misspelled key). A validator of anonsql's own raises
:func:`option_error`, whose problem and fix the SpecError keeps as written.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import ValidationError
from pydantic_core import PydanticCustomError

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
DEFAULT_FIX = "see the spec reference in docs/spec.md"
#: The pydantic error type of :func:`option_error`.
OPTION_ERROR = "anonsql_option"


def option_error(problem: str, fix: str) -> PydanticCustomError:
    """The error a field or model validator raises: ``problem`` becomes the SpecError's
    problem and ``fix`` its fix (before any fix the caller of :func:`spec_error` gives)."""
    return PydanticCustomError(OPTION_ERROR, "{problem}", {"problem": problem, "fix": fix})


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

    ``empty`` names a location-less error; ``fix`` replaces the per-kind fix (not the fix of an
    :func:`option_error`); ``known_keys(loc)`` lists the keys allowed beside an unknown one, for
    a did-you-mean suggestion.
    """
    errors = err.errors()
    first = errors[0]
    loc = tuple(first["loc"])
    where = ".".join(str(p) for p in loc) or empty
    key = f"{prefix}.{where}" if prefix else where
    if first["type"] == OPTION_ERROR:
        hint = str(first["ctx"]["fix"])
    else:
        hint = fix or FIXES.get(first["type"], DEFAULT_FIX)
    if first["type"] == "extra_forbidden" and known_keys is not None:
        hint = suggestion(str(loc[-1]), known_keys(loc)) or hint
    if first["type"] == "missing" and loc:
        hint = _misspelled(loc, errors) or hint
    return SpecError(key, first["msg"], hint, source=source)


def _misspelled(missing: tuple[Any, ...], errors: Sequence[Any]) -> str | None:
    """``did you mean privacy? (found privcy)`` when a required key is missing and an unknown
    key beside it is close to its name (the key was misspelled: pydantic reports it missing
    first, and the unknown key after it)."""
    unknown = [
        str(e["loc"][-1])
        for e in errors
        if e["type"] == "extra_forbidden" and tuple(e["loc"][:-1]) == missing[:-1]
    ]
    close = difflib.get_close_matches(str(missing[-1]), unknown, n=1)
    return f"did you mean {missing[-1]}? (found {close[0]})" if close else None
