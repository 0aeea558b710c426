"""The read side of a published release: the one reader of what it holds (``check``,
``metrics``, reports and dbt read it through :func:`read_release`) and its status against the
source now (:func:`release_status`); :mod:`anonsql.release.export` writes it, alone, to a new
DuckDB file or Parquet folder."""

from anonsql.release.reader import (
    PublishedRelease,
    counted,
    counts_facts,
    is_published,
    person_facts,
    read_certificate,
    read_release,
)
from anonsql.release.status import ReleaseStatus, release_status

__all__ = [
    "PublishedRelease",
    "ReleaseStatus",
    "counted",
    "counts_facts",
    "is_published",
    "person_facts",
    "read_certificate",
    "read_release",
    "release_status",
]
