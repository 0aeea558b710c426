"""Every method an extension class that anonsql ships overrides keeps the signature it overrides
(ibis's ``test_signatures.py``): same parameter names, kinds and defaults, so code written
against a base (``model.violations_sql(renderer, relation, qids, person=...)``,
``algorithm.partition(workspace, progress)``) works on every subclass, by keyword too.

Covered: the subclasses of the extension bases (privacy models, algorithms, release layouts,
metrics, engines) in anonsql's modules, each method compared with the nearest class above it
that defines it (a shared base in between, or the extension base). Public methods and the
base's abstract ones are compared (``Engine._execute`` is part of the contract; other private
helpers and constructors are not, as in ibis). Types are mypy's business. An override may add
keyword-only parameters with defaults after the base's (:data:`KEYWORD_EXTRAS` lists those
anonsql has, so a new one is a decision, not an accident).
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

import pytest
from package_modules import import_every_module

from anonsql.algorithms.base import Algorithm
from anonsql.engines.base import Engine
from anonsql.layouts.base import Layout
from anonsql.metrics.base import Metric
from anonsql.privacy.base import PrivacyModel

BASES: tuple[type, ...] = (PrivacyModel, Algorithm, Layout, Metric, Engine)

#: Overrides that add keyword-only parameters (``module.Class.method``): none so far.
KEYWORD_EXTRAS: frozenset[str] = frozenset()


def shipped_subclasses(base: type) -> list[type]:
    """Every subclass of ``base`` (at any depth) that anonsql defines, in a stable order."""
    import_every_module()
    found: set[type] = set()
    pending = [base]
    while pending:
        for sub in pending.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                pending.append(sub)
    shipped = [c for c in found if c.__module__.startswith("anonsql.")]
    return sorted(shipped, key=lambda c: (c.__module__, c.__qualname__))


def _unwrap(attribute: Any) -> tuple[str, Any] | None:
    """(kind, function) of a method-like class attribute; None for plain class attributes."""
    if isinstance(attribute, classmethod):
        return "classmethod", attribute.__func__
    if isinstance(attribute, staticmethod):
        return "staticmethod", attribute.__func__
    if isinstance(attribute, property):
        return "property", attribute.fget
    if isinstance(attribute, functools.cached_property):
        return "property", attribute.func
    if inspect.isfunction(attribute):
        return "method", attribute
    return None


def _compared(base: type, name: str) -> bool:
    if name.startswith("__"):
        return False
    return not name.startswith("_") or name in getattr(base, "__abstractmethods__", ())


def mismatches(cls: type, base: type) -> list[str]:
    """How the methods ``cls`` defines differ from those they override (within ``base``'s
    hierarchy)."""
    problems = []
    for name, attribute in vars(cls).items():
        if not _compared(base, name):
            continue
        parent = next((p for p in cls.__mro__[1:] if name in vars(p) and issubclass(p, base)), None)
        if parent is None:
            continue
        inherited = _unwrap(vars(parent)[name])
        if inherited is None:
            continue
        own = _unwrap(attribute)
        where = f"{cls.__qualname__}.{name} (overriding {parent.__qualname__}.{name})"
        if own is None or own[0] != inherited[0]:
            problems.append(f"{where}: a {own[0] if own else 'value'}, not a {inherited[0]}")
            continue
        problems += _signature_problems(
            where, inherited[1], own[1], f"{cls.__module__}.{cls.__qualname__}.{name}"
        )
    return problems


def _signature_problems(where: str, inherited: Any, own: Any, qualified: str) -> list[str]:
    expected = inspect.signature(inherited)
    given = inspect.signature(own)
    names = set(expected.parameters)
    extras = [
        p
        for p in given.parameters.values()
        if p.name not in names and p.kind is p.KEYWORD_ONLY and p.default is not p.empty
    ]
    kept = [p for p in given.parameters.values() if p not in extras]

    def shape(parameters: Any) -> list[tuple[str, Any, Any]]:
        return [(p.name, p.kind, p.default) for p in parameters]

    if shape(kept) != shape(expected.parameters.values()):
        return [f"{where}: {given} where the base has {expected}"]
    if extras and qualified not in KEYWORD_EXTRAS:
        added = ", ".join(str(p) for p in extras)
        return [f"{where}: adds {added}; list it in KEYWORD_EXTRAS if it is meant"]
    return []


CASES = [(base, cls) for base in BASES for cls in shipped_subclasses(base)]


@pytest.mark.parametrize(
    ("base", "cls"), CASES, ids=[f"{b.__name__}-{c.__qualname__}" for b, c in CASES]
)
def test_overrides_keep_the_signature(base: type, cls: type) -> None:
    assert mismatches(cls, base) == []


def test_every_base_has_shipped_subclasses() -> None:
    for base in BASES:
        assert shipped_subclasses(base), base


class _Base:
    def method(self, a: int, /, b: int, *, c: int = 1) -> None: ...

    @property
    def value(self) -> int:
        return 0

    def _private(self, x: int) -> None: ...


class _Renamed(_Base):
    def method(self, a: int, /, renamed: int, *, c: int = 1) -> None: ...


class _Defaulted(_Base):
    def method(self, a: int, /, b: int, *, c: int = 2) -> None: ...


class _Extended(_Base):
    def method(self, a: int, /, b: int, *, c: int = 1, d: int = 0) -> None: ...


class _Positional(_Base):
    def method(self, a: int, /, b: int, d: int = 0, *, c: int = 1) -> None: ...


class _Kind(_Base):
    def value(self) -> int:  # type: ignore[override]
        return 0


class _Private(_Base):
    def _private(self, y: int) -> None: ...


def test_the_comparison_finds_what_it_should() -> None:
    assert any("renamed" in p for p in mismatches(_Renamed, _Base))
    assert any("= 2" in p for p in mismatches(_Defaulted, _Base))
    assert any("KEYWORD_EXTRAS" in p for p in mismatches(_Extended, _Base))
    assert any("where the base has" in p for p in mismatches(_Positional, _Base))
    assert any("not a property" in p for p in mismatches(_Kind, _Base))
    assert mismatches(_Private, _Base) == []
