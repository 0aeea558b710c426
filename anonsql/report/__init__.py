"""The report step: a run's result and its summary."""

from anonsql.report.report import RunResult, report

__all__ = ["RunResult", "report"]
