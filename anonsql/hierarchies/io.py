"""Hierarchy files: ARX's CSV level tables and the ragged research format, read by one reader.

Both formats hold one line per leaf value, ``leaf;parent;...;root``. ARX pads short branches to
one height by repeating the leaf (``Private;Private;*``); the research files simply stop earlier
(``Private;*``). The reader accepts both, since :class:`Hierarchy` collapses consecutive repeats.
Fields follow CSV quoting, so a label may hold the delimiter or quotes when it is quoted.
A file whose name ends in ``.gz`` is gzip-compressed text and is read decompressed.
"""

from __future__ import annotations

import csv
import gzip
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

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
    A name ending in ``.gz`` (any case) is read through gzip, so large hierarchies can ship
    compressed.
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
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as err:
        # gzip reports a bad or truncated stream as BadGzipFile (an OSError), EOFError or
        # zlib.error; all mean the file cannot be read as a hierarchy
        expected = (
            "a complete gzip file of UTF-8 text" if is_gzip(file) else "a readable UTF-8 text file"
        )
        reason = type(err).__name__
        if isinstance(err, zlib.error):
            reason = "corrupt gzip data"
        elif isinstance(err, EOFError):
            reason = "truncated gzip data"
        raise HierarchyError(
            key,
            f"hierarchy file {file} cannot be read ({reason})",
            f"give {expected}, one line per leaf value",
        ) from None
    return new_hierarchy(paths, name=name, origin=str(file), lines=lines)


def is_gzip(path: str | Path) -> bool:
    """Whether a hierarchy file is read as gzip-compressed (its name ends in ``.gz``)."""
    return Path(path).suffix.lower() == ".gz"


def _open_text(file: Path) -> IO[str]:
    if is_gzip(file):
        return gzip.open(file, "rt", encoding="utf-8-sig", newline="")
    return file.open(encoding="utf-8-sig", newline="")


def _records(file: Path, delimiter: str, key: str) -> Iterator[tuple[int, list[str]]]:
    """(first line number, labels) of every non-blank record of a hierarchy file."""
    with _open_text(file) as handle:
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
