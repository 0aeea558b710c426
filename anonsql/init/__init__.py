"""``anonsql init``: profile a table in SQL and write a commented spec skeleton for it."""

from anonsql.init.profile import ColumnProfile, SourceRisk, profile_table, source_risk
from anonsql.init.suggest import InitResult, Suggestion, init_spec, suggest

__all__ = [
    "ColumnProfile",
    "InitResult",
    "SourceRisk",
    "Suggestion",
    "init_spec",
    "profile_table",
    "source_risk",
    "suggest",
]
