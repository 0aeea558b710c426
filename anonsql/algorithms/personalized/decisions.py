"""The personalized decisions in order (Reddy, Raju, Valli Kumari, IJET 2018, §3.1 steps 1-9;
digest 002 §3.2 phases 0-7): consent filter and fuzzy terms, QID groups, per-attribute buckets
with taxonomy climbing (:func:`decide`). The release layout (:mod:`anonsql.layouts.personalized`)
stages, checks and publishes them as steps of the run's spine (stage, publish, verify, measure);
nothing is published when a check fails.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from anonsql.algorithms.personalized.buckets import Bucketing, bucketize
from anonsql.algorithms.personalized.clustering import Grouping, group_rows
from anonsql.algorithms.personalized.config import REFERENCE, NumericSA, PersonalizedConfig
from anonsql.algorithms.personalized.mixing import Mixers
from anonsql.algorithms.personalized.names import WorkTables
from anonsql.algorithms.personalized.prepare import (
    ConsentCounts,
    LabelFrequencies,
    check_global_diversity,
    label_frequencies,
    prepare_rows,
)
from anonsql.engines.base import Engine
from anonsql.sql import Relation

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
