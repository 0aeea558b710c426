"""1:M-Generalization (Gong, Luo, Yang, Ni, Li, "Anonymizing 1:M microdata with high utility",
Knowledge-Based Systems 115, 2017; digest 000 §3), for data where a person owns many rows.

1. One row per person (prepare): the person's quasi-identifiers and SA fingerprint (the set of
   their distinct sensitive items), in the engine (``persons``, ``items``).
2. The fingerprints are generalized into buckets of at least ``k`` persons
   (:mod:`anonsql.algorithms.one_to_many.fingerprint_partition`, He & Naughton's Partition).
3. Mondrian partitions the persons on their quasi-identifiers, a split being allowed only if
   every part is 1:M l-diverse over the *generalized* fingerprints (each person's sensitive
   code is their bucket), so no later step can reduce diversity. Where the paper would return
   the whole table as one violating class, the run stops with an infeasibility error.

Every row of a person is then published with the person's class, so no person is generalized
in two ways (the inconsistency attack).

With models that read the sensitive value of every record instead of fingerprints (the
identity-reserved models of Wang, Du, Luo, Li, KAIS 2019: IR (k,l), IR (α,β), EIR l, EIR (α,β))
there is no fingerprint step: Mondrian partitions the persons with those models as its split
condition, judging each candidate part from aggregates of its persons' records, values and value
sets computed in SQL (:mod:`anonsql.algorithms.mondrian.individuals`). It refuses
``record_counts: protected`` (count-refined classes would need the rare record counts
suppressed; ``danonyir`` and ``geneir`` do that) and suppression (the person layout publishes
every row).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from anonsql.algorithms.base import Partitioning, ProgressCallback
from anonsql.algorithms.facts import PersonFacts
from anonsql.algorithms.mondrian import Mondrian, MondrianOptions
from anonsql.algorithms.mondrian.algorithm import _MondrianRun
from anonsql.algorithms.mondrian.individuals import CARRIED, IndividualAggregates
from anonsql.algorithms.one_to_many.fingerprint_partition import (
    FingerprintBuckets,
    FingerprintPartition,
)
from anonsql.algorithms.workspace import SensitiveAttribute, Workspace
from anonsql.errors import InfeasibleError, SpecError
from anonsql.privacy.base import PrivacyModel


class OneToManyOptions(MondrianOptions):
    """Options of the quasi-identifier step (Mondrian's)."""


def _largest(models: list[PrivacyModel] | tuple[PrivacyModel, ...], kind: str) -> int:
    return max((int(b.value) for m in models for b in m.bounds() if b.kind == kind), default=1)


def reads_records(model: PrivacyModel) -> bool:
    """Whether a person-level model reads the sensitive value of each record (not fingerprints)."""
    return model.counts_persons and model.needs_sensitive and not model.reads_fingerprints


class OneToMany(Mondrian[OneToManyOptions]):
    """1:M-Generalization: fingerprint buckets (Partition), then person-level Mondrian."""

    name = "one_to_many"
    person_level = True
    layout = "person"
    reference = (
        "Q. Gong, J. Luo, M. Yang, W. Ni, X.-B. Li, Anonymizing 1:M microdata with high "
        "utility, Knowledge-Based Systems 115, 2017; Y. He, J. F. Naughton, Anonymization of "
        "Set-Valued Data via Top-Down, Local Generalization, VLDB 2009"
    )

    def check_models(self, models: Sequence[PrivacyModel]) -> None:
        by_record = [(i, m) for i, m in enumerate(models) if reads_records(m)]
        if not by_record:
            return
        if any(m.reads_fingerprints for m in models):
            raise SpecError(
                "privacy",
                "models over SA fingerprints and models over every record's sensitive value "
                "cannot be combined",
                "declare models of one family (e.g. kl_diversity, or the identity-reserved ones)",
            )
        for position, model in by_record:
            if any(b.kind == "record_count_refinement" for b in model.bounds()):
                raise SpecError(
                    f"privacy[{position}].{model.name}.record_counts",
                    "one_to_many does not protect record counts",
                    "use algorithm: danonyir or geneir, which cluster each record count apart",
                )
        if len({m.sensitive_column for _, m in by_record}) > 1:
            raise SpecError(
                "privacy",
                "the models read different sensitive columns",
                "protect one sensitive column",
            )

    def partition(self, workspace: Workspace, progress: ProgressCallback) -> Partitioning:
        link = workspace.person
        assert link is not None, "the resolve step refuses 1:M algorithms without person_id"
        by_record = [m for m in workspace.models if reads_records(m)]
        if by_record:
            column = by_record[0].sensitive_column
            assert column is not None
            return self._partition_individuals(workspace, column, progress)
        e = workspace.engine
        start = e.stats.statements
        buckets: FingerprintBuckets | None = None
        searched = workspace
        if link.sensitive is not None:
            k = _largest(workspace.models, "fingerprint_bucket_size")
            progress(f"generalizing the fingerprints of {link.persons} persons into buckets >= {k}")
            buckets = FingerprintPartition(workspace, k, progress).run()
            progress(f"{buckets.buckets} fingerprint buckets in {buckets.rounds} rounds")
            self._check_feasible(
                buckets, _largest(workspace.models, "fingerprint_share"), link.persons
            )
            # persons are searched with their fingerprint bucket as the sensitive code
            bucket_code = SensitiveAttribute(
                0, link.sensitive, buckets.buckets, False, buckets.sizes
            )
            searched = replace(workspace, sensitive=(bucket_code,))
        e.run(
            "persons/create_rows",
            rows=workspace.work("rows"),
            persons=workspace.work("persons"),
            person_buckets=workspace.work("person_buckets") if buckets else None,
            dims=workspace.dimensions,
        )
        result = super().partition(replace(searched, carried=("person",)), progress)
        facts = PersonFacts(buckets.buckets if buckets is not None else None)
        if buckets is None:
            return replace(result, facts=facts)
        return replace(
            result,
            rounds=buckets.rounds + result.rounds,
            statements=e.stats.statements - start,
            statements_per_round=(*buckets.statements_per_round, *result.statements_per_round),
            facts=facts,
        )

    @staticmethod
    def _check_feasible(buckets: FingerprintBuckets, ell: int, persons: int) -> None:
        """The whole table must be 1:M l-diverse, or no class can be: the paper's Mondrian
        would publish it as one violating class."""
        largest = int(buckets.sizes.max())
        if largest * ell > persons:
            raise InfeasibleError(
                f"1:M l-diversity with l = {ell} is infeasible: after generalizing the "
                f"fingerprints into buckets of at least k persons, the largest bucket holds "
                f"{largest} of {persons} persons, more than 1/l, so no class can be l-diverse. "
                f"Fix: use l <= {persons // largest}, or a smaller fingerprint k"
            )

    def _partition_individuals(
        self, workspace: Workspace, column: str, progress: ProgressCallback
    ) -> Partitioning:
        """Mondrian over the persons with the models reading every record's value as split
        condition (the module docstring)."""
        if workspace.suppression_limit > 0:
            raise SpecError(
                "suppression_limit",
                "one_to_many publishes every person, so it suppresses nothing",
                "set suppression_limit: 0, or use algorithm: danonyir",
            )
        link = workspace.person
        assert link is not None
        e = workspace.engine
        start = e.stats.statements
        values, sets = workspace.work("person_values"), workspace.work("person_sets")
        members = workspace.work("set_members")
        progress(f"counting the records and value sets of {link.persons} persons")
        e.run(
            "identity_reserved/person_values",
            target=values,
            source=workspace.source,
            persons=workspace.work("persons"),
            person=link.column,
            column=column,
        )
        e.run("identity_reserved/person_sets", target=sets, values=values)
        e.run("identity_reserved/set_members", target=members, sets=sets, values=values)
        e.run(
            "identity_reserved/mondrian_rows",
            rows=workspace.work("rows"),
            persons=workspace.work("persons"),
            sets=sets,
            dims=workspace.dimensions,
        )
        aggregates = IndividualAggregates.read(
            e, rows=workspace.work("rows"), values=values, sets=members, column=column
        )
        searched = replace(workspace, carried=("person", *CARRIED))
        result = _MondrianRun(searched, self.options, progress, individuals=aggregates).run()
        return replace(
            result,
            statements=e.stats.statements - start,
            facts=PersonFacts(),
        )
