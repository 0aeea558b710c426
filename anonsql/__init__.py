"""anonsql: anonymize warehouse tables where they live.

The public API, importable from here (``import anonsql; anonsql.run("adult.yaml")``)::

    run, plan, check, check_output, status, cleanup                      anonsql.api
    recompute_metrics, query_accuracy                                     anonsql.api
    write_report, render_report                                           anonsql.report.html
    init_spec                                                             anonsql.init
    connect_database, open_engine, as_spec                                anonsql.api
    Spec, RunResult, CheckResult, ReleaseStatus, Engine, TableName        result and input types
    AnonsqlError and its subclasses SpecError, HierarchyError,            anonsql.errors
    EngineError, InfeasibleError, VerificationError, InterruptedRun

Names load on first use, so ``import anonsql`` stays cheap (no database driver is imported).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from anonsql.api import (
        as_spec,
        check,
        check_output,
        cleanup,
        connect_database,
        open_engine,
        plan,
        query_accuracy,
        recompute_metrics,
        run,
        status,
    )
    from anonsql.engines import Engine
    from anonsql.errors import (
        AnonsqlError,
        EngineError,
        HierarchyError,
        InfeasibleError,
        InterruptedRun,
        SpecError,
        VerificationError,
    )
    from anonsql.init import init_spec
    from anonsql.privacy.check import CheckResult
    from anonsql.release import ReleaseStatus
    from anonsql.report import RunResult
    from anonsql.report.html import render_report, write_report
    from anonsql.spec import Spec
    from anonsql.sql import TableName

_WHERE = {
    **dict.fromkeys(
        (
            "as_spec",
            "check",
            "check_output",
            "cleanup",
            "connect_database",
            "open_engine",
            "plan",
            "query_accuracy",
            "recompute_metrics",
            "run",
            "status",
        ),
        "anonsql.api",
    ),
    **dict.fromkeys(
        (
            "AnonsqlError",
            "EngineError",
            "HierarchyError",
            "InfeasibleError",
            "InterruptedRun",
            "SpecError",
            "VerificationError",
        ),
        "anonsql.errors",
    ),
    "CheckResult": "anonsql.privacy.check",
    "Engine": "anonsql.engines",
    "ReleaseStatus": "anonsql.release",
    "RunResult": "anonsql.report",
    "Spec": "anonsql.spec",
    "TableName": "anonsql.sql",
    "init_spec": "anonsql.init",
    "render_report": "anonsql.report.html",
    "write_report": "anonsql.report.html",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'anonsql' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


__all__ = [
    "AnonsqlError",
    "CheckResult",
    "Engine",
    "EngineError",
    "HierarchyError",
    "InfeasibleError",
    "InterruptedRun",
    "ReleaseStatus",
    "RunResult",
    "Spec",
    "SpecError",
    "TableName",
    "VerificationError",
    "__version__",
    "as_spec",
    "check",
    "check_output",
    "cleanup",
    "connect_database",
    "init_spec",
    "open_engine",
    "plan",
    "query_accuracy",
    "recompute_metrics",
    "render_report",
    "run",
    "status",
    "write_report",
]
