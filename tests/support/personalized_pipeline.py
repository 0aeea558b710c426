"""Personalized publishing in one call, outside the run's spine: the decisions, the staging, the
profile's checks and the published relations over working tables and targets the test names,
so tests can look at the private working tables (Reddy, Raju, Valli Kumari, IJET 2018)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from anonsql.algorithms.personalized.buckets import Bucketing
from anonsql.algorithms.personalized.clustering import Grouping
from anonsql.algorithms.personalized.config import PersonalizedConfig
from anonsql.algorithms.personalized.decisions import Decisions, decide
from anonsql.algorithms.personalized.mixing import mixers
from anonsql.algorithms.personalized.names import PublishedTables, WorkTables
from anonsql.algorithms.personalized.prepare import ConsentCounts, LabelFrequencies
from anonsql.engines.base import Engine
from anonsql.errors import VerificationError
from anonsql.layouts.personalized.checks import run_checks
from anonsql.layouts.personalized.publish import create_published, stage
from anonsql.sql import Relation


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
