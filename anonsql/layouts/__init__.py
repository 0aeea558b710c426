"""Release layouts: one row per individual (``record``), 1:M data (``person``), personalized
publishing with several sensitive attributes (``personalized``) and identity-reserved releases
(``identity_reserved``)."""

from anonsql.layouts.base import Layout
from anonsql.layouts.registry import LAYOUTS

__all__ = ["LAYOUTS", "Layout"]
