"""Personalized publishing with multiple sensitive attributes (Reddy, Raju, Valli Kumari,
"A Novel Approach for Personalized Privacy Preserving Data Publishing with Multiple Sensitive
Attributes", IJET 2018; digest 002).

One module per job: :mod:`.config` (the frozen configuration), :mod:`.prepare` (consent filter
and fuzzy terms), :mod:`.clustering` (QID groups), :mod:`.buckets` (per-attribute buckets and
taxonomy climbing), :mod:`.publish` (the published relations), :mod:`.checks` (violation
queries), :mod:`.metrics` and :mod:`.pipeline` (the steps in order).
"""
