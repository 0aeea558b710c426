"""The spine of a run: DESIGN's steps in order, each a function of its own module taking the
frozen result of the steps before it.

    spec -> resolve -> hierarchies -> prepare -> algorithm -> stage
         -> publish -> verify -> attack -> measure -> certify (inside the swap) -> report
"""

from __future__ import annotations

import time

from anonsql.algorithms import ProgressCallback
from anonsql.attacks import attack
from anonsql.certify import certify
from anonsql.engines import Engine
from anonsql.hierarchies import load_hierarchies
from anonsql.interrupts import Published, handled
from anonsql.measure.measure import measure
from anonsql.prepare import prepared
from anonsql.publish import publish, swap_for
from anonsql.publish.versions import record_unversioned, staged_for
from anonsql.report import RunResult, report
from anonsql.resolve import resolve
from anonsql.spec import Spec
from anonsql.spec.output import OutputNames
from anonsql.stage import stage
from anonsql.verify import verify
from anonsql.versions import versioning


def run(
    spec: Spec, engine: Engine, progress: ProgressCallback, *, replace: bool = False
) -> RunResult:
    """Anonymize ``spec.source`` and publish the verified, measured, certified release: the
    next version of a versioned release (:mod:`anonsql.versions`); ``replace`` drops its
    history first.

    Every failure leaves the previous release as it was and drops the run's working tables. A
    signal (SIGINT, SIGTERM) ends the run with :class:`InterruptedRun`, whose message says
    whether the release was published: the swap's commit and the record of it are one step
    that a signal waits for (:mod:`anonsql.interrupts`).
    """
    started = time.perf_counter()
    with handled() as interrupts, engine.run_settings():
        interrupts.published = None
        try:
            progress("validating the spec against the database")
            resolved = resolve(spec, engine)
            columns = resolved.hierarchy_columns
            hierarchies = load_hierarchies(engine, spec, resolved.source, columns)
            # the working tables are dropped however the run ends, a second signal included
            with (
                interrupts.leaving_deferred(
                    versioning(resolved, engine, replace=replace)
                ) as versions,
                interrupts.leaving_deferred(
                    prepared(versions.resolved, hierarchies, engine, versions.run_id)
                ) as workspace,
            ):
                partitioning = versions.partition(workspace, progress)
                progress("publishing and verifying")
                staged = staged_for(stage(versions.resolved, workspace, partitioning), versions)
                names = OutputNames(resolved.output, spec.output.private_schema)
                swap = swap_for(
                    engine,
                    names,
                    workspace.run_id,
                    roles=spec.output.grants,
                    granted=staged.layout.granted,
                )
                published = Published(str(names.main), workspace.run_id)

                def committed() -> None:
                    interrupts.published = published

                # the commit point: leaving the swap commits the release (or rolls it back),
                # and a signal waits until that is done and recorded
                with interrupts.leaving_deferred(swap.open(), on_success=committed) as built:
                    release = publish(staged, built)
                    verification = verify(release)
                    attacks = attack(release)
                    measurement = measure(release)
                    certificate = certify(
                        release,
                        verification,
                        measurement,
                        started,
                        attacks,
                        history="replaced" if replace else None,
                    )
                    record_unversioned(release, versions)
            return report(release, verification, measurement, certificate)
        except KeyboardInterrupt:
            raise interrupts.interrupted(
                "nothing was published and the previous release is intact"
            ) from None
