"""Release layouts: one row per individual (``record``), 1:M data (``person``) and
identity-reserved releases (``identity_reserved``)."""

from anonsql.layouts.base import Layout
from anonsql.layouts.registry import LAYOUTS

__all__ = ["LAYOUTS", "Layout"]
