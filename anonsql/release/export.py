"""``anonsql export``: a published release, alone, in a new DuckDB file or Parquet folder.

A DuckDB release lives in the file that holds its source and the private schema beside it:
"never granted" means nothing once that file is handed over. The export holds only what
analysts read of the release, under the same names: the main relation, materialized as a table
of the rows it shows now (for a versioned release, the certified version; for a live view,
the rows its guard shows), and its public companions (``__classes``, ``__certificate``,
``__metrics``, and those of the release's layout: ``__by_person`` and ``__fingerprints`` of a
1:M release, the buckets of a personalized one); never a companion of the private schema
(:data:`anonsql.spec.output.PRIVATE`), the source or the recoding.

The export is written beside its target under a temporary name and renamed into place once
complete: an error or a signal leaves nothing behind, and an existing target is replaced only
when asked.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.release.reader import read_release
from anonsql.spec.output import COMPANIONS, PRIVATE, OutputNames
from anonsql.sql import TableName

#: What an export is written as: a DuckDB file, or a folder of Parquet files.
FORMATS = ("duckdb", "parquet")


@dataclass(frozen=True)
class ExportedRelation:
    """One relation of an export: its name in the release, where it went, its rows."""

    relation: TableName
    #: The table in the DuckDB file (``anon.adult``) or the Parquet file (``adult.parquet``).
    written_as: str
    rows: int


@dataclass(frozen=True)
class ExportedRelease:
    """What :func:`export_release` wrote."""

    output: TableName
    path: Path
    format: str
    relations: tuple[ExportedRelation, ...]

    def summary(self) -> dict[str, Any]:
        """The export as JSON (``anonsql export --json``)."""
        return {
            "output": str(self.output),
            "path": str(self.path),
            "format": self.format,
            "relations": {r.written_as: r.rows for r in self.relations},
        }


def public_relations(engine: Engine, names: OutputNames) -> list[TableName]:
    """The relations analysts read of a release, as it stands in ``engine``: the main relation
    and the public companions it has (companions of other layouts do not exist)."""
    companions = [names.companion(kind) for kind in COMPANIONS if kind not in PRIVATE]
    return [names.main, *(r for r in companions if engine.exists(r))]


def export_release(
    engine: Engine,
    output: TableName,
    to: Path,
    *,
    format: str = "duckdb",
    replace: bool = False,
) -> ExportedRelease:
    """Write the release published as ``output`` to ``to``: a new DuckDB file (``format``
    ``duckdb``: the relations under their names, ``anon.adult``) or a new folder of Parquet
    files (``parquet``: ``adult.parquet``, ``adult__classes.parquet``, ...). Refused when
    ``to`` exists (unless ``replace``), when ``output`` is not a verified release, or when
    ``to`` is the database the release is read from."""
    if format not in FORMATS:
        raise SpecError("--format", f"{format!r} is not an export format", "use duckdb or parquet")
    release = read_release(engine, output, fix="publish it with `anonsql run` first")
    if release.certificate.get("verified") is not True:
        raise SpecError(
            "output",
            f"{output}'s certificate does not say it was verified",
            "publish it again with `anonsql run`",
        )
    target = _target(engine, to, replace)
    relations = public_relations(engine, release.names)
    writer = _WRITERS[format]
    with _written_atomically(target, replace) as temporary:
        written = writer(engine, relations, temporary)
    return ExportedRelease(output, target, format, tuple(written))


def _target(engine: Engine, to: Path, replace: bool) -> Path:
    target = to.expanduser().absolute()
    if not target.parent.is_dir():
        raise SpecError("--to", f"the folder of {target} does not exist", "create it first")
    source = Path(getattr(engine, "database", "")) if engine.database_is_path else None
    if source is not None and source.exists() and target.resolve() == source.resolve():
        raise SpecError(
            "--to",
            f"{target} is the database the release is read from",
            "give a new file: the export holds the release alone",
        )
    if (target.exists() or target.is_symlink()) and not replace:
        raise SpecError("--to", f"{target} exists", "give a new path, or --replace to replace it")
    return target


@contextlib.contextmanager
def _written_atomically(target: Path, replace: bool) -> Iterator[Path]:
    """A temporary path beside ``target``, renamed to it when the block completes; removed
    (with anything written to it) when the block fails or is interrupted."""
    token = uuid.uuid4().hex[:12]
    temporary = target.with_name(f".{target.name}.anonsql-export-{token}")
    old = target.with_name(f".{target.name}.anonsql-replaced-{token}")
    try:
        yield temporary
        if replace and (target.exists() or target.is_symlink()):
            os.replace(target, old)
        os.replace(temporary, target)
    except BaseException:
        _remove(temporary)
        if old.exists() and not target.exists():
            os.replace(old, target)  # the rename of the new export failed: keep the old one
        raise
    finally:
        _remove(temporary.with_name(temporary.name + ".wal"))
    _remove(old)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def _read(engine: Engine, relation: TableName) -> pa.Table:
    return engine.query_arrow("select_all", relation=relation)


def _to_duckdb(engine: Engine, relations: list[TableName], path: Path) -> list[ExportedRelation]:
    from anonsql.engines import DuckDBEngine

    written = []
    with DuckDBEngine(path) as exported:
        for relation in relations:
            data = _read(engine, relation)
            name = TableName(relation.name, relation.schema or "main")
            exported.ensure_schema(name.schema or "main")
            exported.load_arrow(name, data)
            written.append(ExportedRelation(relation, str(name), data.num_rows))
    return written


def _to_parquet(engine: Engine, relations: list[TableName], path: Path) -> list[ExportedRelation]:
    import pyarrow.parquet as pq

    path.mkdir()
    written = []
    for relation in relations:
        data = _read(engine, relation)
        file = f"{relation.name}.parquet"
        pq.write_table(data, path / file)
        written.append(ExportedRelation(relation, file, data.num_rows))
    return written


_WRITERS: Mapping[str, Callable[[Engine, list[TableName], Path], list[ExportedRelation]]] = {
    "duckdb": _to_duckdb,
    "parquet": _to_parquet,
}
