"""The type argument an extension class declares for its generic base.

``class KAnonymity(PrivacyModel[KAnonymityParams])`` names its parameter schema once, in the
base; the bases read it back here at class creation to set the class attributes the registries,
``from_spec`` and the dbt generator read (``Params``, ``Options``).
"""

from __future__ import annotations

import typing


def type_argument(cls: type, base: type) -> type | None:
    """The class ``cls`` gives the type parameter of ``base`` in its own bases: ``A`` for
    ``class C(Base[A])`` or ``class C(Sub[A])`` (``Sub`` a generic subclass of ``Base``), the type
    variable's default for ``class C(Sub[T])``; None when ``cls`` names no argument (a plain
    ``class C(Base)`` inherits what its base has)."""
    for declared in cls.__dict__.get("__orig_bases__", ()):
        origin = typing.get_origin(declared)
        if not (isinstance(origin, type) and issubclass(origin, base)):
            continue
        (argument,) = typing.get_args(declared)
        if isinstance(argument, type):
            return argument
        default = getattr(argument, "__default__", None)
        if isinstance(default, type):
            return default
    return None


def bind_schema(cls: type, base: type, attribute: str, noun: str) -> None:
    """Set ``cls.<attribute>`` (``Params``, ``Options``) to the schema ``cls`` names as the type
    argument of ``base``; a class that also assigns the attribute by hand must assign the same
    class, or it is refused (a TypeError at import: two names for one schema would drift)."""
    declared = type_argument(cls, base)
    if declared is None:
        return
    given = cls.__dict__.get(attribute, declared)
    if given is not declared:
        raise TypeError(
            f"{cls.__name__} declares {attribute} = {given.__name__} but {noun} "
            f"{declared.__name__}: name the schema once, as the type argument"
        )
    setattr(cls, attribute, declared)
