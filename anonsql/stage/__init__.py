"""The stage step: the release's companions built in the working schema."""

from anonsql.stage.stage import Staged, exposure_columns, stage

__all__ = ["Staged", "exposure_columns", "stage"]
