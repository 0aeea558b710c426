"""Import every module of anonsql, for tests that look at everything the package defines."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Iterable

import anonsql

#: Modules whose imports need an optional extra that may be missing.
OPTIONAL = {"anonsql.engines.spark": "pyspark", "anonsql.dbt.python_model": "dbt"}


def _missing_extra(name: str) -> bool:
    extra = next((e for m, e in OPTIONAL.items() if name.startswith(m)), None)
    return extra is not None and importlib.util.find_spec(extra) is None


def _walk(path: Iterable[str], prefix: str) -> None:
    # pkgutil.walk_packages imports a package before it can list its modules, so an optional
    # package (engines/spark) would be imported, and fail, before it could be skipped
    for module in pkgutil.iter_modules(path, prefix):
        if module.name == "anonsql.__main__" or _missing_extra(module.name):
            continue
        imported = importlib.import_module(module.name)
        if module.ispkg:
            _walk(imported.__path__, module.name + ".")


def import_every_module() -> None:
    """Import every module of the package but ``__main__`` (it runs the CLI), skipping those
    whose optional extra is not installed."""
    _walk(anonsql.__path__, "anonsql.")
