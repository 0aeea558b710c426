"""The measure step: every registered metric computed by SQL on the release, what its unchanged
columns expose, and the re-identification risk of its source."""

from anonsql.measure.measure import (
    ColumnExposure,
    Measurement,
    measure,
    metric_context,
    metric_inputs,
    release_context,
)

__all__ = [
    "ColumnExposure",
    "Measurement",
    "measure",
    "metric_context",
    "metric_inputs",
    "release_context",
]
