"""What every algorithm enforcing k-map shares: which population table the models read, its
columns checked, and the working table its classes' persons are left in.

k-map (Sweeney 2001; El Emam & Dankar, JAMIA 2008) needs each class's persons in a population
table. How an algorithm counts them is its own (full-domain rolls a frequency table up the
lattice, Mondrian counts each part's box); what the release does with the counts is the record
layout's (the ``population`` companion built from :data:`POPULATION_CLASSES`).
"""

from __future__ import annotations

from collections.abc import Sequence

from anonsql.algorithms.workspace import Workspace
from anonsql.errors import SpecError
from anonsql.privacy.base import PrivacyModel
from anonsql.sql import TableName

#: The working table of the release's population count per class (``pid``, ``n``), which the
#: record layout turns into the ``population`` companion.
POPULATION_CLASSES = "population_classes"


def population_source(models: Sequence[PrivacyModel]) -> tuple[TableName, str | None] | None:
    """The population table (and count column) the models read, if any of them requires one.

    A model requiring ``population`` names its table in the parameter ``population``
    (``schema.table``) and the optional count column in ``count``. Models naming different
    tables are refused: a class has one population count.
    """
    found: set[tuple[TableName, str | None]] = set()
    for model in models:
        if "population" not in model.requires:
            continue
        table = getattr(model.params, "population", None)
        if not isinstance(table, str):
            raise SpecError(
                f"privacy.{model.name}",
                "requires a population but names no population table",
                "give the model a population: schema.table parameter",
            )
        found.add((TableName.parse(table), getattr(model.params, "count", None)))
    if len(found) > 1:
        raise SpecError(
            "privacy",
            "the models name different population tables (or count columns)",
            "name one population table in every model that reads it",
        )
    return next(iter(found)) if found else None


def require_population_columns(workspace: Workspace, source: TableName, count: str | None) -> None:
    """Refuse a population table that does not exist or lacks a quasi-identifier (or the count
    column) of the spec."""
    columns = workspace.engine.columns(source)
    if columns is None:
        raise SpecError(
            "privacy.k_map.population",
            f"{source} does not exist",
            "name an existing table holding the population",
        )
    present = {c.name for c in columns}
    needed = [d.column for d in workspace.dimensions] + ([count] if count else [])
    missing = [c for c in needed if c not in present]
    if missing:
        raise SpecError(
            "privacy.k_map.population",
            f"{source} lacks the column(s) {', '.join(missing)}",
            "give the population table the quasi-identifiers of the source (and the count column)",
        )


__all__ = ["POPULATION_CLASSES", "population_source", "require_population_columns"]
