"""Size limits of the identity-reserved algorithms and the error raised when one is exceeded.

The clustering (DAnonyIR) and the exact EIR l-diversity decision are inherently sequential or
combinatorial; their limits are stated here (the hitting-set limits beside the decision, in
:mod:`anonsql.privacy.hitting_sets`), checked before the work starts (or as soon as the work
exceeds them) and reported with the key to change and the way out.
"""

from __future__ import annotations

from anonsql.privacy.hitting_sets import MAX_FAMILY_SETS, MAX_SEARCH_NODES, LimitError

#: DAnonyIR: individuals one run accepts. Each addition to a class scans every remaining
#: individual and class (Θ(n²·|QI|) in total, one vectorized pass per step); the limit keeps a
#: run's time, which grows with n², within what BENCHMARKS.md "Identity-reserved releases"
#: measures on INFORMS and its replica (memory grows with n·|QI| plus classes x Σ|X| booleans).
MAX_DANONYIR_INDIVIDUALS = 60_000

#: GeneIR: individuals one run accepts (each level step regroups all remaining individuals,
#: O(n log n) per step; memory n·|QI|).
MAX_GENEIR_INDIVIDUALS = 5_000_000

__all__ = [
    "MAX_DANONYIR_INDIVIDUALS",
    "MAX_FAMILY_SETS",
    "MAX_GENEIR_INDIVIDUALS",
    "MAX_SEARCH_NODES",
    "LimitError",
]
