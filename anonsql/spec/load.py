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
            "(top level)", "the spec must be a mapping of keys", "see docs/spec.md", source=source
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


class DuplicateKeyError(yaml.YAMLError):
    """A YAML mapping names a key twice (PyYAML keeps the last one silently)."""

    def __init__(self, key: str, line: int) -> None:
        super().__init__(f"duplicate key {key!r} on line {line}")
        self.key = key
        self.line = line


class _UniqueKeyLoader(yaml.SafeLoader):
    """A safe loader that refuses duplicate keys."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise DuplicateKeyError(str(key), key_node.start_mark.line + 1)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def load_yaml(text: str) -> Any:
    """Parse YAML text safely, refusing duplicate keys."""
    return yaml.load(text, Loader=_UniqueKeyLoader)


def load_spec(path: str | Path, *, defaults: Mapping[str, Any] | None = None) -> Spec:
    """Read a YAML spec file; relative paths in it are resolved against its folder. Keys of
    ``defaults`` apply where the file does not give them (``anonsql.spark.anonymize``: the
    source is the data given)."""
    path = Path(path)
    if not path.is_file():
        raise SpecError(str(path), "the spec file does not exist", "check the path")
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as err:
        raise SpecError(
            f"byte {err.start}",
            "the file is not UTF-8 text",
            "save the spec as UTF-8",
            source=str(path),
        ) from None
    try:
        data = load_yaml(text)
    except DuplicateKeyError as err:
        raise SpecError(
            f"line {err.line}",
            f"the key {err.key!r} appears twice in one mapping",
            "keep one of them",
            source=str(path),
        ) from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else "(file)"
        raise SpecError(
            where, "the file is not valid YAML", "fix the YAML syntax", source=str(path)
        ) from None
    if defaults and isinstance(data, Mapping):
        data = {**defaults, **data}
    return spec_from_mapping(data or {}, source=str(path), base_dir=path.resolve().parent)
