"""The versioned run's hooks into the pipeline: the layout that publishes versions, and the
private summary row of a release that is not versioned."""

from __future__ import annotations

import dataclasses
import datetime as dt

from anonsql.publish.publish import BuiltRelease
from anonsql.stage import Staged
from anonsql.versions.checksum import checksum
from anonsql.versions.delta import Versioning, previous_version, spec_sha256
from anonsql.versions.layout import VersionedRecordLayout


def staged_for(staged: Staged, versioning: Versioning) -> Staged:
    """The staged release, published as versions when the run is versioned."""
    if versioning.delta is None:
        return staged
    if versioning.delta.history_exists and staged.workspace.counted is not None:
        # a later version's batch is the source's new rows: its counted rows are not the
        # source's, which the recovery measure reads
        staged = dataclasses.replace(
            staged, workspace=dataclasses.replace(staged.workspace, counted=None)
        )
    layout = staged.layout
    versioned = VersionedRecordLayout(
        layout.resolved, layout.workspace, layout.partitioning, layout.facts, versioning.delta
    )
    return dataclasses.replace(staged, layout=versioned)


def record_unversioned(release: BuiltRelease, versioning: Versioning) -> None:
    """A release that is not versioned keeps its summary row (and the source's checksum, which
    ``status`` compares) privately; its history, if an earlier release had one, is dropped."""
    if versioning.delta is not None:
        return
    e, names = release.engine, versioning.checksum_names
    previous = None if versioning.replaced else previous_version(e, names)
    e.drop_existing([n for n in names.kept() if n != names.versions])
    if previous is None:
        e.drop_existing([names.versions])
        e.run("versions/versions_create", target=names.versions)
    e.run(
        "versions/versions_insert",
        target=names.versions,
        values=[
            (previous.version + 1) if previous else 1,
            dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            None,
            None,
            None,
            None,
            None,
            checksum(e, release.built.source),
            spec_sha256(versioning.resolved),
            release.staged.workspace.run_id,
        ],
    )
