"""``anonsql init`` runs the spec it proposes: the whole pipeline, gate and attacks included,
into scratch schemas it drops afterwards, so nothing is published where analysts look.

The run is :func:`anonsql.pipeline.run` itself (what ``anonsql run`` calls) on a copy of the
spec whose ``output`` names two fresh schemas (``anonsql_init_<random>`` and its ``_private``
twin): the same resolve step, search, verification, linkage gate
(:mod:`anonsql.measure.linkage`), attack step (:mod:`anonsql.attacks.step`), measures and
certificate as ``anonsql run`` on the spec as written; the schemas are dropped however the run
ends. It works on every engine that runs
specs (on a transactional engine a refused run leaves nothing; a passing one is dropped).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from anonsql import pipeline
from anonsql.attacks.step import AttackRefused
from anonsql.engines import Engine
from anonsql.errors import AnonsqlError
from anonsql.report import RunResult
from anonsql.resolve.linked import LinkageError
from anonsql.spec import spec_from_mapping

#: Prefix of the scratch schemas a trial publishes into.
SCRATCH_PREFIX = "anonsql_init_"


@dataclass(frozen=True)
class Trial:
    """How a proposed spec fared: the run's result, or the error that refused it."""

    result: RunResult | None = None
    error: AnonsqlError | None = None

    @property
    def passes(self) -> bool:
        return self.result is not None and bool(self.result.certificate.get("verified"))

    @property
    def linkage(self) -> LinkageError | None:
        return self.error if isinstance(self.error, LinkageError) else None

    @property
    def attacks(self) -> AttackRefused | None:
        return self.error if isinstance(self.error, AttackRefused) else None


def _quiet(message: str) -> None:
    del message


def trial_run(engine: Engine, spec: Mapping[str, Any]) -> Trial:
    """Run ``spec`` (a mapping, ``output.name`` kept) into scratch schemas, then drop them."""
    schema = SCRATCH_PREFIX + uuid.uuid4().hex[:12]
    private = schema + "_private"
    output = {**spec["output"], "schema": schema, "private_schema": private, "grants": []}
    scratch = {**spec, "output": output}
    try:
        result = pipeline.run(spec_from_mapping(scratch), engine, _quiet)
    except AnonsqlError as error:
        return Trial(error=error)
    finally:
        for name in (schema, private):
            engine.run("drop_schema", schema=name)
    return Trial(result=result)
