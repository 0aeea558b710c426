"""Privacy models: parameter validation, SQL violation queries, vectorized predicates."""

from anonsql.privacy.base import DataProfile, PartStats, PrivacyModel
from anonsql.privacy.k_anonymity import KAnonymity
from anonsql.privacy.registry import PRIVACY_MODELS

__all__ = ["PRIVACY_MODELS", "DataProfile", "KAnonymity", "PartStats", "PrivacyModel"]
