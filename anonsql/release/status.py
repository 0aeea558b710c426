"""The status of a published release against its source now: what analysts can query, what the
guard withholds, what the release does not cover, and whether the source changed since the
release was certified (a pipeline gate: ``anonsql status``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from anonsql.engines import Engine
from anonsql.layouts import LAYOUTS
from anonsql.release.reader import PublishedRelease, read_release
from anonsql.spec.output import OutputNames
from anonsql.sql import TableName


@dataclass(frozen=True)
class ReleaseStatus:
    """A release's rows now against the rows it was certified with.

    ``withheld_rows`` are released rows the live view's guard hides because their class (or
    person, or the whole release) now violates a certified model; ``uncovered_rows`` are source
    rows the release never saw (a new quasi-identifier vector, person or item), which it does
    not show either. ``stale`` says the source changed since certification. ``recovered_rows``
    and ``refined_violations`` are the linkage measures over the live source
    (:func:`~anonsql.measure.linkage.release_linkage`): rows whose generalized
    quasi-identifier the columns published unchanged now give away, and violations of the
    models on the classes the insensitive ones refine (``exposed``: either is not 0).
    """

    output: str
    materialize: str
    certified_source_rows: int
    certified_rows: int
    source_rows: int
    released_rows: int
    published_rows: int
    withheld_rows: int
    uncovered_rows: int
    suppressed_rows: int
    stale: bool
    recovered_rows: int = 0
    refined_violations: int = 0
    #: Versioned releases (:mod:`anonsql.versions`): the current version, the source rows it
    #: holds back (new since it, or not placed in a class by it) and the deleted rows it
    #: still serves; None for a live view or a release that is not versioned.
    version: int | None = None
    new_rows: int | None = None
    held_rows: int | None = None
    pending_deletions: int | None = None

    @property
    def exposed(self) -> bool:
        """Whether the published columns now undo what the release certified."""
        return bool(self.recovered_rows or self.refined_violations)

    @property
    def hidden_rows(self) -> int:
        """Source rows analysts cannot see beyond those suppressed when certified."""
        return self.withheld_rows + self.uncovered_rows

    @property
    def hidden_share(self) -> float:
        return self.hidden_rows / self.source_rows if self.source_rows else 0.0

    def summary(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "hidden_rows": self.hidden_rows,
            "hidden_share": self.hidden_share,
            "exposed": self.exposed,
        }


def release_status(engine: Engine, output: TableName) -> ReleaseStatus:
    """The status of the release published as ``output``."""
    release = read_release(
        engine, output, fix="give the name of a relation published by `anonsql run`"
    )
    return status_of(engine, release)


def status_of(engine: Engine, release: PublishedRelease) -> ReleaseStatus:
    # the measure step reads releases too: imported here, not at the top
    from anonsql.measure.linkage import release_linkage
    from anonsql.versions.checksum import checksum
    from anonsql.versions.status import certified_checksum, held_back

    names: OutputNames = release.names
    published = engine.count_rows(names.main)
    versions = held_back(engine, names)
    if versions is not None:
        return ReleaseStatus(
            output=str(names.main),
            materialize=str(release.certificate.get("materialize")),
            certified_source_rows=release.source_rows,
            certified_rows=int(release.certificate["published_rows"]),
            source_rows=engine.count_rows(names.source),
            released_rows=published,
            published_rows=published,
            withheld_rows=0,
            uncovered_rows=versions.new_rows + versions.held_rows,
            suppressed_rows=0,
            stale=versions.stale,
            version=versions.version,
            new_rows=versions.new_rows,
            held_rows=versions.held_rows,
            pending_deletions=versions.pending_deletions,
        )
    coverage = LAYOUTS.get(release.layout).coverage(engine, release)
    released = engine.count_rows(names.released)
    view = release.certificate.get("materialize") == "live"
    certified = certified_checksum(engine, names)
    stale = certified is None or checksum(engine, names.source) != certified
    linkage = release_linkage(engine, release)
    return ReleaseStatus(
        output=str(names.main),
        materialize=str(release.certificate.get("materialize")),
        certified_source_rows=release.source_rows,
        certified_rows=int(release.certificate["published_rows"]),
        source_rows=coverage.source_rows,
        released_rows=released,
        published_rows=published,
        withheld_rows=max(released - published, 0) if view else 0,
        uncovered_rows=coverage.source_rows - coverage.covered_rows,
        suppressed_rows=coverage.suppressed_rows,
        stale=stale,
        recovered_rows=sum(linkage.recovered.values()),
        refined_violations=sum(linkage.refined.values()),
    )
