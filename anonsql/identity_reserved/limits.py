"""Size limits of the identity-reserved algorithms and the error raised when one is exceeded.

The clustering (DAnonyIR) and the exact EIR l-diversity decision are inherently sequential or
combinatorial; their limits are stated here, checked before the work starts (or as soon as the
work exceeds them) and reported with the key to change and the way out.
"""

from __future__ import annotations

from anonsql.errors import SpecError

#: DAnonyIR: individuals one run accepts. Each addition to a class scans every remaining
#: individual (Θ(n²·|QI|) in total, vectorized per step): measured on INFORMS 2005
#: (|QI| = 6, 2 cores) at about 35 s for 26,854 individuals; the limit keeps a run under
#: roughly 10 minutes (time grows with n², memory with n·|QI|).
MAX_DANONYIR_INDIVIDUALS = 100_000

#: GeneIR: individuals one run accepts (each level step regroups all remaining individuals,
#: O(n log n) per step; memory n·|QI|).
MAX_GENEIR_INDIVIDUALS = 5_000_000

#: Exact minimum-hitting-set decision (EIR l-diversity): search-tree nodes one class may
#: visit. The search is a bounded depth-(l-1) branching on the smallest un-hit set, pruned by
#: forced singletons and a counting bound; its worst case is r^(l-1) nodes for sets of size r.
MAX_SEARCH_NODES = 200_000

#: Incremental EIR l-diversity (the paper's Algorithm 5): minimal hitting sets of size < l kept
#: for the class under construction. Above this, the class falls back to the exact search.
MAX_FAMILY_SETS = 4_096


class LimitError(SpecError):
    """A size limit of an identity-reserved algorithm or check was exceeded."""
