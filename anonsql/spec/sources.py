"""Sources named by file path: ``source: parquet:/data/visits`` instead of a table name.

A Spark job (``spark-submit``, a local master with no metastore) often has files, not catalog
tables. The engine registers the files as a relation of the schema ``anonsql_files`` (Spark: an
external table over the path, DuckDB: a view over ``read_parquet``/``read_csv``), named after
the file and a digest of its path, and the run reads that relation like any table; the
certificate names it. The files themselves are only read.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from anonsql.errors import SpecError
from anonsql.sql import TableName

#: Formats a path source may name (``delta`` needs the Delta Lake package on Spark).
FILE_FORMATS = ("parquet", "csv", "delta")
#: The schema file sources are registered in.
FILES_SCHEMA = "anonsql_files"

_FORM = re.compile(r"(?P<format>[a-z]+):(?P<path>.+)", re.DOTALL)
#: A URI (``s3://``, ``hdfs://``, ``abfss://``, ``dbfs:/``, ``file:/``): read by Spark, not
#: checked on this machine.
_URI = re.compile(r"[a-z][a-z0-9+.-]*:/", re.IGNORECASE)


@dataclass(frozen=True)
class FileSource:
    """A source read from files: their format and path (absolute, or a URI)."""

    format: str
    path: str

    @property
    def relation(self) -> TableName:
        """The relation the engine registers the files as (stable for a path)."""
        stem = re.sub(r"[^a-z0-9_]+", "_", Path(self.path.rstrip("/")).stem.lower()).strip("_")
        digest = hashlib.sha256(f"{self.format}:{self.path}".encode()).hexdigest()[:10]
        return TableName(f"{stem or 'file'}_{digest}", FILES_SCHEMA)


def file_source(text: str, base_dir: Path | None, key: str = "source") -> FileSource | None:
    """The file source ``text`` names (``format:path``), or None for a relation name. A
    relative path is read beside the spec; a local path must exist."""
    match = _FORM.fullmatch(text.strip())
    if match is None or text.lstrip().startswith('"'):
        return None
    fmt, path = match.group("format"), match.group("path").strip()
    if fmt not in FILE_FORMATS:
        raise SpecError(
            key,
            f"{fmt!r} is not a file format anonsql reads",
            f"write {' or '.join(f'{f}:/path' for f in FILE_FORMATS)}, or a table name",
        )
    if _URI.match(path):
        return FileSource(fmt, path)
    local = Path(path).expanduser()
    if not local.is_absolute() and base_dir is not None:
        local = base_dir / local
    if not local.exists():
        raise SpecError(
            key,
            f"the {fmt} path {local} does not exist",
            "give the path of an existing file or folder (relative paths are read beside the "
            "spec), or a URI the engine reads (s3://, hdfs://, ...)",
        )
    return FileSource(fmt, str(local.resolve()))
