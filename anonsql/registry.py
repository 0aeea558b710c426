"""A name -> implementation registry shared by engines, privacy models, algorithms, metrics and
release layouts, and the one did-you-mean helper every "unknown name" message uses.

An entry is registered eagerly (the object itself) or lazily (``"module:attribute"``, imported on
first use, so heavy drivers load only when asked for). Third-party packages add entries through
entry points in the registry's group (e.g. ``anonsql.privacy_models``), read the first time the
registry is consulted::

    [project.entry-points."anonsql.privacy_models"]
    my_model = "my_package.models:MyModel"
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import importlib
import threading
from collections.abc import Iterable, Iterator
from importlib import metadata
from typing import Any, Generic, TypeVar

T = TypeVar("T")


@functools.cache
def _installed_entry_points() -> Any:
    """Every installed package's entry points (``EntryPoints``; before Python 3.12 a
    ``SelectableGroups``: both ``select(group=...)``), read once per process: each read walks
    every installed distribution, and a run consults five registries."""
    return metadata.entry_points()


def entry_points_of(group: str) -> list[metadata.EntryPoint]:
    """The installed entry points of one group."""
    return list(_installed_entry_points().select(group=group))


def suggestion(name: str, candidates: Iterable[str]) -> str | None:
    """``did you mean 'x'?`` for the closest candidate, or None."""
    close = difflib.get_close_matches(name, list(candidates), n=1)
    return f"did you mean {close[0]!r}?" if close else None


class Registry(Generic[T]):
    """Refuses duplicate names and suggests the closest name on a typo."""

    def __init__(self, kind: str, group: str | None = None) -> None:
        self.kind = kind
        #: The entry-point group third-party packages register under.
        self.group = group
        self._items: dict[str, T] = {}
        self._lazy: dict[str, str] = {}
        # runs in threads resolve entries at once: one imports, the others wait for it
        self._importing = threading.RLock()
        self._entry_points_read = group is None

    def register(self, name: str, item: T) -> T:
        self._refuse_duplicate(name)
        self._items[name] = item
        return item

    def register_lazy(self, name: str, target: str) -> None:
        """Register ``"module:attribute"``, imported when the entry is first used."""
        self._refuse_duplicate(name)
        self._lazy[name] = target

    def unregister(self, name: str) -> None:
        self._items.pop(name, None)
        self._lazy.pop(name, None)

    @contextlib.contextmanager
    def temporarily(self, name: str, item: T) -> Iterator[T]:
        """Register ``item`` for the duration of a ``with`` block (tests, plugins)."""
        self.register(name, item)
        try:
            yield item
        finally:
            self.unregister(name)

    def _refuse_duplicate(self, name: str) -> None:
        if name in self._items or name in self._lazy:
            raise ValueError(f"{self.kind} {name!r} is already registered")

    def _read_entry_points(self) -> None:
        if self._entry_points_read:
            return
        self._entry_points_read = True
        assert self.group is not None
        for point in entry_points_of(self.group):
            if point.name not in self._items and point.name not in self._lazy:
                self._lazy[point.name] = point.value

    def get(self, name: str) -> T:
        self._read_entry_points()
        with self._importing:
            if name in self._lazy:
                module, _, attribute = self._lazy[name].partition(":")
                self._items[name] = getattr(importlib.import_module(module), attribute)
                del self._lazy[name]
        try:
            return self._items[name]
        except KeyError:
            raise KeyError(self.unknown_message(name)) from None

    def unknown_message(self, name: str) -> str:
        hint = suggestion(name, self.names())
        return f"unknown {self.kind} {name!r}{'; ' + hint if hint else ''} (known: " + (
            ", ".join(self.names()) + ")"
        )

    def __contains__(self, name: object) -> bool:
        self._read_entry_points()
        return name in self._items or name in self._lazy

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def names(self) -> list[str]:
        self._read_entry_points()
        return sorted({*self._items, *self._lazy})

    def items(self) -> list[tuple[str, T]]:
        """Every entry, loaded (lazy ones are imported)."""
        return [(name, self.get(name)) for name in self.names()]
