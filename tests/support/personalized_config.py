"""A :class:`PersonalizedConfig` from a plain mapping, built as a run builds it: the options of
``algorithm: personalized`` validated by :class:`PersonalizedOptions`, then
:func:`build_config`.

Reddy, Raju, Valli Kumari (IJET 2018) parameters, digest 002 §3.2. The mapping is the spec's
``algorithm.personalized`` section with what the rest of a spec would declare::

    profile: safe                       # the options, as in a spec
    consent: {column: pd, values: [true]}
    sensitive:
      job: {l: 3, bucket_k: 3}          # categorical: its taxonomy is given separately
      salary: {terms: {labels: [Low, Medium, High], points: [50000, 150000, 300000]}}
    cluster_key: [{column: zipcode, prefix: 1}]
    l: 2
    quasi_identifiers: [age, gender, zipcode]    # the spec's columns
    k: 10                                        # the spec's k_anonymity
    seed: 0                                      # the spec's seed

The categorical attributes are the columns of ``taxonomies`` (in order); the numeric ones are
the ``sensitive`` entries with terms. Errors are :class:`~anonsql.errors.SpecError` naming the
key (``<key>.<option>`` for the options, as :func:`~anonsql.spec.errors.spec_error` names them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from anonsql.algorithms.personalized.algorithm import PersonalizedOptions, build_config
from anonsql.algorithms.personalized.config import PersonalizedConfig
from anonsql.errors import SpecError
from anonsql.hierarchies import Hierarchy
from anonsql.spec.errors import spec_error

#: What the mapping holds beside the options: the spec's declarations the run reads.
_DECLARED = ("quasi_identifiers", "k", "seed")


def config_from_mapping(
    raw: Mapping[str, Any],
    *,
    taxonomies: Mapping[str, Hierarchy],
    key: str = "personalized",
) -> PersonalizedConfig:
    """Validate the options, check the declarations, and build the configuration;
    ``taxonomies`` maps each categorical column to its (already resolved) hierarchy."""
    if not isinstance(raw, Mapping):
        raise SpecError(key, "expected a mapping", "write it as key: value pairs")
    try:
        options = PersonalizedOptions.model_validate(
            {name: value for name, value in raw.items() if name not in _DECLARED}
        )
    except ValidationError as err:
        raise spec_error(err, prefix=key) from None
    quasi_identifiers = raw.get("quasi_identifiers", [])
    if (
        isinstance(quasi_identifiers, str)
        or not isinstance(quasi_identifiers, list)
        or not quasi_identifiers
        or not all(isinstance(q, str) and q for q in quasi_identifiers)
    ):
        raise SpecError(
            f"{key}.quasi_identifiers", "expected a list of column names", "name at least one"
        )
    k, seed = raw.get("k", 10), raw.get("seed", 0)
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        raise SpecError(f"{key}.k", "k is not an integer >= 1", "give the group size k >= 1")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SpecError(f"{key}.seed", "the seed is not an integer", "give an integer or omit it")
    numeric = [c for c, own in options.sensitive.items() if own.terms is not None]
    for column in options.sensitive:
        if column not in numeric and column not in taxonomies:
            raise SpecError(
                f"{key}.sensitive.{column}",
                "the column has no taxonomy and no terms",
                "give a categorical column's hierarchy, or a numeric column's terms",
            )
    return build_config(
        options,
        quasi_identifiers=quasi_identifiers,
        taxonomies=taxonomies,
        numeric=numeric,
        k=k,
        seed=seed,
        key=key,
    )
