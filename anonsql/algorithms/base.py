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
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, cast

from pydantic import BaseModel, ConfigDict, ValidationError
from typing_extensions import TypeVar

from anonsql.algorithms.workspace import Workspace
from anonsql.engines.types import ColumnInfo
from anonsql.errors import SpecError
from anonsql.generics import bind_schema
from anonsql.privacy.base import PrivacyModel
from anonsql.spec import Spec
from anonsql.spec.errors import spec_error

#: Called with a one-line status message during long steps.
ProgressCallback = Callable[[str], None]


class Options(BaseModel):
    """Base of every algorithm's options: unknown keys are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# Inside Algorithm the name ``Options`` is the class attribute, not this class.
OptionsBase = Options

#: An algorithm's options schema. Covariant: a ``Mondrian`` is an ``Algorithm[Options]``, so
#: code over any algorithm annotates ``Algorithm`` alone.
O = TypeVar("O", bound=Options, default=Options, covariant=True)


@dataclass(frozen=True)
class LayoutFacts:
    """Base of what an algorithm hands its release layout beyond the working tables.

    Each layout declares the frozen subclass it reads (``Layout.Facts``, defined beside the
    layout) and the algorithms that name the layout fill it in :attr:`Partitioning.facts`: e.g.
    the full-domain search's chosen node for the ``record`` layout's certificate (Samarati,
    "Protecting Respondents' Identities in Microdata Release", TKDE 2001) or the 1:M fingerprint
    buckets for the ``person`` layout (Gong et al., KBS 2017). An algorithm that leaves none gets
    the layout's ``Facts()``, so layouts that can do without give every field a default.
    """


@dataclass(frozen=True)
class Partitioning:
    """What an algorithm decided and how its search went, for the certificate and benchmarks.

    ``facts`` holds what the release layout publishes about the search, of the type the layout
    declares (``Layout.Facts``; e.g. the number of 1:M fingerprint buckets); None: the
    layout's defaults.
    """

    partitions: int
    suppressed_rows: int
    suppressed_partitions: int
    rounds: int
    statements: int
    statements_per_round: tuple[int, ...] = ()
    facts: LayoutFacts | None = None
    #: The column of the ``rows`` table counting the source rows each of its rows stands for,
    #: when the algorithm left its distinct (partition, coded values) rows weighted instead of
    #: one row per source row (Mondrian's weighted rounds); None: one row per source row. Only
    #: layouts that read ``rows`` as a set of vectors accept it (``Layout.weighted_rows``).
    rows_weight: str | None = None
    #: Of :attr:`rounds`, those answered from working rows held in memory (Mondrian's
    #: ``max_rows_in_memory``) rather than by statements.
    rounds_in_memory: int = 0

    def rows_are_vectors(self, workspace: Workspace) -> bool:
        """Whether ``workspace``'s ``rows`` table holds each quasi-identifier vector once: left
        weighted (grouped by partition, QID codes and sensitive codes as it was built, every
        vector in one partition) with no sensitive codes to tell two rows of a vector apart.
        Its rows are then the source's classes, with no grouping to find them."""
        return self.rows_weight is not None and not workspace.sensitive


def _able(test: Callable[[type[Algorithm]], bool], otherwise: str) -> str:
    """``use algorithm: x`` for the registered algorithms passing ``test``, else ``otherwise``."""
    from anonsql.algorithms.registry import ALGORITHMS

    names = [name for name, cls in ALGORITHMS.items() if test(cls)]
    return f"use algorithm: {' or '.join(names)}" if names else otherwise


def _supplies(needs: frozenset[str]) -> Callable[[type[Algorithm]], bool]:
    return lambda algorithm: needs <= algorithm.supplies


