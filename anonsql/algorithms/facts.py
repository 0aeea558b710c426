"""The facts the shared release layouts read of an algorithm's run (``Layout.Facts``; see
:class:`~anonsql.algorithms.base.LayoutFacts`).

They live in the algorithms package, which the layouts import and the algorithms fill: here for
the layouts several families feed with plain values (``record``, ``person``,
``identity_reserved``); in the family's own package for a layout of one family whose facts
carry its objects (``personalized``:
:class:`~anonsql.algorithms.personalized.algorithm.PersonalizedFacts`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from anonsql.algorithms.base import LayoutFacts


@dataclass(frozen=True)
class RecordFacts(LayoutFacts):
    """What the record layout reads of a search (both None for algorithms that record none):
    ``search``, the certificate's record of it (full-domain search: the chosen node, Kohlmayer
    et al., "Flash", PASSAT 2012); ``population``, the population table a k-map search
    generalized with the rows (Sweeney 2001; El Emam & Dankar, JAMIA 2008), whose classes it
    left as the working table ``population_classes``."""

    search: Mapping[str, Any] | None = None
    population: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class PersonFacts(LayoutFacts):
    """What the 1:M layout reads of a search: the number of buckets the persons' fingerprints
    were generalized into (Gong et al., "Anonymizing 1:M microdata with high utility", KBS
    2017), None when the release has no fingerprint column or the algorithm made none."""

    fingerprint_buckets: int | None = None


@dataclass(frozen=True)
class IdentityReservedFacts(LayoutFacts):
    """What the identity-reserved layout reads of a clustering (Wang et al., KAIS 2019): the
    individuals it suppressed (Handle), the generalization form of the published labels
    (DAnonyIR's ``set``, GeneIR's ``taxonomy``) and whether the classes' record counts are
    ``protected`` (count-refined models) or ``published``, for the certificate."""

    suppressed_individuals: int = 0
    generalization: Literal["set", "taxonomy"] | None = None
    record_counts: Literal["protected", "published"] | None = None
