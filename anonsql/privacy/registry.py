"""Privacy models by spec name."""

from __future__ import annotations

from anonsql.privacy.base import PrivacyModel
from anonsql.privacy.k_anonymity import KAnonymity
from anonsql.registry import Registry

PRIVACY_MODELS: Registry[type[PrivacyModel]] = Registry("privacy model")
for _model in (KAnonymity,):
    PRIVACY_MODELS.register(_model.name, _model)
