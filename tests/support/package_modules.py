"""Import every module of anonsql, for tests that look at everything the package defines."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil

import anonsql

#: Modules whose imports need an optional extra that may be missing.
OPTIONAL = {"anonsql.engines.spark": "pyspark", "anonsql.dbt.python_model": "dbt"}


def import_every_module() -> None:
    """Import every module of the package but ``__main__`` (it runs the CLI), skipping those
    whose optional extra is not installed."""
    for module in pkgutil.walk_packages(anonsql.__path__, "anonsql."):
        if module.name == "anonsql.__main__":
            continue
        extra = next((e for m, e in OPTIONAL.items() if module.name.startswith(m)), None)
        if extra is not None and importlib.util.find_spec(extra) is None:
            continue
        importlib.import_module(module.name)
