"""Privacy models by spec name."""

from __future__ import annotations

from anonsql.privacy.base import PrivacyModel
from anonsql.privacy.k_anonymity import KAnonymity
from anonsql.privacy.l_diversity import DistinctLDiversity, EntropyLDiversity, RecursiveCLDiversity
from anonsql.privacy.t_closeness import TCloseness
from anonsql.registry import Registry

PRIVACY_MODELS: Registry[type[PrivacyModel]] = Registry("privacy model")
for _model in (
    KAnonymity,
    DistinctLDiversity,
    EntropyLDiversity,
    RecursiveCLDiversity,
    TCloseness,
):
    PRIVACY_MODELS.register(_model.name, _model)
