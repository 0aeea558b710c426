"""Hierarchy files: ARX's CSV level tables and the ragged research format, read by one reader.

Both formats hold one line per leaf value, ``leaf;parent;...;root``. ARX pads short branches to
one height by repeating the leaf (``Private;Private;*``); the research files simply stop earlier
(``Private;*``). The reader accepts both, since :class:`Hierarchy` collapses consecutive repeats.
Fields follow CSV quoting, so a label may hold the delimiter or quotes when it is quoted.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator, Sequence
from pathlib import Path

from anonsql.errors import HierarchyError
from anonsql.hierarchies.model import Hierarchy

#: The delimiters a hierarchy file may use.
DELIMITERS = (";", ",")


def hierarchy_key(name: str) -> str:
    """The spec key a hierarchy of column ``name`` is declared under."""
    return f"columns.{name}.hierarchy"


def new_hierarchy(
    paths: Sequence[Sequence[str]],
    *,
    name: str,
    origin: str,
    lines: Sequence[int] | None = None,
) -> Hierarchy:
    """Build a :class:`Hierarchy`, reporting a malformed one under the column's spec key."""
    try:
        return Hierarchy(paths, name=name, origin=origin, lines=lines)
    except HierarchyError as err:
        raise HierarchyError(hierarchy_key(name), err.problem, err.fix, source=err.source) from err


def read_hierarchy(path: str | Path, *, name: str, delimiter: str = ";") -> Hierarchy:
    """Read a hierarchy file (ARX CSV or ragged, root last) for column ``name``.

    Blank lines are skipped, labels are kept exactly (no whitespace stripping) and trailing
    empty fields (a line ending in the delimiter) are ignored. Errors name the file and the line.
    """
    key = hierarchy_key(name)
    if delimiter not in DELIMITERS:
        raise HierarchyError(
            key,
            f"the delimiter {delimiter!r} is not supported",
            f"use one of {', '.join(repr(d) for d in DELIMITERS)}",
        )
    file = Path(path)
    paths: list[list[str]] = []
    lines: list[int] = []
    try:
        for line, labels in _records(file, delimiter, key):
            paths.append(labels)
            lines.append(line)
    except FileNotFoundError:
        raise HierarchyError(
            key,
            f"hierarchy file {file} does not exist",
            "check the path (relative paths are resolved beside the spec)",
        ) from None
    except (OSError, UnicodeDecodeError) as err:
        raise HierarchyError(
            key,
            f"hierarchy file {file} cannot be read ({type(err).__name__})",
            "give a readable UTF-8 text file, one line per leaf value",
        ) from None
    return new_hierarchy(paths, name=name, origin=str(file), lines=lines)


def _records(file: Path, delimiter: str, key: str) -> Iterator[tuple[int, list[str]]]:
    """(first line number, labels) of every non-blank record of a hierarchy file."""
    with file.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle, delimiter=delimiter, strict=True)
        end = 0
        while True:
            start = end + 1
            try:
                row = next(reader, None)
            except csv.Error as err:
                problem = f"{file} line {reader.line_num}: malformed CSV ({err})"
                fix = "quote labels that hold the delimiter, doubling inner quotes"
                raise HierarchyError(key, problem, fix) from None
            if row is None:
                return
            end = reader.line_num
            labels = _labels(row)
            if not labels:
                continue
            if "" in labels:
                raise HierarchyError(
                    key,
                    f"{file} line {start}: an empty label",
                    "give every level a label, root last",
                )
            yield start, labels


def _labels(row: list[str]) -> list[str]:
    # Labels are kept exactly (no stripping): they must equal the data's values as text.
    labels = [field.rstrip("\r") for field in row]
    if all(not label.strip() for label in labels):
        return []
    while labels and labels[-1] == "":
        labels.pop()
    return labels


def write_arx_csv(hierarchy: Hierarchy, path: str | Path, *, delimiter: str = ";") -> None:
    """Write ``hierarchy`` as an ARX level table: one line per leaf, all of equal height.

    Short branches are padded by repeating the leaf, as ARX does, so reading the file back gives
    the same hierarchy. Labels holding the delimiter, quotes or line breaks are quoted.
    """
    width = hierarchy.height + 1
    with Path(path).open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter=delimiter, lineterminator="\n")
        for leaf in hierarchy.leaves:
            labels = hierarchy.path(leaf)
            writer.writerow([leaf] * (width - len(labels)) + labels)
