"""The prepare step: the run's working schema and tables built from the resolved spec and its
hierarchies (the :class:`~anonsql.algorithms.workspace.Workspace` the algorithm partitions), and
the cleanup of working schemas that killed runs left behind."""

from anonsql.prepare.cleanup import remove_dead_workspaces
from anonsql.prepare.prepare import prepare, prepared

__all__ = ["prepare", "prepared", "remove_dead_workspaces"]
