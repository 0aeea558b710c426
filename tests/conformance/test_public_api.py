"""The public API is what the docs say (httpx's ``test_exported_members``): every name in
``anonsql.__all__`` is the object its home module defines, also once every module of the package
is imported (a subpackage named like a function would shadow it: ``from anonsql import plan``
once gave the module), each is listed in the package docstring, and ``anonsql.api.__all__``
names every public function ``anonsql.api`` defines."""

from __future__ import annotations

import importlib
import inspect
import types

import pytest
from package_modules import import_every_module

import anonsql
from anonsql import api


def test_every_exported_name_is_its_home_modules_object() -> None:
    import_every_module()
    homes = anonsql._WHERE  # name -> home module, what the lazy loader imports from
    assert set(anonsql.__all__) == {*homes, "__version__"}
    for name in homes:
        member = getattr(anonsql, name)
        assert not isinstance(member, types.ModuleType), f"anonsql.{name} is a module"
        assert member is getattr(importlib.import_module(homes[name]), name), name
        found: dict[str, object] = {}
        exec(f"from anonsql import {name} as imported", {}, found)
        assert found["imported"] is member, name


@pytest.mark.parametrize("name", sorted(anonsql._WHERE))
def test_every_exported_name_is_documented(name: str) -> None:
    assert anonsql.__doc__ is not None and name in anonsql.__doc__
    member = getattr(anonsql, name)
    if callable(member):
        assert member.__doc__, f"anonsql.{name} has no docstring"


def test_api_all_names_every_public_function() -> None:
    defined = {
        name
        for name, value in vars(api).items()
        if not name.startswith("_")
        and inspect.isfunction(value)
        and value.__module__ == api.__name__
    }
    assert defined <= set(api.__all__), sorted(defined - set(api.__all__))
    assert all(hasattr(api, name) for name in api.__all__)


def test_unknown_names_raise() -> None:
    with pytest.raises(AttributeError):
        _ = anonsql.no_such_name  # the module's __getattr__ raises
