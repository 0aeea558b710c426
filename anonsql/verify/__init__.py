"""The verify step: the release re-checked by SQL before it is published."""

from anonsql.verify.verify import Verification, verify

__all__ = ["Verification", "verify"]
