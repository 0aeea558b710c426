"""The algorithm interface.

An algorithm reads aggregates from the engine and makes decisions only: which rows form which
partition (equivalence class to be) and which partitions are suppressed. It leaves two tables
in the run's working schema:

* ``rows``: the working table (``pid``, coded quasi-identifiers ``q<i>``, coded sensitive
  values ``s<j>``) with each row's final partition id;
* ``parts``: one row per partition: ``pid``, ``n``, ``suppressed`` and, per dimension, the
  partition's tight generalization: ``lo<i>``/``hi<i>`` for numeric ones, ``node<i>`` (the
  lowest common ancestor's node id) for categorical ones.

and returns a frozen :class:`Partitioning`. Everything after that (labels, publishing,
verification, metrics) is shared by all algorithms of a release layout.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError

from anonsql.privacy.base import PrivacyModel
from anonsql.spec.errors import spec_error
from anonsql.workspace import Workspace

#: Called with a one-line status message during long steps.
ProgressCallback = Callable[[str], None]


class Options(BaseModel):
    """Base of every algorithm's options: unknown keys are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# Inside Algorithm the name ``Options`` is the class attribute, not this class.
OptionsBase = Options


@dataclass(frozen=True)
class Partitioning:
    """What an algorithm decided and how its search went, for the certificate and benchmarks.

    ``facts`` holds what a release layout publishes about the search (e.g. the number of 1:M
    fingerprint buckets).
    """

    partitions: int
    suppressed_rows: int
    suppressed_partitions: int
    rounds: int
    statements: int
    statements_per_round: tuple[int, ...] = ()
    facts: Mapping[str, Any] = field(default_factory=dict)


class Algorithm(ABC):
    """Base class of anonymization algorithms.

    Subclasses declare ``name`` (the spec's ``algorithm:`` value), ``Options``, ``reference``
    (the paper), whether they anonymize 1:M data (``person_level``) and the release ``layout``
    they leave tables for, and implement :meth:`partition`. They must keep per-row data in the
    engine and issue a number of statements per round that does not depend on the number of
    partitions. An algorithm that enforces only some models says so in :meth:`check_models`,
    by the models' declarations (never their classes).
    """

    name: ClassVar[str]
    Options: ClassVar[type[OptionsBase]] = OptionsBase
    reference: ClassVar[str] = ""
    #: Whether the algorithm anonymizes 1:M data (a spec with ``person_id``) rather than one
    #: row per individual.
    person_level: ClassVar[bool] = False
    #: The release layout (``anonsql.layouts``) that publishes what the algorithm leaves.
    layout: ClassVar[str] = "record"

    def __init__(self, options: OptionsBase) -> None:
        self.options = options

    @classmethod
    def from_spec(cls, raw: Mapping[str, Any]) -> Algorithm:
        try:
            options = cls.Options.model_validate(dict(raw))
        except ValidationError as err:
            allowed = ", ".join(cls.Options.model_fields) or "(none)"
            raise spec_error(
                err, prefix=f"algorithm.{cls.name}", fix=f"options are: {allowed}"
            ) from None
        return cls(options)

    def check_models(self, models: Sequence[PrivacyModel]) -> None:
        """Refuse, with a SpecError keyed ``privacy[i]``, models this algorithm cannot enforce."""

    @abstractmethod
    def partition(self, workspace: Workspace, progress: ProgressCallback) -> Partitioning:
        """Partition ``workspace.work('rows')`` and write ``workspace.work('parts')``."""
