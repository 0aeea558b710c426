"""Privacy models by spec name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from anonsql.errors import SpecError
from anonsql.privacy.base import PrivacyModel
from anonsql.privacy.k_anonymity import KAnonymity
from anonsql.privacy.l_diversity import DistinctLDiversity, EntropyLDiversity, RecursiveCLDiversity
from anonsql.privacy.one_to_many import PERSON_MODELS, PersonKAnonymity
from anonsql.privacy.t_closeness import TCloseness
from anonsql.registry import Registry

PRIVACY_MODELS: Registry[type[PrivacyModel]] = Registry("privacy model")


def models_from_entries(
    entries: Sequence[Mapping[str, Mapping[str, Any] | None]],
) -> list[PrivacyModel]:
    """Privacy models from ``[{name: {params}}, ...]`` (the spec's ``privacy`` list); errors
    are keyed ``privacy[i].name``."""
    models: list[PrivacyModel] = []
    for position, entry in enumerate(entries):
        for name, params in entry.items():
            key = f"privacy[{position}].{name}"
            if name not in PRIVACY_MODELS:
                raise SpecError(key, PRIVACY_MODELS.unknown_message(name), "use a known model name")
            models.append(PRIVACY_MODELS.get(name).from_spec(params, key=key))
    return models


def largest_k(models: Sequence[PrivacyModel]) -> int | None:
    """The strictest k of the k-anonymity models, if any (for class-size metrics)."""
    ks = [m.k for m in models if isinstance(m, KAnonymity | PersonKAnonymity)]
    return max(ks) if ks else None


_MODELS: tuple[type[PrivacyModel], ...] = (
    KAnonymity,
    DistinctLDiversity,
    EntropyLDiversity,
    RecursiveCLDiversity,
    TCloseness,
    *PERSON_MODELS,
)
for _model in _MODELS:
    PRIVACY_MODELS.register(_model.name, _model)
