"""The orchestration of a run (:func:`anonsql.pipeline.run.run`)."""

from anonsql.pipeline.run import run

__all__ = ["run"]
