"""The prepare step: the run's working tables and the workspace describing them."""

from anonsql.prepare.prepare import prepare, prepared

__all__ = ["prepare", "prepared"]
