"""1:M-Generalization (Gong, Luo, Yang, Ni, Li, "Anonymizing 1:M microdata with high utility",
Knowledge-Based Systems 115, 2017; digest 000 §3), for data where a person owns many rows.

1. One row per person (prepare): the person's quasi-identifiers and SA fingerprint (the set of
   their distinct sensitive items), in the engine (``persons``, ``items``).
2. The fingerprints are generalized into buckets of at least ``k`` persons
   (:mod:`anonsql.algorithms.fingerprint_partition`, He & Naughton's Partition).
3. Mondrian partitions the persons on their quasi-identifiers, a split being allowed only if
   every part is 1:M l-diverse over the *generalized* fingerprints (each person's sensitive
   code is their bucket), so no later step can reduce diversity. Where the paper would return
   the whole table as one violating class, the run stops with an infeasibility error.

Every row of a person is then published with the person's class, so no person is generalized
in two ways (the inconsistency attack).
"""

from __future__ import annotations

from anonsql.algorithms.base import PartitionSummary, ProgressCallback
from anonsql.algorithms.fingerprint_partition import FingerprintBuckets, FingerprintPartition
from anonsql.algorithms.mondrian import Mondrian, MondrianOptions
from anonsql.errors import InfeasibleError, SpecError
from anonsql.pipeline.job import Job, SensitiveAttribute
from anonsql.privacy.one_to_many import FingerprintModel


class OneToManyOptions(MondrianOptions):
    """Options of the quasi-identifier step (Mondrian's)."""


class OneToMany(Mondrian):
    """1:M-Generalization: fingerprint buckets (Partition), then person-level Mondrian."""

    name = "one_to_many"
    Options = OneToManyOptions
    person_level = True
    reference = (
        "Q. Gong, J. Luo, M. Yang, W. Ni, X.-B. Li, Anonymizing 1:M microdata with high "
        "utility, Knowledge-Based Systems 115, 2017; Y. He, J. F. Naughton, Anonymization of "
        "Set-Valued Data via Top-Down, Local Generalization, VLDB 2009"
    )

    def partition(self, job: Job, progress: ProgressCallback) -> PartitionSummary:
        link = job.person
        if link is None:
            raise SpecError(
                "algorithm",
                "one_to_many anonymizes data with several rows per person",
                "add `person_id: <column linking a person's rows>`",
            )
        e = job.engine
        start = e.stats.statements
        fingerprint_models = [m for m in job.models if isinstance(m, FingerprintModel)]
        buckets: FingerprintBuckets | None = None
        if link.sensitive is not None:
            k = max(m.fingerprint_k for m in fingerprint_models)
            progress(f"generalizing the fingerprints of {link.persons} persons into buckets >= {k}")
            buckets = FingerprintPartition(job, k, progress).run()
            progress(f"{buckets.buckets} fingerprint buckets in {buckets.rounds} rounds")
            self._check_feasible(buckets, fingerprint_models, link.persons)
            job.sensitive = [
                SensitiveAttribute(0, link.sensitive, buckets.buckets, False, buckets.sizes)
            ]
        e.run(
            "persons/create_rows",
            rows=job.work("rows"),
            persons=job.work("persons"),
            person_buckets=job.work("person_buckets") if buckets else None,
            dims=job.dimensions,
        )
        job.carried = ["person"]
        summary = super().partition(job, progress)
        if buckets is None:
            return summary
        return PartitionSummary(
            partitions=summary.partitions,
            suppressed_rows=summary.suppressed_rows,
            suppressed_partitions=summary.suppressed_partitions,
            rounds=buckets.rounds + summary.rounds,
            statements=e.stats.statements - start,
            statements_per_round=buckets.statements_per_round + summary.statements_per_round,
        )

    @staticmethod
    def _check_feasible(
        buckets: FingerprintBuckets, models: list[FingerprintModel], persons: int
    ) -> None:
        """The whole table must be 1:M l-diverse, or no class can be: the paper's Mondrian
        would publish it as one violating class."""
        ell = max(m.ell for m in models)
        largest = int(buckets.sizes.max())
        if largest * ell > persons:
            raise InfeasibleError(
                f"1:M l-diversity with l = {ell} is infeasible: after generalizing the "
                f"fingerprints into buckets of at least k persons, the largest bucket holds "
                f"{largest} of {persons} persons, more than 1/l, so no class can be l-diverse. "
                f"Fix: use l <= {persons // largest}, or a smaller fingerprint k"
            )
