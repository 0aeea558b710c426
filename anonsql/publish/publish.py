"""The publish step: the staged release copied and created under the names the swap gives
(the final names inside a transaction, or versioned names), not yet verified."""

from __future__ import annotations

from dataclasses import dataclass

from anonsql.engines import Engine
from anonsql.layouts import Layout
from anonsql.release.names import OutputNames
from anonsql.stage import Staged


@dataclass(frozen=True)
class Release:
    """A release created in the database, before it is verified and certified.

    ``names`` are the names analysts will query; ``built`` the names it was created under
    (the same inside a transaction; versioned where the engine has no transactional DDL).
    """

    staged: Staged
    names: OutputNames
    built: OutputNames
    #: ``VIEW`` or ``TABLE``.
    kind: str

    @property
    def engine(self) -> Engine:
        return self.staged.workspace.engine

    @property
    def layout(self) -> Layout:
        return self.staged.layout


def publish(staged: Staged, built: OutputNames) -> Release:
    """Copy the staged companions and create the released relations as ``built``."""
    ws, layout = staged.workspace, staged.layout
    e = ws.engine
    for companion in layout.copied:
        e.run("publish/copy_table", target=built.companion(companion), source=ws.work(companion))
        e.analyze(built.companion(companion))
    kind = "VIEW" if staged.resolved.spec.output.materialize == "view" else "TABLE"
    layout.create(built, kind)
    names = OutputNames(staged.resolved.output, staged.resolved.spec.output.private_schema)
    return Release(staged=staged, names=names, built=built, kind=kind)
