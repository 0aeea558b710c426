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


def run(spec: Spec, engine: Engine, progress: ProgressCallback) -> RunResult:
    """Anonymize ``spec.source`` and publish the verified, measured, certified release.

    Every failure leaves the previous release as it was and drops the run's working tables.
    """
    started = time.perf_counter()
    try:
        progress("validating the spec against the database")
        resolved = resolve(spec, engine)
        hierarchies = load_hierarchies(engine, spec, resolved.source, resolved.hierarchy_columns)
        with prepared(resolved, hierarchies, engine) as workspace:
            progress(f"partitioning {workspace.rows} rows with {resolved.algorithm.name}")
            partitioning = resolved.algorithm.partition(workspace, progress)
            progress("publishing and verifying")
            staged = stage(resolved, workspace, partitioning)
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
                attacks = attack(release)
                measurement = measure(release)
                certificate = certify(release, verification, measurement, started, attacks)
        return report(release, verification, measurement, certificate)
    except KeyboardInterrupt:
        raise InterruptedRun(
            "interrupted; nothing was published and the previous output is intact"
        ) from None
