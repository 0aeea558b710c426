"""The publish step and the swap strategies that make a verified release the published one."""

from anonsql.publish.publish import BuiltRelease, publish
from anonsql.publish.swap import Swap, TransactionalSwap, VersionedSwap, swap_for

__all__ = [
    "BuiltRelease",
    "Swap",
    "TransactionalSwap",
    "VersionedSwap",
    "publish",
    "swap_for",
]
