"""Releases as versions: each publish keeps, privately, what analysts were shown, and a new
version is certified against the versions before it (docs/releases.md)."""

from anonsql.versions.delta import Delta, Versioning, versioning
from anonsql.versions.names import VersionNames

__all__ = ["Delta", "VersionNames", "Versioning", "versioning"]
