"""The stage step: the release's companions built in the working schema."""

from anonsql.stage.stage import Staged, stage

__all__ = ["Staged", "stage"]
