"""Privacy models by spec name. Other packages add models through the
``anonsql.privacy_models`` entry-point group."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from anonsql.errors import SpecError
from anonsql.privacy.base import PrivacyModel
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


# lazy: a run imports the modules of the models its spec names only (each builds its parameter
# model at import); ``tests/privacy`` holds every entry to its class's ``name``
_MODELS: tuple[tuple[str, str], ...] = (
    ("k_anonymity", "k_anonymity:KAnonymity"),
    ("distinct_l_diversity", "l_diversity:DistinctLDiversity"),
    ("entropy_l_diversity", "l_diversity:EntropyLDiversity"),
    ("recursive_cl_diversity", "l_diversity:RecursiveCLDiversity"),
    ("frequency_l_diversity", "frequency_l_diversity:FrequencyLDiversity"),
    ("t_closeness", "t_closeness:TCloseness"),
    ("person_k_anonymity", "one_to_many:PersonKAnonymity"),
    ("person_consistency", "one_to_many:PersonConsistency"),
    ("fingerprint_k_anonymity", "one_to_many:FingerprintKAnonymity"),
    ("fingerprint_l_diversity", "one_to_many:FingerprintLDiversity"),
    ("kl_diversity", "one_to_many:KLDiversity"),
    ("alpha_k_anonymity", "alpha_k_anonymity:AlphaKAnonymity"),
    ("delta_disclosure_privacy", "delta_disclosure:DeltaDisclosurePrivacy"),
    ("basic_beta_likeness", "beta_likeness:BasicBetaLikeness"),
    ("enhanced_beta_likeness", "beta_likeness:EnhancedBetaLikeness"),
    ("hierarchical_t_closeness", "hierarchical_t_closeness:HierarchicalTCloseness"),
    ("k_map", "k_map:KMap"),
    ("average_reidentification_risk", "average_risk:AverageReidentificationRisk"),
    ("sample_uniqueness", "uniqueness:SampleUniqueness"),
    ("population_uniqueness", "uniqueness:PopulationUniqueness"),
    ("ir_kl_anonymity", "identity_reserved:IRKLAnonymity"),
    ("ir_alpha_beta_anonymity", "identity_reserved:IRAlphaBetaAnonymity"),
    ("eir_l_diversity", "identity_reserved:EIRLDiversity"),
    ("eir_alpha_beta_anonymity", "identity_reserved:EIRAlphaBetaAnonymity"),
)
for _name, _target in _MODELS:
    PRIVACY_MODELS.register_lazy(_name, f"anonsql.privacy.{_target}")
