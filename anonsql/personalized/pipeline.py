"""The personalized pipeline in order (Reddy, Raju, Valli Kumari, IJET 2018, §3.1 steps 1-12;
digest 002 §3.2 phases 0-8): consent filter and fuzzy terms, QID groups, per-attribute buckets
with taxonomy climbing, staging, the profile's checks, then the published relations.

:func:`publish_personalized` is the thin entry point the run's orchestration calls with a source
relation, a validated :class:`PersonalizedConfig`, the run's working tables and the publish
targets; it publishes nothing when a check fails. The caller owns the working schema
(:func:`drop_work` drops this mode's tables) and the transaction / swap around the targets.
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
from anonsql.personalized.mixing import mixers
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


@dataclass(frozen=True)
class PersonalizedRelease:
    """What a personalized run did: consent counts (for the certificate: withheld rows are
    never published, and their absence is itself a disclosure), label frequencies, the groups,
    the buckets, the violations of each check (all zero when published) and the time taken."""

    config: PersonalizedConfig
    consent: ConsentCounts
    frequencies: LabelFrequencies
    grouping: Grouping
    bucketing: Bucketing
    violations: Mapping[str, int]
    published: PublishedTables
    seconds: float

    def certificate(self) -> dict[str, Any]:
        """What the release's certificate records (JSON-ready; never a data value, never the
        seed: a known seed makes the shuffles predictable)."""
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
            "checks": dict(self.violations),
            "verified": not any(self.violations.values()),
        }


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


def publish_personalized(
    engine: Engine,
    source: Relation,
    config: PersonalizedConfig,
    work: WorkTables,
    target: PublishedTables,
) -> PersonalizedRelease:
    """Run the pipeline on ``source`` and create the relations of ``target``.

    Raises :class:`~anonsql.errors.SpecError` on unusable data (NULLs, values outside a
    taxonomy), :class:`~anonsql.errors.InfeasibleError` when k or l cannot hold, and
    :class:`~anonsql.errors.VerificationError` (nothing created at ``target``) when a check of
    the profile finds violations.
    """
    start = time.perf_counter()
    keys = mixers(config.seed)
    engine.ensure_schema(work.schema)
    consent = prepare_rows(engine, source, config, work)
    rows = consent.consenting_rows
    frequencies = label_frequencies(engine, config, work)
    check_global_diversity(config, frequencies, rows)
    grouping = group_rows(engine, config, work)
    bucketing = bucketize(engine, config, work, rows, keys)
    stage(engine, config, work, bucketing.cells, keys)
    violations = run_checks(engine, config, work)
    if any(violations.values()):
        raise VerificationError({k: v for k, v in violations.items() if v})
    create_published(engine, config, work, target, keys)
    return PersonalizedRelease(
        config=config,
        consent=consent,
        frequencies=frequencies,
        grouping=grouping,
        bucketing=bucketing,
        violations=violations,
        published=target,
        seconds=time.perf_counter() - start,
    )


def drop_work(engine: Engine, work: WorkTables, rounds: int = 0) -> None:
    """Drop this mode's working tables (those that exist) of a run with ``rounds`` climbing
    rounds."""
    for table in work.all(rounds):
        engine.drop(table)
