"""The spine of a run: DESIGN's steps in order, each a function of its own module taking the
frozen result of the steps before it.

    spec -> resolve -> hierarchies -> prepare -> algorithm -> stage
         -> publish -> verify -> measure -> certify (inside the swap) -> report
"""

from __future__ import annotations

import time

from anonsql.algorithms import ProgressCallback
from anonsql.certify import certify
from anonsql.engines import Engine
from anonsql.errors import InterruptedRun
from anonsql.hierarchies import load_hierarchies
from anonsql.measure.measure import measure
from anonsql.prepare import prepared
from anonsql.publish import publish, swap_for
from anonsql.report import RunResult, report
from anonsql.resolve import resolve
from anonsql.spec import Spec
from anonsql.spec.output import OutputNames
from anonsql.stage import stage
from anonsql.verify import verify
from anonsql.versions import partition, versioning
from anonsql.versions.publish import record_unversioned, staged_for


def run(
    spec: Spec, engine: Engine, progress: ProgressCallback, *, replace: bool = False
) -> RunResult:
    """Anonymize ``spec.source`` and publish the verified, measured, certified release: the
    next version of a versioned release (:mod:`anonsql.versions`); ``replace`` drops its
    history first.

    Every failure leaves the previous release as it was and drops the run's working tables.
    """
    started = time.perf_counter()
    try:
        progress("validating the spec against the database")
        resolved = resolve(spec, engine)
        hierarchies = load_hierarchies(engine, spec, resolved.source, resolved.hierarchy_columns)
        with (
            versioning(resolved, engine, replace=replace) as versions,
            prepared(versions.resolved, hierarchies, engine, versions.run_id) as workspace,
        ):
            partitioning = partition(versions, workspace, progress)
            progress("publishing and verifying")
            staged = staged_for(stage(versions.resolved, workspace, partitioning), versions)
            swap = swap_for(
                engine,
                OutputNames(resolved.output, spec.output.private_schema),
                workspace.run_id,
                roles=spec.output.grants,
                granted=staged.layout.granted,
            )
            with swap.open() as built:
                release = publish(staged, built)
                verification = verify(release)
                measurement = measure(release)
                certificate = certify(release, verification, measurement, started)
                record_unversioned(release, versions)
        return report(release, verification, measurement, certificate)
    except KeyboardInterrupt:
        raise InterruptedRun(
            "interrupted; nothing was published and the previous output is intact"
        ) from None
