"""Privacy models: parameter validation, SQL violation queries, vectorized predicates."""

from anonsql.privacy.base import DataProfile, PartStats, PrivacyModel
from anonsql.privacy.k_anonymity import KAnonymity
from anonsql.privacy.l_diversity import DistinctLDiversity, EntropyLDiversity, RecursiveCLDiversity
from anonsql.privacy.registry import PRIVACY_MODELS
from anonsql.privacy.t_closeness import TCloseness

__all__ = [
    "PRIVACY_MODELS",
    "DataProfile",
    "DistinctLDiversity",
    "EntropyLDiversity",
    "KAnonymity",
    "PartStats",
    "PrivacyModel",
    "RecursiveCLDiversity",
    "TCloseness",
]
