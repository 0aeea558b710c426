"""Identity-reserved publishing (seed 003): Wang, Du, Luo, Li, "Two privacy-preserving
approaches for data publishing with identity reservation", Knowledge and Information Systems
60(2), 2019 (doi:10.1007/s10115-018-1237-3).

A release keeps a pseudonymous number per individual (``Id_num``), so an individual's records
stay linked and one individual may own many records of a class.

Modules, one job each:

* :mod:`~anonsql.identity_reserved.models` — the four privacy models (IR (k,l), IR (α,β), EIR l,
  EIR (α,β)) as :class:`~anonsql.privacy.base.PrivacyModel` classes: SQL violation queries over
  rows of persons (``sql_templates/identity_reserved/``) and predicates over
  :class:`~anonsql.identity_reserved.models.IRPartStats`; the record-count hole and its
  ``record_counts: protected`` option;
* :mod:`~anonsql.identity_reserved.hitting_sets` — EIR l-diversity as a minimum hitting set
  (exact bounded search, the paper's incremental product, BHS / Algorithm 2 as reference);
* :mod:`~anonsql.identity_reserved.encoding` — per-individual data fetched compact and encoded;
* :mod:`~anonsql.identity_reserved.distances` — set generalization and Eqs. 16-18;
* :mod:`~anonsql.identity_reserved.decisions` — the decision functions SatPriIR(Inc)_*;
* :mod:`~anonsql.identity_reserved.danonyir` — DAnonyIR with Handle;
* :mod:`~anonsql.identity_reserved.geneir` — GeneIR, the taxonomy baseline;
* :mod:`~anonsql.identity_reserved.mondrian` — the person-level Mondrian with these models as
  split condition (in memory, for comparison);
* :mod:`~anonsql.identity_reserved.record_counts` — releases whose classes hold one record
  count (closing the record-count hole);
* :mod:`~anonsql.identity_reserved.generalization` — results and their published text form;
* :mod:`~anonsql.identity_reserved.metrics` — NLoss, count-query error and vulnerable share in
  SQL;
* :mod:`~anonsql.identity_reserved.limits` — the size limits and their error.
"""

from anonsql.identity_reserved.danonyir import DAnonyIROptions, danonyir
from anonsql.identity_reserved.encoding import Individuals, build_individuals, fetch_individuals
from anonsql.identity_reserved.geneir import GeneIROptions, geneir, hierarchy_domains
from anonsql.identity_reserved.generalization import (
    Clustering,
    assignment_table,
    class_table,
    parse_generalized,
)
from anonsql.identity_reserved.limits import LimitError
from anonsql.identity_reserved.models import (
    IDENTITY_RESERVED_MODELS,
    EIRAlphaBetaAnonymity,
    EIRLDiversity,
    IRAlphaBetaAnonymity,
    IRKLAnonymity,
    IRPartStats,
    individual_part_stats,
)
from anonsql.identity_reserved.mondrian import person_mondrian
from anonsql.identity_reserved.record_counts import by_record_count

__all__ = [
    "IDENTITY_RESERVED_MODELS",
    "Clustering",
    "DAnonyIROptions",
    "EIRAlphaBetaAnonymity",
    "EIRLDiversity",
    "GeneIROptions",
    "IRAlphaBetaAnonymity",
    "IRKLAnonymity",
    "IRPartStats",
    "Individuals",
    "LimitError",
    "assignment_table",
    "build_individuals",
    "by_record_count",
    "class_table",
    "danonyir",
    "fetch_individuals",
    "geneir",
    "hierarchy_domains",
    "individual_part_stats",
    "parse_generalized",
    "person_mondrian",
]
