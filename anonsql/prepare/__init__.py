"""The prepare step: the run's working tables and the workspace describing them."""

from anonsql.prepare.cleanup import remove_dead_workspaces
from anonsql.prepare.prepare import prepare, prepared

__all__ = ["prepare", "prepared", "remove_dead_workspaces"]
