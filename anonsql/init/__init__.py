"""``anonsql init``: profile a table in SQL, propose a spec that protects what the profile
detects, run it into scratch schemas until the publish gate accepts it, and write it with a
comment explaining each choice."""

from anonsql.init.identifiers import PATTERNS, ValueMatch, detect_identifiers
from anonsql.init.profile import ColumnProfile, SourceRisk, profile_table, source_risk
from anonsql.init.propose import InitResult, Verdict, init_spec
from anonsql.init.suggest import Suggestion, first_suggestion
from anonsql.init.trial import Trial, trial_run

__all__ = [
    "PATTERNS",
    "ColumnProfile",
    "InitResult",
    "SourceRisk",
    "Suggestion",
    "Trial",
    "ValueMatch",
    "Verdict",
    "detect_identifiers",
    "first_suggestion",
    "init_spec",
    "profile_table",
    "source_risk",
    "trial_run",
]
