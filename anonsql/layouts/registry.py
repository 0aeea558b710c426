"""Release layouts by name (``Algorithm.layout``); other packages add layouts through the
``anonsql.layouts`` entry-point group."""

from __future__ import annotations

from typing import Any

from anonsql.layouts.base import Layout
from anonsql.layouts.record import RecordLayout
from anonsql.registry import Registry

LAYOUTS: Registry[type[Layout[Any]]] = Registry("release layout", group="anonsql.layouts")
LAYOUTS.register(RecordLayout.name, RecordLayout)
# lazy: a run loads the layout its algorithm publishes (and that layout's privacy models) only
LAYOUTS.register_lazy("person", "anonsql.layouts.person:PersonLayout")
LAYOUTS.register_lazy(
    "identity_reserved", "anonsql.layouts.identity_reserved:IdentityReservedLayout"
)
LAYOUTS.register_lazy("personalized", "anonsql.layouts.personalized.layout:PersonalizedLayout")
