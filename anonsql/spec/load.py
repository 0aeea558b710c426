"""Load a spec from YAML (or a mapping) with errors that name the file and the key."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from anonsql.errors import SpecError
from anonsql.spec.errors import spec_error
from anonsql.spec.model import ColumnSpec, JoinSpec, OutputSpec, Spec


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
        raise spec_error(err, known_keys=_known_keys, source=source) from None


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
