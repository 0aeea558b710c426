"""Release layouts: one row per individual (``record``) and 1:M data (``person``)."""

from anonsql.layouts.base import Layout
from anonsql.layouts.registry import LAYOUTS

__all__ = ["LAYOUTS", "Layout"]
