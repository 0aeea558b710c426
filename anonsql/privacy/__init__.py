"""Privacy models: parameter validation, SQL violation queries, vectorized predicates, and the
declarations algorithms consult."""

from anonsql.privacy.base import Bound, DataProfile, PartStats, PrivacyModel, largest_k
from anonsql.privacy.k_anonymity import KAnonymity
from anonsql.privacy.l_diversity import DistinctLDiversity, EntropyLDiversity, RecursiveCLDiversity
from anonsql.privacy.registry import PRIVACY_MODELS, models_from_entries, sensitive_columns
from anonsql.privacy.t_closeness import TCloseness

__all__ = [
    "PRIVACY_MODELS",
    "Bound",
    "DataProfile",
    "DistinctLDiversity",
    "EntropyLDiversity",
    "KAnonymity",
    "PartStats",
    "PrivacyModel",
    "RecursiveCLDiversity",
    "TCloseness",
    "largest_k",
    "models_from_entries",
    "sensitive_columns",
]
