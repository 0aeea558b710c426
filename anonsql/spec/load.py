"""Load a spec from YAML (or a mapping) with errors that name the file and the key."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from anonsql.errors import SpecError
from anonsql.spec.model import ColumnSpec, JoinSpec, OutputSpec, Spec

_FIXES = {
    "missing": "add this key",
    "extra_forbidden": "remove this key or check its spelling",
    "literal_error": "use one of the allowed values",
    "enum": "use one of the allowed values",
    "greater_than_equal": "raise the value",
    "less_than_equal": "lower the value",
}


def spec_from_mapping(
    data: Mapping[str, Any], *, source: str | None = None, base_dir: Path | None = None
) -> Spec:
    """Validate a mapping (parsed YAML or a Python dict) into a :class:`Spec`."""
    if not isinstance(data, Mapping):
        raise SpecError(
            "(top level)", "the spec must be a mapping of keys", "see README", source=source
        )
    payload = dict(data)
    if base_dir is not None:
        payload["base_dir"] = base_dir
    try:
        return Spec.model_validate(payload)
    except ValidationError as err:
        first = err.errors()[0]
        key = ".".join(str(p) for p in first["loc"]) or "(top level)"
        fix = _FIXES.get(first["type"], "see the spec reference in README.md")
        if first["type"] == "extra_forbidden":
            fix = _suggest_key(first["loc"]) or fix
        raise SpecError(key, first["msg"], fix, source=source) from None


def _known_keys(loc: tuple[Any, ...]) -> list[str]:
    """The keys allowed beside an unknown one at ``loc`` (top level, output, a column)."""
    parent = loc[:-1]
    if not parent:
        return [f.alias or name for name, f in Spec.model_fields.items() if name != "base_dir"]
    if parent == ("output",):
        return [f.alias or name for name, f in OutputSpec.model_fields.items()]
    if len(parent) == 2 and parent[0] == "columns":
        return list(ColumnSpec.model_fields)
    if len(parent) == 2 and parent[0] == "join":
        return list(JoinSpec.model_fields)
    return []


def _suggest_key(loc: tuple[Any, ...]) -> str | None:
    close = difflib.get_close_matches(str(loc[-1]), _known_keys(loc), n=1)
    return f"did you mean {close[0]!r}?" if close else None


def load_spec(path: str | Path) -> Spec:
    """Read a YAML spec file; relative paths in it are resolved against its folder."""
    path = Path(path)
    if not path.is_file():
        raise SpecError(str(path), "the spec file does not exist", "check the path")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "(file)"
        raise SpecError(
            where, "the file is not valid YAML", "fix the YAML syntax", source=str(path)
        ) from None
    return spec_from_mapping(data or {}, source=str(path), base_dir=path.resolve().parent)
