"""A published release: its names and the one reader of what it holds."""

from anonsql.release.names import COMPANIONS, GENERALIZED_SUFFIX, OutputNames
from anonsql.release.reader import (
    PublishedRelease,
    is_published,
    person_facts,
    read_certificate,
    read_release,
)

__all__ = [
    "COMPANIONS",
    "GENERALIZED_SUFFIX",
    "OutputNames",
    "PublishedRelease",
    "is_published",
    "person_facts",
    "read_certificate",
    "read_release",
]
