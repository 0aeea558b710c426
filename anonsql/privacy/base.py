"""The privacy-model interface.

A privacy model has three faces that must agree:

* a **SQL violation query** over a published relation: it returns one row per violating
  equivalence class (zero rows = the model holds). The same query backs ``anonsql check``,
  the verify gate of every publish, and dbt tests;
* a **vectorized Python predicate** over per-part aggregates (:class:`PartStats`), which the
  search algorithms use to decide whether a candidate split is allowed;
* **parameter validation** against the data (``k`` against the row count, ``l`` against the
  number of distinct sensitive values, ...), with messages that give value, rule and bound.

A model also **declares** what other code may rely on, as class attributes and small methods:
whether it reads a sensitive column or a person column, whether it counts persons, whether it is
monotonic and supports suppression, the bounds it sets on every class (:meth:`bounds`), the
smallest class it can hold on (:meth:`min_rows`), the column types it accepts
(:meth:`check_columns`), what its predicate reads beyond class sizes and sensitive histograms
(:attr:`PrivacyModel.requires`) and whether it bounds statistics of the whole table
(:attr:`PrivacyModel.table_level`). Algorithms consult these declarations, never concrete model
classes.

Every registered model is held to its SQL query == its predicate by the conformance suite
(``tests/conformance``), on random tables built from its :attr:`examples`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, cast

import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, ValidationError
from typing_extensions import TypeVar

from anonsql.arrays import BoolArray, FloatArray, IntArray
from anonsql.engines.types import ColumnInfo
from anonsql.errors import InfeasibleError, SpecError
from anonsql.generics import bind_schema
from anonsql.privacy import histograms as hist
from anonsql.privacy.histograms import Histogram
from anonsql.spec.errors import spec_error
from anonsql.sql import Relation, SqlRenderer, TableName

if TYPE_CHECKING:
    from anonsql.engines import Engine


#: Slack for floating-point comparisons, shared by the SQL queries and the predicates.
EPSILON = 1e-9

#: The persons column of a release's ``population`` companion (a population table generalized
#: like the release, :meth:`PrivacyModel.on_release`); it ends like the recoding's generalized
#: columns, which no user column may, so it never collides with a quasi-identifier.
POPULATION_PERSONS = "persons__generalized"


@dataclass
class PartStats:
    """Aggregates of a batch of candidate parts (equivalence classes to be).

    ``counts[i]`` is the number of rows of part ``i``. For each sensitive column a model asked
    for, ``histograms[column][i, v]`` counts the rows of part ``i`` whose sensitive value has code
    ``v``; codes number the column's distinct values in ascending value order (so ordered
    distances can use code order), and ``global_counts[column][v]`` counts them over the whole
    table (a dense 1D array per column).

    Histograms are sparse, in the representation of :mod:`anonsql.privacy.histograms` (read
    them through its functions); a dense 2D array given here is converted.

    What some models read besides (declared in :attr:`PrivacyModel.requires`):
    ``population[i]``, the persons of a population table in part ``i``'s class
    (``"population"``), and ``values[column][v]``, the text of the value with code ``v``
    (``"sensitive_values"``; None for NULL).
    Optional, for models over individuals who own several records each (identity-reserved
    data; the fields a model reads are named by its :attr:`PrivacyModel.needs_stats`, and left
    empty when no model asks for them): ``records[i]`` = records of part ``i`` (``counts`` then
    counts individuals), ``max_person_records[i]`` = the most records one individual owns in it,
    ``record_histograms[column][i, v]`` = its records with value ``v`` (``histograms`` then
    counts the *individuals* having ``v``), ``set_histograms[column][i, j]`` = its individuals
    whose set of values is the distinct set ``j``, and ``set_members[column][j, v]`` = 1 when
    set ``j`` holds ``v`` (one matrix for the whole table, like ``global_counts``).
    """

    counts: IntArray
    histograms: dict[str, Histogram] = field(default_factory=dict)
    global_counts: dict[str, IntArray] = field(default_factory=dict)
    population: FloatArray | None = None
    values: dict[str, tuple[str | None, ...]] = field(default_factory=dict)
    records: IntArray | None = None
    max_person_records: IntArray | None = None
    record_histograms: dict[str, Histogram] = field(default_factory=dict)
    set_histograms: dict[str, Histogram] = field(default_factory=dict)
    set_members: dict[str, Histogram] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.histograms = {c: hist.as_histogram(h) for c, h in self.histograms.items()}
        self.record_histograms = {
            c: hist.as_histogram(h) for c, h in self.record_histograms.items()
        }
        self.set_histograms = {c: hist.as_histogram(h) for c, h in self.set_histograms.items()}
        self.set_members = {c: hist.as_histogram(h) for c, h in self.set_members.items()}

    def __len__(self) -> int:
        return int(self.counts.shape[0])

    def take(self, index: npt.NDArray[Any]) -> PartStats:
        """The sub-batch selected by ``index`` (a boolean mask or integer positions)."""
        return PartStats(
            counts=self.counts[index],
            histograms={c: hist.take(h, index) for c, h in self.histograms.items()},
            global_counts=self.global_counts,
            population=None if self.population is None else self.population[index],
            values=self.values,
            records=None if self.records is None else self.records[index],
            max_person_records=(
                None if self.max_person_records is None else self.max_person_records[index]
            ),
            record_histograms={c: hist.take(h, index) for c, h in self.record_histograms.items()},
            set_histograms={c: hist.take(h, index) for c, h in self.set_histograms.items()},
            set_members=self.set_members,
        )


@dataclass(frozen=True)
class Bound:
    """A bound a model sets, which algorithms that enforce bounds (rather than evaluate
    predicates) read instead of testing model classes.

    Kinds: ``class_size`` (every class holds at least ``value`` individuals: rows, or persons
    for models that count persons), ``distinct_values`` (every class holds at least ``value``
    distinct values of ``column``), ``entropy`` (the entropy of ``column`` within every class is
    at least ``log(value)``), ``value_share`` (no value of ``column`` holds more than
    ``1/value`` of a class's rows: frequency l-diversity), ``fingerprint_bucket_size`` (1:M:
    every SA-fingerprint bucket holds at least ``value`` persons), ``fingerprint_share`` (1:M:
    no fingerprint holds more than ``1/value`` of a class's persons).

    Identity-reserved kinds (individuals owning several records): ``reasoning_set_values``
    (every choice of one record per individual holds at least ``value`` distinct values of
    ``column``), ``individual_record_share`` (no individual owns more than the fraction
    ``value`` of a class's records), ``value_record_share`` / ``value_individual_share`` (no
    value of ``column`` is on more than the fraction ``value`` of a class's records /
    individuals), ``record_count_refinement`` (the other bounds hold on every *count-refined
    class*: a class's individuals that own the same number of records; ``value`` unused).
    """

    kind: str
    value: float
    column: str | None = None


def largest_k(models: Sequence[PrivacyModel]) -> int | None:
    """The strictest ``class_size`` bound of the models, if any (class-size metrics, sizing)."""
    sizes = [int(b.value) for m in models for b in m.bounds() if b.kind == "class_size"]
    return max(sizes) if sizes else None


@dataclass(frozen=True)
class DataProfile:
    """What parameter validation may know about the data: row count and SA domain sizes."""

    rows: int
    distinct_sensitive: Mapping[str, int]


class Params(BaseModel):
    """Base of every model's parameter schema: unknown keys are errors."""

    # strict: YAML's `k: true` or `k: "10"` is an error, not 1 or 10
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# Inside PrivacyModel the name ``Params`` is the class attribute, not this class.
ParamsBase = Params

#: A model's parameter schema. Covariant: a ``KAnonymity`` is a ``PrivacyModel[Params]``, so
#: code over any model annotates ``PrivacyModel`` alone.
P = TypeVar("P", bound=Params, default=Params, covariant=True)


class PrivacyModel(ABC, Generic[P]):
    """Base class of privacy models (Samarati & Sweeney's k-anonymity, Machanavajjhala et al.'s
    l-diversity, Li et al.'s t-closeness and the others of :mod:`anonsql.privacy`).

    A subclass names its pydantic parameter schema once, as the type argument
    (``class KAnonymity(PrivacyModel[KAnonymityParams])``): ``self.params`` is then typed, and
    the class attribute ``Params`` (read by ``from_spec``, the registries and the dbt generator)
    is set from it. A subclass may set ``Params`` itself instead (as extensions written before
    the base was generic do); ``self.params`` is then typed as :class:`Params`.

    Subclasses also declare ``name`` (the spec key), whether they read a sensitive column, and
    whether they are *monotonic* (a union of classes that satisfy the model satisfies it too),
    which makes merging classes that publish the same generalized tuple safe.
    """

    name: ClassVar[str]
    Params: ClassVar[type[ParamsBase]]
    #: Whether the model reads a sensitive column (named by its ``column`` parameter).
    needs_sensitive: ClassVar[bool] = False
    #: Whether the violation query needs a column linking the rows of one person.
    needs_person: ClassVar[bool] = False
    #: Whether the model counts persons (1:M data) rather than rows.
    counts_persons: ClassVar[bool] = False
    #: Whether the sensitive column is read as each person's set of items (an SA fingerprint,
    #: 1:M data) rather than one value per row.
    reads_fingerprints: ClassVar[bool] = False
    monotonic: ClassVar[bool] = True
    #: What a row of the violation query identifies, for the guard of live views: ``class``
    #: (its first columns are the class's quasi-identifier values, under their names),
    #: ``person`` (a column ``person`` holds the person), or ``table`` (a violation anywhere
    #: withholds the whole release: models whose verdict on a class depends on the rest of the
    #: table). Withholding what the query returns must leave a relation on which the model
    #: holds (the conformance suite checks it).
    guard: ClassVar[Literal["class", "person", "table"]] = "class"
    #: Whether the model still holds, as checked, after rows are suppressed during the search.
    supports_suppression: ClassVar[bool] = True
    #: Whether, once the classes it fails on are suppressed, merging classes never makes more
    #: rows fail (a failing class merged with any other fails as a whole or not at all): a
    #: full-domain search may then treat "anonymous within a suppression budget" as monotone in
    #: the lattice (ARX's ``isMonotonicWithSuppression``).
    monotonic_with_suppression: ClassVar[bool] = False
    #: Whether the model bounds statistics of the whole table (ARX's risk thresholds) rather
    #: than each class: :meth:`holds` then accepts every class, :meth:`table_level_violations`
    #: judges all the classes of a table together, and the violation query returns one row
    #: when the table violates the model.
    table_level: ClassVar[bool] = False
    #: Whether the dbt package generates a generic test for the model (``anonsql.dbt``): False
    #: for models whose template takes values computed in Python (population estimates,
    #: thresholds translated to class sizes, hierarchies); ``anonsql check`` checks them.
    dbt_test: ClassVar[bool] = True
    #: What the predicate reads besides class sizes and sensitive histograms, by the names of
    #: :class:`PartStats`' fields: ``"population"`` (each part's persons in a population
    #: table), ``"sensitive_values"`` (the text of the sensitive codes). An algorithm that
    #: cannot supply them refuses the model.
    requires: ClassVar[frozenset[str]] = frozenset()
    #: The optional :class:`PartStats` fields the predicate reads (``records``,
    #: ``max_person_records``, ``record_histograms``, ``set_histograms``, ``set_members``); an
    #: algorithm that cannot provide them must refuse the model.
    needs_stats: ClassVar[frozenset[str]] = frozenset()
    #: The engine capabilities (flags of :class:`~anonsql.engines.Engine`) its SQL needs: an
    #: engine without one refuses the model before anything runs (:meth:`check_engine`).
    engine_capabilities: ClassVar[frozenset[str]] = frozenset()
    #: Whether the violation query counts rows only through the template's ``weight`` (the
    #: ``row_count`` and ``sa_frequencies`` macros of ``privacy/_classes.sql``), so it can read
    #: a grouping of the rows (``publish/refined``: the rows' values, ``__anonsql_rows`` rows
    #: per group) with the same result as the rows: the publish gate then reads the grouping
    #: (:class:`~anonsql.privacy.check.Grouping`). The conformance suite holds it.
    weighted: ClassVar[bool] = False
    #: The paper the model comes from, for the docs and the certificate.
    reference: ClassVar[str] = ""
    #: Example parameters for the conformance suite (``column`` is added for models that read
    #: a sensitive column).
    examples: ClassVar[tuple[Mapping[str, Any], ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        bind_schema(cls, PrivacyModel, "Params", "parameters")

    def __init__(self, params: P) -> None:
        self.params = params

    @classmethod
    def from_spec(cls, raw: Mapping[str, Any] | None, *, key: str) -> PrivacyModel:
        try:
            params = cls.Params.model_validate(dict(raw or {}))
        except ValidationError as err:
            raise spec_error(
                err, prefix=key, empty="(parameters)", fix=cls.parameter_help()
            ) from None
        # cls.Params is the type argument P (set by __init_subclass__), which mypy cannot see
        model = cls(cast(P, params))
        model.check_params(key)
        return model

    @classmethod
    def parameter_help(cls) -> str:
        fields = ", ".join(cls.Params.model_fields)
        return f"give {cls.name} the parameters: {fields}"

    def check_params(self, key: str) -> None:
        """Validate parameters on their own (bounds that do not depend on the data)."""

    def check_against(self, profile: DataProfile, key: str) -> None:
        """Validate parameters against the data, raising errors that name the bound."""

    def check_columns(self, columns: Mapping[str, ColumnInfo], key: str) -> None:
        """Validate parameters against the types of the columns the model reads."""

    def min_rows(self) -> int:
        """A lower bound on the rows of any part on which the model can hold."""
        return 1

    def bounds(self) -> tuple[Bound, ...]:
        """The bounds the model sets, when they express all it asks (empty otherwise: an
        algorithm that only enforces bounds cannot enforce this model)."""
        return ()

    def table_violations(self, global_counts: Mapping[str, IntArray]) -> int:
        """Violations of the part of the model that concerns the whole table rather than each
        class (e.g. SA-fingerprint buckets below k), from the table's sensitive-value counts.
        The search establishes these before it partitions; the SQL query checks them too."""
        return 0

    def table_level_violations(self, parts: PartStats) -> int:
        """For a :attr:`table_level` model, 1 when the table whose classes are ``parts`` violates
        it and 0 when it holds (what its violation query returns); 0 for other models."""
        return 0

    def prepared(self, engine: Engine, relation: Relation, qids: Sequence[str]) -> PrivacyModel:
        """The model ready to render its violation query on ``relation``. A model whose
        statistic SQL cannot compute (a population-uniqueness estimate) measures what it needs
        here and returns a copy bound to it; most models return themselves."""
        return self

    def check_engine(self, engine: Engine, key: str = "privacy") -> None:
        """Refuse an engine that lacks a capability the model's SQL needs."""
        missing = sorted(c for c in self.engine_capabilities if not getattr(engine, c, False))
        if missing:
            raise SpecError(
                key,
                f"{self.name} needs {', '.join(missing)}, which the {engine.name} engine lacks",
                f"run {self.name} on DuckDB or PostgreSQL, or choose another privacy model",
            )

    def on_release(self, companion: Callable[[str], TableName]) -> PrivacyModel:
        """The model as it checks and guards a release whose companions of each kind are
        ``companion(kind)`` (``OutputNames.companion``). A model that reads a table beside the
        checked one, which the release publishes generalized like its own rows (k-map's
        population: ``companion("population")``), returns a copy reading that companion; most
        models return themselves."""
        return self

    @property
    def sensitive_column(self) -> str | None:
        return getattr(self.params, "column", None)

    @abstractmethod
    def holds(self, parts: PartStats) -> BoolArray:
        """For each part, whether the model holds on it."""

    def template_params(self) -> dict[str, Any]:
        """What the model's template reads besides what :meth:`violations_sql` gives every
        template: its parameters, or values derived from them."""
        return {}

    def violations_sql(
        self,
        renderer: SqlRenderer,
        relation: Relation,
        qids: Sequence[str],
        *,
        person: str | None = None,
        weight: str | None = None,
    ) -> str:
        """A query returning one row per equivalence class of ``relation`` that violates the model.

        Classes are the groups of rows with equal values in ``qids``. The rows carry the class's
        size and the statistic that failed, so an analyst can see why. ``person`` names a column
        linking the rows of one person (1:M data); the models of
        :mod:`anonsql.privacy.one_to_many` count in persons, the record-level models ignore it.

        By default the model's template ``privacy/<name>``, rendered with ``relation``,
        ``qids``, ``person``, the sensitive ``column`` (None for a model without one),
        ``epsilon`` (:data:`EPSILON`) and :meth:`template_params`; a template reads what it
        needs of them. A model whose query is not such a template overrides this.

        ``weight`` names a column of ``relation`` holding how many rows each of its rows stands
        for (a grouping of the rows by columns including ``qids`` and the sensitive column);
        only a :attr:`weighted` model takes one.
        """
        if weight is not None and not self.weighted:
            raise ValueError(f"{self.name} counts rows, not a grouping's weights")
        if self.needs_person and person is None:
            raise SpecError(
                "person_id",
                f"{self.name} counts individuals, but no column links an individual's rows",
                "add `person_id: <column linking a person's rows>`",
            )
        return renderer.render(
            f"privacy/{self.name}",
            relation=relation,
            qids=list(qids),
            person=person,
            column=self.sensitive_column,
            epsilon=EPSILON,
            weight=weight,
            **self.template_params(),
        )

    def describe(self) -> str:
        args = ", ".join(f"{k}={v}" for k, v in self.params.model_dump().items())
        return f"{self.name}({args})"

    def parameters(self) -> dict[str, Any]:
        return self.params.model_dump()


def infeasible(model: PrivacyModel, problem: str, fix: str) -> InfeasibleError:
    return InfeasibleError(f"{model.describe()}: {problem}. Fix: {fix}")
