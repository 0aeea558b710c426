"""Privacy models for 1:M data, where one person owns many rows (Gong, Luo, Yang, Ni, Li,
"Anonymizing 1:M microdata with high utility", Knowledge-Based Systems 115, 2017).

Counting rows is false privacy when a person has several: a class of k rows may hold one
person. These models count **persons**:

* ``person_k_anonymity``: every class (persons sharing generalized quasi-identifiers) holds at
  least ``k`` persons;
* ``fingerprint_k_anonymity`` (Definition 3): a person's *SA fingerprint* is the set of their
  distinct sensitive items; every fingerprint bucket (persons sharing a fingerprint) holds at
  least ``k`` persons, so a fingerprint or any fragment of it points to ``k`` candidates;
* ``fingerprint_l_diversity`` (Definition 4, in the paper's frequency form): in every class no
  fingerprint accounts for more than ``1/l`` of the persons;
* ``kl_diversity`` (Definition 5): both of the above. An adversary who knows either the target's
  quasi-identifiers or part of the fingerprint (not both) re-identifies with probability at
  most ``max(1/k, 1/l)`` (Theorem 1);
* ``person_consistency``: every row of a person is published under the same quasi-identifier
  values; otherwise the person's exact values leak (the inconsistency attack).

The violation queries take either rows of persons with a ``person`` column (fingerprints are
built in the engine as sorted arrays of distinct items) or one row per person whose sensitive
column holds the fingerprint as a list. In the search (one row per person, the sensitive code
being the person's fingerprint bucket) the predicates see histograms of bucket ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from pydantic import Field
from typing_extensions import TypeVar

from anonsql.arrays import BoolArray, IntArray
from anonsql.errors import SpecError
from anonsql.privacy.base import Bound, DataProfile, P, Params, PartStats, PrivacyModel
from anonsql.privacy.histograms import row_max, row_sums
from anonsql.privacy.sensitive import SensitiveParams

REFERENCE = (
    "Q. Gong, J. Luo, M. Yang, W. Ni, X.-B. Li, Anonymizing 1:M microdata with high utility, "
    "Knowledge-Based Systems 115, 2017"
)


class PersonModel(PrivacyModel[P]):
    """Base of the person-level models: they count persons, refuse suppression (the paper's
    algorithm never suppresses), and render ``privacy/<name>`` with the person column
    (:meth:`PrivacyModel.violations_sql`)."""

    counts_persons = True
    supports_suppression = False
    reference = REFERENCE


def _positive(key: str, name: str, value: int) -> None:
    if value < 1:
        raise SpecError(f"{key}.{name}", f"{name} = {value} is below 1", f"use {name} >= 1")


def _at_most_persons(key: str, name: str, value: int, profile: DataProfile) -> None:
    if value > profile.rows:
        raise SpecError(
            f"{key}.{name}",
            f"{name} = {value} exceeds the {profile.rows} persons of the source",
            f"use {name} <= {profile.rows}",
        )


class PersonKParams(Params):
    k: int = Field(description="minimum persons per class")


class PersonKAnonymity(PersonModel[PersonKParams]):
    """Every class holds at least ``k`` distinct persons (entity-level k-anonymity)."""

    name = "person_k_anonymity"
    examples = ({"k": 1}, {"k": 2}, {"k": 3})

    @property
    def k(self) -> int:
        return self.params.k

    def check_params(self, key: str) -> None:
        _positive(key, "k", self.k)

    def check_against(self, profile: DataProfile, key: str) -> None:
        _at_most_persons(key, "k", self.k, profile)

    def min_rows(self) -> int:
        return self.k

    def bounds(self) -> tuple[Bound, ...]:
        return (Bound("class_size", self.k),)

    def holds(self, parts: PartStats) -> BoolArray:
        return parts.counts >= self.k

    def template_params(self) -> dict[str, Any]:
        return {"k": self.k}


class PersonConsistencyParams(Params):
    pass


class PersonConsistency(PersonModel[PersonConsistencyParams]):
    """Every row of a person carries the same (generalized) quasi-identifiers: a person whose
    rows are generalized differently reveals the exact values (the paper's inconsistency
    attack). Needs the person column; in the search, with one row per person, it always holds."""

    name = "person_consistency"
    needs_person = True
    guard = "person"
    examples = ({},)

    def holds(self, parts: PartStats) -> BoolArray:
        return np.ones(len(parts), dtype=bool)


class FingerprintKParams(SensitiveParams):
    k: int = Field(description="minimum persons per SA-fingerprint bucket")


class FingerprintLParams(SensitiveParams):
    l: int = Field(description="no fingerprint above 1/l of a class's persons")


class FingerprintKLParams(SensitiveParams):
    k: int = Field(description="minimum persons per SA-fingerprint bucket")
    l: int = Field(description="no fingerprint above 1/l of a class's persons")


FP = TypeVar("FP", bound=SensitiveParams, default=SensitiveParams, covariant=True)


class FingerprintModel(PersonModel[FP]):
    """Base of the models over SA fingerprints (the sets of a person's sensitive items)."""

    needs_sensitive = True
    reads_fingerprints = True

    @property
    def column(self) -> str:
        return self.params.column

    @property
    def fingerprint_k(self) -> int:
        """The bucket size the fingerprints must reach (1 when the model sets none)."""
        return int(getattr(self.params, "k", 1))

    @property
    def ell(self) -> int:
        """The diversity the classes must reach (1 when the model sets none)."""
        return int(getattr(self.params, "l", 1))

    def check_params(self, key: str) -> None:
        for name in ("k", "l"):
            if hasattr(self.params, name):
                _positive(key, name, int(getattr(self.params, name)))

    def check_against(self, profile: DataProfile, key: str) -> None:
        for name in ("k", "l"):
            if hasattr(self.params, name):
                _at_most_persons(key, name, int(getattr(self.params, name)), profile)

    def min_rows(self) -> int:
        return self.ell

    def bounds(self) -> tuple[Bound, ...]:
        found = []
        if hasattr(self.params, "k"):
            found.append(Bound("fingerprint_bucket_size", self.fingerprint_k, self.column))
        if hasattr(self.params, "l"):
            found.append(Bound("fingerprint_share", self.ell, self.column))
        return tuple(found)

    def table_violations(self, global_counts: Mapping[str, IntArray]) -> int:
        """Fingerprint buckets (codes of the table's fingerprints) below k persons."""
        if not hasattr(self.params, "k"):
            return 0
        counts = global_counts[self.column]
        return int(((counts > 0) & (counts < self.fingerprint_k)).sum())

    def template_params(self) -> dict[str, Any]:
        return {"k": self.fingerprint_k, "l": self.ell}

    def diverse(self, parts: PartStats) -> BoolArray:
        """No bucket id (generalized fingerprint) above ``1/l`` of a part's persons."""
        histogram = parts.histograms[self.column]
        sizes = row_sums(histogram)
        return (sizes > 0) & (row_max(histogram) * self.ell <= sizes)


class FingerprintKAnonymity(FingerprintModel[FingerprintKParams]):
    """k-anonymity for SA fingerprints (Gong et al. 2017, Definition 3): every fingerprint
    bucket holds at least ``k`` persons. A property of the whole table, which the 1:M
    algorithm establishes before partitioning the quasi-identifiers and which no class split
    changes, so the search's predicate always holds; the SQL query checks it."""

    name = "fingerprint_k_anonymity"
    guard = "table"
    examples = ({"k": 1}, {"k": 2}, {"k": 3})

    def min_rows(self) -> int:
        return 1

    def holds(self, parts: PartStats) -> BoolArray:
        return np.ones(len(parts), dtype=bool)


class FingerprintLDiversity(FingerprintModel[FingerprintLParams]):
    """l-diversity for 1:M data (Gong et al. 2017, Definition 4): in every class, no SA
    fingerprint accounts for more than ``1/l`` of the persons (so a class holds at least ``l``
    persons and ``l`` distinct fingerprints)."""

    name = "fingerprint_l_diversity"
    examples = ({"l": 1}, {"l": 2}, {"l": 3})

    def holds(self, parts: PartStats) -> BoolArray:
        return self.diverse(parts)


class KLDiversity(FingerprintModel[FingerprintKLParams]):
    """(k, l)-diversity (Gong et al. 2017, Definition 5): fingerprint buckets of at least
    ``k`` persons, and classes where no fingerprint holds more than ``1/l`` of the persons."""

    name = "kl_diversity"
    # its fingerprint buckets span classes
    guard = "table"
    examples = ({"k": 1, "l": 1}, {"k": 2, "l": 2}, {"k": 3, "l": 2})

    def holds(self, parts: PartStats) -> BoolArray:
        return self.diverse(parts)


PERSON_MODELS: tuple[type[PersonModel], ...] = (
    PersonKAnonymity,
    PersonConsistency,
    FingerprintKAnonymity,
    FingerprintLDiversity,
    KLDiversity,
)
