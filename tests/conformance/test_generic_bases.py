"""The extension bases read a subclass's parameter schema from its type argument
(``PrivacyModel[P]``, ``Algorithm[O]``) into the ``Params`` / ``Options`` class attributes the
registries and ``from_spec`` read; a class that sets the attribute itself (an extension written
before the bases were generic) keeps it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from typing_extensions import TypeVar

from anonsql.algorithms.base import Algorithm, Options, Partitioning, ProgressCallback
from anonsql.algorithms.mondrian import Mondrian, MondrianOptions
from anonsql.algorithms.one_to_many.algorithm import OneToMany, OneToManyOptions
from anonsql.algorithms.workspace import Workspace
from anonsql.arrays import BoolArray
from anonsql.privacy.base import Params, PartStats, PrivacyModel
from anonsql.privacy.registry import PRIVACY_MODELS


class MParams(Params):
    m: int = 1


class OtherParams(Params):
    n: int = 1


class Declared(PrivacyModel[MParams]):
    name = "declared"

    def holds(self, parts: PartStats) -> BoolArray:
        return np.ones(len(parts), dtype=np.bool_)


class Assigned(PrivacyModel):
    """An extension in the style that predates the generic base."""

    name = "assigned"
    Params = MParams

    def holds(self, parts: PartStats) -> BoolArray:
        return np.ones(len(parts), dtype=np.bool_)


MP = TypeVar("MP", bound=MParams, default=MParams, covariant=True)


class Shared(PrivacyModel[MP]):
    def holds(self, parts: PartStats) -> BoolArray:
        return np.ones(len(parts), dtype=np.bool_)


class Inherits(Shared):
    name = "inherits"


def test_the_type_argument_is_the_params_class_attribute() -> None:
    assert Declared.Params is MParams
    model = Declared.from_spec({"m": 3}, key="privacy[0].declared")
    assert isinstance(model.params, MParams) and model.params.m == 3


def test_an_assigned_params_attribute_is_kept() -> None:
    assert Assigned.Params is MParams
    assert Assigned.from_spec({"m": 2}, key="k").parameters() == {"m": 2}


def test_a_type_variable_gives_its_default_to_the_class_and_its_heirs() -> None:
    assert Shared.Params is MParams and Inherits.Params is MParams


def test_two_different_declarations_are_refused() -> None:
    with pytest.raises(TypeError, match="name the schema once"):

        class Both(PrivacyModel[MParams]):
            name = "both"
            Params = OtherParams

            def holds(self, parts: PartStats) -> BoolArray:
                return np.ones(len(parts), dtype=np.bool_)


def test_shipped_models_and_algorithms_declare_their_schemas() -> None:
    for name, cls in PRIVACY_MODELS.items():
        assert issubclass(cls.Params, Params) and cls.Params is not Params, name
    assert Mondrian.Options is MondrianOptions
    assert OneToMany.Options is OneToManyOptions


class Bare(Algorithm):
    name = "bare"

    def partition(self, workspace: Workspace, progress: ProgressCallback) -> Partitioning:
        raise NotImplementedError


class WithOptions(Algorithm[MondrianOptions]):
    name = "with_options"

    def partition(self, workspace: Workspace, progress: ProgressCallback) -> Partitioning:
        raise NotImplementedError


def test_algorithm_options_follow_the_same_rule() -> None:
    assert Bare.Options is Options
    assert WithOptions.Options is MondrianOptions
    raw: dict[str, Any] = {"split": "widest"}
    algorithm = WithOptions.from_spec(raw)
    assert isinstance(algorithm.options, MondrianOptions) and algorithm.options.split == "widest"
