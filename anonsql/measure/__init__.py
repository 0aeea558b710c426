"""The measure step: every registered metric computed by SQL on the release, what its
acknowledged columns expose, and the re-identification risk of its source; and the linkage
measures the publish gate runs (:mod:`anonsql.measure.linkage`)."""

from anonsql.measure.exposure import AcknowledgedExposure, LinkedExposure, linked_exposure
from anonsql.measure.linkage import Linkage, release_linkage
from anonsql.measure.measure import (
    Measurement,
    measure,
    metric_context,
    metric_inputs,
    release_context,
)

__all__ = [
    "AcknowledgedExposure",
    "Linkage",
    "LinkedExposure",
    "Measurement",
    "linked_exposure",
    "measure",
    "metric_context",
    "metric_inputs",
    "release_context",
    "release_linkage",
]
