"""Exceptions raised by anonsql.

Every error a user can cause is an :class:`AnonsqlError`; its message names the problem, the
offending key or column, and the fix, and never contains data values from quasi-identifier or
sensitive columns::

    AnonsqlError
    ├── SpecError            the spec is malformed or contradicts the database (exit code 2)
    │   └── HierarchyError   a hierarchy file or builder is unusable
    ├── InfeasibleError      no anonymization of the data satisfies the privacy models (exit code 3)
    ├── VerificationError    the output failed its privacy re-check; nothing published (exit code 4)
    ├── EngineError          the database refused a statement (exit code 5)
    └── InterruptedRun       a signal ended the run; its message says whether the release was
                             published (exit code 130)
"""

from __future__ import annotations


class AnonsqlError(Exception):
    """Base class of every error anonsql raises on purpose."""

    exit_code = 1


class SpecError(AnonsqlError):
    """The spec is malformed or does not match the database catalog."""

    exit_code = 2

    def __init__(self, key: str, problem: str, fix: str, *, source: str | None = None) -> None:
        self.key = key
        self.problem = problem
        self.fix = fix
        self.source = source
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{key}: {problem}. Fix: {fix}")


class HierarchyError(SpecError):
    """A hierarchy file, table or builder cannot be used."""


class InfeasibleError(AnonsqlError):
    """The privacy models cannot hold on this data, even with the whole table as one class."""

    exit_code = 3


class VerificationError(AnonsqlError):
    """The anonymized output failed a privacy check; it was not published."""

    exit_code = 4

    def __init__(self, violations: dict[str, int]) -> None:
        self.violations = violations
        detail = ", ".join(f"{model}: {n} violating classes" for model, n in violations.items())
        super().__init__(f"verification failed ({detail}); the previous output was left intact")


class EngineError(AnonsqlError):
    """The database engine refused a statement anonsql generated."""

    exit_code = 5


class InterruptedRun(AnonsqlError):
    """A signal (SIGINT, SIGTERM) ended the run; its working tables were dropped. Nothing was
    published, unless ``published``: the signal came after the release's swap had committed
    (:mod:`anonsql.interrupts`)."""

    exit_code = 130

    def __init__(self, message: str, *, published: bool = False) -> None:
        self.published = published
        super().__init__(message)
