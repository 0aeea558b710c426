"""The ``personalized`` release layout (Reddy, Raju, Valli Kumari, IJET 2018; digest 002):
:mod:`.layout` (the layout), :mod:`.publish` (the published relations) and :mod:`.checks` (their
violation queries)."""

from anonsql.layouts.personalized.layout import PersonalizedLayout

__all__ = ["PersonalizedLayout"]