class Algorithm(ABC, Generic[O]):
    """Base class of anonymization algorithms (LeFevre et al.'s Mondrian, ICDE 2006; the
    full-domain search of Samarati, TKDE 2001, by Kohlmayer et al.'s Flash, PASSAT 2012; the
    others of :mod:`anonsql.algorithms`).

    A subclass names its pydantic options schema once, as the type argument
    (``class Mondrian(Algorithm[MondrianOptions])``): ``self.options`` is then typed, and the
    class attribute ``Options`` (read by ``from_spec`` and the registry) is set from it. A
    subclass may set ``Options`` itself instead, or declare none (no options).

    Subclasses declare ``name`` (the spec's ``algorithm:`` value), ``reference``
    (the paper), whether they anonymize 1:M data (``person_level``) and the release ``layout``
    they leave tables for, and implement :meth:`partition`. They must keep per-row data in the
    engine (or in memory only up to a bound the user sets, as Mondrian's ``max_rows_in_memory``)
    and issue a number of statements per round that does not depend on the number of
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
    #: Whether the algorithm reads the spec's functional dependencies' columns: their sensitive
    #: columns are then coded in ``rows`` even when no model reads them.
    reads_dependencies: ClassVar[bool] = False
    #: What the algorithm gives models' predicates besides class sizes and sensitive
    #: histograms (``PrivacyModel.requires``); a model requiring more is refused.
    supplies: ClassVar[frozenset[str]] = frozenset()
    #: Whether the algorithm judges whole candidate releases, so it can enforce table-level
    #: models (``PrivacyModel.table_level``); algorithms that decide a split at a time cannot.
    enforces_table_level: ClassVar[bool] = False
    #: Whether the release publishes the sensitive and insensitive columns unchanged (then the
    #: resolve step refuses those that determine a quasi-identifier and the measure step
    #: measures what they expose); False for algorithms that transform every column they
    #: publish (e.g. ``personalized``: sensitive values in buckets).
    publishes_unchanged: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        bind_schema(cls, Algorithm, "Options", "options")

    def __init__(self, options: O) -> None:
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
        # cls.Options is the type argument O (set by __init_subclass__), which mypy cannot see
        return cls(cast(O, options))

    def check_models(self, models: Sequence[PrivacyModel]) -> None:
        """Refuse, with a SpecError keyed ``privacy[i]``, models this algorithm cannot enforce:
        by default those needing what it does not supply, and table-level ones unless it
        enforces them. An override should call this too."""
        for position, model in enumerate(models):
            key = f"privacy[{position}].{model.name}"
            missing = sorted(model.requires - self.supplies)
            if missing:
                raise SpecError(
                    key,
                    f"the {self.name} algorithm cannot give this model's check what it reads "
                    f"({', '.join(missing)})",
                    _able(_supplies(model.requires), "check it with `anonsql check`"),
                )
            if model.table_level and not self.enforces_table_level:
                raise SpecError(
                    key,
                    f"this model bounds the whole table, which the {self.name} algorithm cannot "
                    "judge while it splits",
                    _able(lambda a: a.enforces_table_level, "check it with `anonsql check`"),
                )

    def bind(self, spec: Spec, columns: Sequence[ColumnInfo]) -> Algorithm:
        """The algorithm with what it reads of the spec beyond its options (e.g. the roles of
        columns, the seed), checked against the source's ``columns`` with a SpecError naming
        the key. Called by the resolve step after :meth:`check_models`; most algorithms read
        nothing more and return themselves."""
        return self

    def for_later_batch(self, search: Mapping[str, Any] | None) -> Algorithm:
        """The algorithm a later version of a versioned release (:mod:`anonsql.versions`)
        partitions its batch of new rows with, given what the previous version's run recorded
        of its search (the certificate's ``search``). Default: itself."""
        return self

    def working_rows_weight(self, rows: int) -> str | None:
        """The weight column when the prepare step may build the working rows of a source of
        ``rows`` rows weighted (one row per distinct ``pid`` and codes, with the source rows it
        stands for: :attr:`Workspace.weight`), or None for one row per source row. Only an
        algorithm whose partitions never separate equal vectors may ask for it (Mondrian's
        bins, LeFevre et al. 2006). Default: None."""
        return None

    @abstractmethod
    def partition(self, workspace: Workspace, progress: ProgressCallback) -> Partitioning:
        """Partition ``workspace.work('rows')`` and write ``workspace.work('parts')``."""
