"""k-map: every class of the sample matches at least ``k`` persons of the population.

L. Sweeney, "Computational disclosure control: a primer on data privacy protection", PhD thesis,
MIT 2001; El Emam & Dankar, "Protecting privacy using k-anonymity", JAMIA 15(5), 2008; ARX's
``KMap`` with a population table. A journalist who knows a person is in the population (not
necessarily in the sample) re-identifies them with probability at most ``1/k``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from pydantic import Field

from anonsql.arrays import BoolArray
from anonsql.errors import AnonsqlError, SpecError
from anonsql.privacy.base import POPULATION_PERSONS, Params, PartStats, PrivacyModel
from anonsql.sql import TableName


class KMapParams(Params):
    k: int = Field(description="minimum number of persons of the population in every class")
    population: str = Field(description="schema.table of the population, with the sample's QIDs")
    count: str | None = Field(
        default=None, description="column counting the persons of a population row"
    )


class KMap(PrivacyModel[KMapParams]):
    """Every class of rows sharing QID values matches at least ``k`` persons of the population.

    The population table holds the same QID columns, at the same generalization as the checked
    relation (values are matched as they are, NULL to NULL), and one row per person or a
    ``count`` column. The predicate reads each part's population size
    (:attr:`PartStats.population`): an algorithm must generalize the population along with the
    sample to supply it. ``algorithm: full_domain`` does (it publishes the population generalized
    as the release, which :meth:`on_release` checks against:
    :mod:`anonsql.algorithms.full_domain.population`), and ``algorithm: mondrian`` counts the
    persons each part's published box matches (:mod:`anonsql.algorithms.mondrian.population`);
    the others refuse the model, which serves ``anonsql check`` on any relation.
    """

    # no dbt test: the population estimate is computed in Python (or read from a population
    # table); `anonsql check` checks it
    dbt_test = False

    name = "k_map"
    requires = frozenset({"population"})
    monotonic_with_suppression = True
    reference = (
        "L. Sweeney, Computational disclosure control, MIT 2001; "
        "K. El Emam, F. Dankar, Protecting privacy using k-anonymity, JAMIA 15(5), 2008"
    )
    #: ``population`` names a table the conformance suite builds (the checked rows and more).
    examples = (
        {"k": 1, "population": "main.population"},
        {"k": 3, "population": "main.population"},
        {"k": 5, "population": "main.population"},
    )

    @property
    def k(self) -> int:
        return self.params.k

    @property
    def population_table(self) -> TableName:
        return TableName.parse(self.params.population)

    @property
    def count_column(self) -> str | None:
        return self.params.count

    def check_params(self, key: str) -> None:
        if self.k < 1:
            raise SpecError(f"{key}.k", f"k = {self.k} is below 1", "use k >= 1")
        try:
            TableName.parse(self.params.population)
        except ValueError:
            raise SpecError(
                f"{key}.population",
                "is not a table name of the form schema.table",
                "name the population table as schema.table",
            ) from None

    def on_release(self, companion: Callable[[str], TableName]) -> KMap:
        """k-map on a release: against the release's generalized population (its private
        ``population`` companion, persons counted in its ``POPULATION_PERSONS`` column)."""
        params = self.params.model_copy(
            update={"population": companion("population").sql(), "count": POPULATION_PERSONS}
        )
        return KMap(params)

    def holds(self, parts: PartStats) -> BoolArray:
        if parts.population is None:
            raise AnonsqlError(
                f"{self.describe()}: the search gave no population sizes of its parts. "
                "Fix: fill PartStats.population (a bug in the caller, not in the data)"
            )
        return np.asarray(parts.population, np.float64) >= self.k

    def template_params(self) -> dict[str, Any]:
        return {"population": self.population_table, "count": self.count_column, "k": self.k}
