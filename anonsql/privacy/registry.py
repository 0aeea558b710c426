"""Privacy models by spec name. Other packages add models through the
``anonsql.privacy_models`` entry-point group."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from anonsql.errors import SpecError
from anonsql.privacy.alpha_k_anonymity import AlphaKAnonymity
from anonsql.privacy.average_risk import AverageReidentificationRisk
from anonsql.privacy.base import PrivacyModel
from anonsql.privacy.beta_likeness import BasicBetaLikeness, EnhancedBetaLikeness
from anonsql.privacy.delta_disclosure import DeltaDisclosurePrivacy
from anonsql.privacy.frequency_l_diversity import FrequencyLDiversity
from anonsql.privacy.hierarchical_t_closeness import HierarchicalTCloseness
from anonsql.privacy.identity_reserved import IDENTITY_RESERVED_MODELS
from anonsql.privacy.k_anonymity import KAnonymity
from anonsql.privacy.k_map import KMap
from anonsql.privacy.l_diversity import DistinctLDiversity, EntropyLDiversity, RecursiveCLDiversity
from anonsql.privacy.one_to_many import PERSON_MODELS
from anonsql.privacy.t_closeness import TCloseness
from anonsql.privacy.uniqueness import PopulationUniqueness, SampleUniqueness
from anonsql.registry import Registry

PRIVACY_MODELS: Registry[type[PrivacyModel]] = Registry(
    "privacy model", group="anonsql.privacy_models"
)


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


def model_names(*, counts_persons: bool) -> list[str]:
    """Names of the registered models that count persons (or rows)."""
    return [name for name, cls in PRIVACY_MODELS.items() if cls.counts_persons is counts_persons]


def sensitive_columns(models: Sequence[PrivacyModel]) -> list[str]:
    """The sensitive columns the models read, each once, in the models' order."""
    columns = [m.sensitive_column for m in models if m.needs_sensitive]
    return list(dict.fromkeys(c for c in columns if c is not None))


_MODELS: tuple[type[PrivacyModel], ...] = (
    KAnonymity,
    DistinctLDiversity,
    EntropyLDiversity,
    RecursiveCLDiversity,
    FrequencyLDiversity,
    TCloseness,
    *PERSON_MODELS,
    AlphaKAnonymity,
    DeltaDisclosurePrivacy,
    BasicBetaLikeness,
    EnhancedBetaLikeness,
    HierarchicalTCloseness,
    KMap,
    AverageReidentificationRisk,
    SampleUniqueness,
    PopulationUniqueness,
    *IDENTITY_RESERVED_MODELS,
)
for _model in _MODELS:
    PRIVACY_MODELS.register(_model.name, _model)
