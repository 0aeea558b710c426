"""Release layouts: the shape of what a run publishes, and what verifies it.

A layout turns an algorithm's decisions (the working ``rows`` and ``parts`` tables) into the
release's companions, creates the released relation(s), and declares the checks and row counts
that verify the release, the relation that class metrics measure, and its certificate fields.
Algorithms name their layout (``Algorithm.layout``); the pipeline's steps (stage, publish,
verify, measure, certify) run the shared work and ask the layout for the rest.

The class methods take only what a published release's certificate records, so the release
reader (``anonsql check``, ``metrics``) plans the same checks as the publish gate.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from anonsql.algorithms.base import Partitioning
from anonsql.privacy.base import PrivacyModel
from anonsql.privacy.check import PlannedCheck
from anonsql.release.names import OutputNames
from anonsql.resolve import Resolved
from anonsql.sql import TableName
from anonsql.workspace import Workspace

#: Companions every layout publishes and grants (the main relation aside).
SHARED_GRANTED = ("classes", "certificate", "metrics", "attributes", "hierarchy_nodes")


@dataclass(frozen=True)
class Layout(ABC):
    """Base of release shapes, bound to one run's resolved spec, workspace and partitioning."""

    #: The layout's name (what ``Algorithm.layout`` names).
    name: ClassVar[str]
    #: Companions copied from the run's working schema into the output schema.
    copied: ClassVar[tuple[str, ...]]
    #: Companions granted with the main relation (never the ones holding source values).
    granted: ClassVar[tuple[str, ...]]

    resolved: Resolved
    workspace: Workspace
    partitioning: Partitioning

    @property
    def qids(self) -> list[str]:
        return [d.column for d in self.workspace.dimensions]

    @abstractmethod
    def stage(self) -> None:
        """Build the layout's companions in the working schema."""

    @abstractmethod
    def create(self, names: OutputNames, kind: str) -> None:
        """Create the released relation(s) as ``names`` (a view or a table: ``kind``)."""

    @classmethod
    @abstractmethod
    def planned_checks(
        cls,
        names: OutputNames,
        qids: Sequence[str],
        models: Sequence[PrivacyModel],
        person: str | None,
    ) -> list[PlannedCheck]:
        """The privacy checks that verify a release of this layout."""

    def checks(self, names: OutputNames) -> list[PlannedCheck]:
        person = self.workspace.person.column if self.workspace.person else None
        return self.planned_checks(names, self.qids, self.workspace.models, person)

    @abstractmethod
    def expected_rows(self, names: OutputNames) -> dict[str, tuple[TableName, int]]:
        """What each released relation must hold: ``{what: (relation, count)}`` (e.g. every
        source row not suppressed), so no row is lost or invented."""

    @classmethod
    @abstractmethod
    def measured(cls, names: OutputNames) -> TableName:
        """The relation with one row per individual, which class metrics measure."""

    @abstractmethod
    def individuals(self) -> int:
        """Individuals of the source: rows, or persons."""

    def class_sensitive(self) -> list[str]:
        """Sensitive columns whose distinct values ``__classes`` counts."""
        return [s.column for s in self.resolved.sensitive]

    def certificate_fields(self) -> dict[str, Any]:
        return {}
