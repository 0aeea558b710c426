"""The personalized pipeline in order (Reddy, Raju, Valli Kumari, IJET 2018, §3.1 steps 1-12;
digest 002 §3.2 phases 0-8): consent filter and fuzzy terms, QID groups, per-attribute buckets
with taxonomy climbing (:func:`decide`, the decisions), staging, the profile's checks, then the
published relations.

The release layout (:mod:`anonsql.layouts.personalized`) runs these pieces as steps of the run's
spine (algorithm, stage, publish, verify, measure); :func:`publish_personalized` runs them in one
call over working tables and targets the caller names (the engine-level entry point the tests
use to look at the private working tables). Either way nothing is published when a check fails.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from anonsql.engines.base import Engine
from anonsql.errors import VerificationError
from anonsql.personalized.buckets import Bucketing, bucketize
from anonsql.personalized.checks import run_checks
from anonsql.personalized.clustering import Grouping, group_rows
from anonsql.personalized.config import NumericSA, PersonalizedConfig
from anonsql.personalized.mixing import Mixers, mixers
from anonsql.personalized.names import PublishedTables, WorkTables
from anonsql.personalized.prepare import (
    ConsentCounts,
    LabelFrequencies,
    check_global_diversity,
    label_frequencies,
    prepare_rows,
)
from anonsql.personalized.publish import create_published, stage
from anonsql.sql import Relation

#: The paper the mode follows, for the certificate.
REFERENCE = (
    "S. Ram Prasad Reddy, KVSVN Raju, V. Valli Kumari, A Novel Approach for Personalized "
    "Privacy Preserving Data Publishing with Multiple Sensitive Attributes, IJET 7, 2018"
)

#: Why withheld rows are a disclosure risk of their own.
ABSENCE_RISK = (
    "rows without consent are not published; a person known to be in the source whom no "
    "published group can hold is thereby known not to have consented"
)


@dataclass(frozen=True)
class Decisions:
    """What the pipeline decided over the consenting rows (Reddy et al. 2018 §3.1 steps 1-9):
    consent counts (withheld rows are never published, and their absence is itself a
    disclosure), label frequencies, the QID groups and every attribute's buckets, held in the
    working tables of ``work`` (``bucketing.cells`` the final cells)."""

    config: PersonalizedConfig
    work: WorkTables
    consent: ConsentCounts
    frequencies: LabelFrequencies
    grouping: Grouping
    bucketing: Bucketing

    def certificate(self) -> dict[str, Any]:
        """What a release's certificate records of the decisions (JSON-ready; never a data
        value, never the seed: a known seed makes the shuffles predictable)."""
        config = self.config
        attributes = []
        for attr, (sa, buckets) in enumerate(
            zip(config.sensitive, self.bucketing.attributes, strict=True)
        ):
            attributes.append(
                {
                    "column": sa.column,
                    "kind": "numeric" if isinstance(sa, NumericSA) else "categorical",
                    "l": config.l_of(attr),
                    "bucket_k": config.bucket_k_of(attr),
                    "bound": config.bound(attr) if config.profile == "safe" else None,
                    "buckets": buckets.buckets,
                    "generalized_cells": buckets.generalized_cells,
                    "root_repeats": buckets.root_repeats,
                    "raw_repeats": buckets.raw_repeats,
                }
            )
        return {
            "mode": "personalized",
            "reference": REFERENCE,
            "profile": config.profile,
            "k": config.k,
            "sensitivity_threshold": config.sensitivity_threshold,
            "weight_step": config.published_weight_step,
            "seeded": config.seed is not None,
            "consent_column": config.consent_column,
            "source_rows": self.consent.source_rows,
            "published_rows": self.consent.consenting_rows,
            "withheld_rows": self.consent.withheld_rows,
            "suppression_ratio": self.consent.suppression_ratio,
            "absence_risk": ABSENCE_RISK,
            "groups": self.grouping.groups,
            "sensitive": attributes,
        }


@dataclass(frozen=True)
class PersonalizedRelease:
    """A release made by :func:`publish_personalized`: its decisions, the violations of each
    check (all zero when published), the relations created and the time taken."""

    decisions: Decisions
    violations: Mapping[str, int]
    published: PublishedTables
    seconds: float

    @property
    def config(self) -> PersonalizedConfig:
        return self.decisions.config

    @property
    def consent(self) -> ConsentCounts:
        return self.decisions.consent

    @property
    def frequencies(self) -> LabelFrequencies:
        return self.decisions.frequencies

    @property
    def grouping(self) -> Grouping:
        return self.decisions.grouping

    @property
    def bucketing(self) -> Bucketing:
        return self.decisions.bucketing

    def certificate(self) -> dict[str, Any]:
        """The decisions' certificate fields with the checks' result."""
        return {
            **self.decisions.certificate(),
            "checks": dict(self.violations),
            "verified": not any(self.violations.values()),
        }


def decide(
    engine: Engine, source: Relation, config: PersonalizedConfig, work: WorkTables, keys: Mixers
) -> Decisions:
    """The decisions over ``source`` (consent filter and fuzzy terms, QID groups, buckets),
    left in ``work``'s tables (its schema must exist).

    Raises :class:`~anonsql.errors.SpecError` on unusable data (NULLs, values outside a
    taxonomy) and :class:`~anonsql.errors.InfeasibleError` when k or l cannot hold.
    """
    consent = prepare_rows(engine, source, config, work)
    rows = consent.consenting_rows
    frequencies = label_frequencies(engine, config, work)
    check_global_diversity(config, frequencies, rows)
    grouping = group_rows(engine, config, work)
    bucketing = bucketize(engine, config, work, rows, keys)
    return Decisions(config, work, consent, frequencies, grouping, bucketing)


def publish_personalized(
    engine: Engine,
    source: Relation,
    config: PersonalizedConfig,
    work: WorkTables,
    target: PublishedTables,
) -> PersonalizedRelease:
    """Run the pipeline on ``source`` and create the relations of ``target``.

    Raises what :func:`decide` raises, and :class:`~anonsql.errors.VerificationError` (nothing
    created at ``target``) when a check of the profile finds violations.
    """
    start = time.perf_counter()
    keys = mixers(config.seed)
    engine.ensure_schema(work.schema)
    decisions = decide(engine, source, config, work, keys)
    stage(engine, config, work, decisions.bucketing.cells, keys)
    violations = run_checks(engine, config, work)
    if any(violations.values()):
        raise VerificationError({k: v for k, v in violations.items() if v})
    create_published(engine, config, work, target, keys)
    return PersonalizedRelease(
        decisions=decisions,
        violations=violations,
        published=target,
        seconds=time.perf_counter() - start,
    )


def drop_work(engine: Engine, work: WorkTables, rounds: int = 0) -> None:
    """Drop this mode's working tables (those that exist) of a run with ``rounds`` climbing
    rounds."""
    for table in work.all(rounds):
        engine.drop(table)
