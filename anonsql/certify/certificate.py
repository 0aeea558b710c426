"""The certify step: the release's certificate (what was published from what, under which
models, verified how, at what cost) written beside it as ``__certificate``."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

import anonsql
from anonsql import arrow
from anonsql.attacks import Attacks
from anonsql.measure.measure import Measurement
from anonsql.metrics.workload import FIELD as WORKLOAD_FIELD
from anonsql.metrics.workload import certificate_field as workload_field
from anonsql.publish import BuiltRelease
from anonsql.verify import Verification

#: What a live view allows (``materialize: live``), stated in its certificate.
LIVE_VIEW_RISK = (
    "the view follows the source: an analyst who keeps a snapshot and compares it after a "
    "change learns the rows inserted, deleted or updated since, sensitive values included "
    "(docs/security.md, Live views)"
)


@dataclass(frozen=True)
class Certificate:
    """The certificate's fields, as written to ``__certificate`` (one row)."""

    fields: Mapping[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]


def certify(
    release: BuiltRelease,
    verification: Verification,
    measurement: Measurement,
    started: float,
    attacks: Attacks | None = None,
    history: str | None = None,
) -> Certificate:
    """Write the certificate of a verified, measured release; ``started`` is the run's
    ``time.perf_counter()`` at its start; ``attacks``: the attack step's results (the
    ``attacks`` field, read back by :func:`anonsql.attacks.attack_results`); ``history``:
    ``"replaced"`` when ``--replace`` dropped the previous release's history (a versioned
    layout records its own)."""
    resolved, partitioning = release.staged.resolved, release.staged.partitioning
    spec = resolved.spec
    fields: dict[str, Any] = {
        "run_id": release.staged.workspace.run_id,
        "created_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "anonsql_version": anonsql.__version__,
        "source": str(resolved.source),
        "output": str(resolved.output),
        "materialize": spec.output.materialize,
        "quasi_identifiers": json.dumps(resolved.qids),
        "sensitive": json.dumps(resolved.sensitive_columns),
        "models": json.dumps([{m.name: m.parameters()} for m in resolved.models]),
        "algorithm": spec.algorithm_name,
        "algorithm_options": json.dumps(spec.algorithm_options, sort_keys=True),
        "verified": verification.check.holds,
        "violations": json.dumps(dict(verification.check.violations)),
        "source_rows": resolved.rows,
        "published_rows": verification.published_rows,
        "suppressed_rows": partitioning.suppressed_rows,
        "suppression_limit": spec.suppression_limit,
        "classes": int(measurement.value("classes")),
        "ncp_percent": measurement.value("ncp"),
        "dropped_columns": json.dumps(list(resolved.dropped)),
        "private_schema": release.names.private,
        # what the linkage gate read, and what acknowledged columns expose
        # (anonsql.measure.exposure documents the shape)
        "linked_columns": measurement.linked.as_json(),
        # what k counts: persons (by which column), or rows and why that is fine or
        # acknowledged
        "counts": resolved.counts.as_json(),
        # no checksum of the source: it would confirm a guessed value by difference (the
        # private __versions table keeps it for `anonsql status`)
        "live_view": spec.output.materialize == "live",
        "live_view_risk": LIVE_VIEW_RISK if spec.output.materialize == "live" else None,
        "spec_sha256": hashlib.sha256(spec.canonical_json().encode()).hexdigest(),
        "seconds": round(time.perf_counter() - started, 3),
        # re-identification risk of the source (the release's is in __metrics, risk.*)
        "source_risk": json.dumps(dict(measurement.source_risk)),
        "risk_settings": json.dumps(dict(measurement.risk_settings)),
        "attacks": attacks.as_json() if attacks is not None else "[]",
        "history": history,
    }
    if resolved.workload:
        # each workload query's error on this release (anonsql.metrics.workload); absent
        # without a workload, so such certificates read as before it existed
        fields[WORKLOAD_FIELD] = workload_field(resolved.workload, measurement.metrics)
    fields.update(release.layout.certificate_fields())
    # a field without a value is a text NULL: pyarrow's null type would load pandas, and Spark
    # cannot store a column of it
    columns = {
        name: [value] if value is not None else arrow.array([None], pa.string())
        for name, value in fields.items()
    }
    release.engine.load_arrow(release.built.certificate, arrow.table(columns))
    return Certificate(fields)
