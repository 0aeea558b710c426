"""Personalized publishing with several sensitive attributes (Reddy, Raju, Valli Kumari, "A
Novel Approach for Personalized Privacy Preserving Data Publishing with Multiple Sensitive
Attributes", IJET 2018; digest 002), the algorithm side: :mod:`.algorithm` (``algorithm:
personalized``, its options), :mod:`.config` (the frozen configuration the options build),
:mod:`.prepare` (consent filter and fuzzy terms), :mod:`.clustering` (QID groups),
:mod:`.buckets` (per-attribute buckets and taxonomy climbing) and :mod:`.decisions` (the steps
in order). What it publishes and checks is the ``personalized`` layout
(:mod:`anonsql.layouts.personalized`), what it measures :mod:`anonsql.metrics.personalized`.
"""
