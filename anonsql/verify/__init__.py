"""The verify step: the release re-checked by SQL before it is published."""

from anonsql.verify.status import ReleaseStatus, release_status
from anonsql.verify.verify import Verification, verify

__all__ = ["ReleaseStatus", "Verification", "release_status", "verify"]
