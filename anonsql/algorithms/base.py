"""The algorithm interface.

An algorithm reads aggregates from the engine and makes decisions only: which rows form which
partition (equivalence class to be) and which partitions are suppressed. It leaves two tables
in the run's working schema:

* ``rows``: the working table (``pid``, coded quasi-identifiers ``q<i>``, coded sensitive
  values ``s<j>``) with each row's final partition id;
* ``parts``: one row per partition: ``pid``, ``n``, ``suppressed`` and, per dimension, the
  partition's tight generalization: ``lo<i>``/``hi<i>`` for numeric ones, ``node<i>`` (the
  lowest common ancestor's node id) for categorical ones.

Everything after that (labels, publishing, verification, metrics) is shared by all algorithms.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError

from anonsql.errors import SpecError
from anonsql.pipeline.job import Job

#: Called with a one-line status message during long steps.
ProgressCallback = Callable[[str], None]


class Options(BaseModel):
    """Base of every algorithm's options: unknown keys are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# Inside Algorithm the name ``Options`` is the class attribute, not this class.
OptionsBase = Options


@dataclass
class PartitionSummary:
    """What an algorithm reports about its search, for the certificate and benchmarks."""

    partitions: int
    suppressed_rows: int
    suppressed_partitions: int
    rounds: int
    statements: int
    statements_per_round: list[int] = field(default_factory=list)


class Algorithm(ABC):
    """Base class of anonymization algorithms.

    Subclasses declare ``name`` (the spec's ``algorithm:`` value) and ``Options``, and implement
    :meth:`partition`. They must keep per-row data in the engine and issue a number of
    statements per round that does not depend on the number of partitions.
    """

    name: ClassVar[str]
    Options: ClassVar[type[OptionsBase]] = OptionsBase
    reference: ClassVar[str] = ""
    #: Whether the algorithm anonymizes 1:M data (a spec with ``person_id``) rather than one
    #: row per individual.
    person_level: ClassVar[bool] = False

    def __init__(self, options: OptionsBase) -> None:
        self.options = options

    @classmethod
    def from_spec(cls, raw: Mapping[str, Any]) -> Algorithm:
        try:
            options = cls.Options.model_validate(dict(raw))
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            allowed = ", ".join(cls.Options.model_fields) or "(none)"
            raise SpecError(
                f"algorithm.{cls.name}.{where}", first["msg"], f"options are: {allowed}"
            ) from None
        return cls(options)

    @abstractmethod
    def partition(self, job: Job, progress: ProgressCallback) -> PartitionSummary:
        """Partition ``job.work('rows')`` and write ``job.work('parts')``."""
