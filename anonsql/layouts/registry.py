"""Release layouts by name (``Algorithm.layout``); other packages add layouts through the
``anonsql.layouts`` entry-point group."""

from __future__ import annotations

from typing import Any

from anonsql.layouts.base import Layout
from anonsql.layouts.identity_reserved import IdentityReservedLayout
from anonsql.layouts.person import PersonLayout
from anonsql.layouts.record import RecordLayout
from anonsql.registry import Registry

LAYOUTS: Registry[type[Layout[Any]]] = Registry("release layout", group="anonsql.layouts")
for _layout in (RecordLayout, PersonLayout, IdentityReservedLayout):
    LAYOUTS.register(_layout.name, _layout)
LAYOUTS.register_lazy("personalized", "anonsql.layouts.personalized.layout:PersonalizedLayout")
