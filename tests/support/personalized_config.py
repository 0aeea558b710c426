"""A :class:`PersonalizedConfig` from a plain mapping (the shape a YAML spec section takes), so
the spec layer only resolves taxonomies and passes the section on.

Reddy, Raju, Valli Kumari (IJET 2018) parameters, digest 002 §3.2. The mapping::

    profile: safe                       # or paper_compat
    consent: {column: pd, values: [true]}
    quasi_identifiers: [age, gender, zipcode]
    cluster_key: [{column: zipcode, prefix: 1}]    # optional
    categorical: [{column: job, l: 3, bucket_k: 3}]   # taxonomies given separately, by column
    numeric: [{column: salary, terms: {labels: [Low, Medium, High],
                                       points: [50000, 150000, 300000], rule: triangular}}]
    k: 10
    l: 2
    bucket_k: null
    sensitivity_threshold: 1
    weight_step: null
    seed: null

Unknown keys and wrong types are :class:`~anonsql.errors.SpecError` naming the key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from anonsql.algorithms.personalized.config import (
    CategoricalSA,
    ClusterKey,
    FuzzyTerms,
    NumericSA,
    PersonalizedConfig,
)
from anonsql.errors import SpecError
from anonsql.hierarchies import Hierarchy

_TOP = {
    "profile",
    "consent",
    "quasi_identifiers",
    "cluster_key",
    "categorical",
    "numeric",
    "k",
    "l",
    "bucket_k",
    "sensitivity_threshold",
    "weight_step",
    "seed",
}


def _mapping(value: object, key: str, allowed: set[str]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise SpecError(key, "expected a mapping", "write it as key: value pairs")
    unknown = sorted(set(value) - allowed)
    if unknown:
        raise SpecError(
            f"{key}.{unknown[0]}", "unknown key", f"use only {', '.join(sorted(allowed))}"
        )
    return value


def _list(value: object, key: str) -> Sequence[Any]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise SpecError(key, "expected a list", "write it as a YAML list")
    return value


def config_from_mapping(
    raw: Mapping[str, Any],
    *,
    taxonomies: Mapping[str, Hierarchy],
    key: str = "personalized",
) -> PersonalizedConfig:
    """Build and validate the configuration; ``taxonomies`` maps each categorical column to
    its (already resolved) hierarchy."""
    section = _mapping(raw, key, _TOP)
    consent = _mapping(section.get("consent"), f"{key}.consent", {"column", "values"})
    categorical = []
    for i, item in enumerate(_list(section.get("categorical", []), f"{key}.categorical")):
        where = f"{key}.categorical[{i}]"
        entry = _mapping(item, where, {"column", "l", "bucket_k"})
        column = entry.get("column")
        if not isinstance(column, str) or column not in taxonomies:
            raise SpecError(
                f"{where}.column",
                "the column has no taxonomy",
                "name a categorical sensitive column and give its hierarchy",
            )
        categorical.append(
            CategoricalSA(column, taxonomies[column], entry.get("l"), entry.get("bucket_k"))
        )
    numeric = []
    for i, item in enumerate(_list(section.get("numeric", []), f"{key}.numeric")):
        where = f"{key}.numeric[{i}]"
        entry = _mapping(item, where, {"column", "terms", "l", "bucket_k"})
        terms = _mapping(entry.get("terms"), f"{where}.terms", {"labels", "points", "rule"})
        fuzzy = FuzzyTerms(
            labels=tuple(_list(terms.get("labels"), f"{where}.terms.labels")),
            points=tuple(_list(terms.get("points"), f"{where}.terms.points")),
            rule=terms.get("rule", "triangular"),
        )
        numeric.append(
            NumericSA(str(entry.get("column", "")), fuzzy, entry.get("l"), entry.get("bucket_k"))
        )
    cluster_key = []
    for i, item in enumerate(_list(section.get("cluster_key", []), f"{key}.cluster_key")):
        entry = _mapping(item, f"{key}.cluster_key[{i}]", {"column", "prefix"})
        cluster_key.append(ClusterKey(str(entry.get("column", "")), entry.get("prefix")))
    optional = {
        name: section[name]
        for name in ("profile", "k", "l", "bucket_k", "sensitivity_threshold", "weight_step")
        if name in section
    }
    seed = section.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise SpecError(f"{key}.seed", "the seed is not an integer", "give an integer or omit it")
    return PersonalizedConfig(
        quasi_identifiers=tuple(
            str(q) for q in _list(section.get("quasi_identifiers", []), f"{key}.quasi_identifiers")
        ),
        consent_column=str(consent.get("column", "")),
        categorical=tuple(categorical),
        numeric=tuple(numeric),
        consent_values=tuple(_list(consent.get("values", [True]), f"{key}.consent.values")),
        cluster_key=tuple(cluster_key),
        seed=seed,
        key=key,
        **optional,
    )
