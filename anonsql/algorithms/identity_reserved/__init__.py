"""Identity-reserved publishing (seed 003): Wang, Du, Luo, Li, "Two privacy-preserving
approaches for data publishing with identity reservation", Knowledge and Information Systems
60(2), 2019 (doi:10.1007/s10115-018-1237-3).

A release keeps a pseudonymous number per individual (``Id_num``), so an individual's records
stay linked and one individual may own many records of a class. The four privacy models (IR
(k,l), IR (α,β), EIR l, EIR (α,β)) are in :mod:`anonsql.privacy.identity_reserved`; the
release layout in :mod:`anonsql.layouts.identity_reserved`; the metrics in
:mod:`anonsql.metrics.identity_reserved`. Here, one job per module:

* :mod:`.algorithm` — ``algorithm: danonyir`` and ``algorithm: geneir`` in the pipeline;
* :mod:`.encoding` — per-individual data fetched compact and encoded, and their part statistics;
* :mod:`.distances` — set generalization and Eqs. 16-18;
* :mod:`.decisions` — the decision functions SatPriIR(Inc)_*, chosen by the models' bounds;
* :mod:`.danonyir` — DAnonyIR with Handle;
* :mod:`.geneir` — GeneIR, the taxonomy baseline;
* :mod:`.mondrian` — the person-level Mondrian with these models as split condition, in memory
  (the reference of ``algorithm: one_to_many`` with these models);
* :mod:`.record_counts` — releases whose classes hold one record count (closing the
  record-count hole);
* :mod:`.generalization` — results and their published text form;
* :mod:`.limits` — the size limits and their error.
"""
