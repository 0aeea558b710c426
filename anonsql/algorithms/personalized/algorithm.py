"""``algorithm: personalized``: personalized publishing with several sensitive attributes as an
algorithm of the run's spine (Reddy, Raju, Valli Kumari, "A Novel Approach for Personalized
Privacy Preserving Data Publishing with Multiple Sensitive Attributes", IJET 2018; digest 002).

The spec declares the columns as for every algorithm: quasi-identifiers (numeric, or with a
hierarchy, which measures the published groups), and every sensitive attribute with role
``sensitive`` (categorical with its taxonomy as ``hierarchy``, a flat one over its consenting
values by default; numeric when its fuzzy terms are given here). ``privacy`` holds the group
size (``k_anonymity: {k}``); the sensitive attributes are protected by the profile, configured
by the options::

    algorithm:
      personalized:
        profile: safe                  # or paper_compat
        consent: {column: pd, values: [true]}   # omitted: every row is published
        l: 2                           # safe: no value or term above 1/l of a group or bucket
        sensitive:
          salary: {terms: {labels: [Low, Medium, High], points: [50000, 150000, 300000]}}
          job: {l: 3}
        cluster_key: [{column: zipcode, prefix: 1}]
        bucket_k: null                 # default: k (paper_compat), the attribute's l (safe)
        sensitivity_threshold: 1
        weight_step: null              # default: 0.25 (safe), exact (paper_compat)
        secret_shuffle: false          # true: shuffles keyed by a fresh secret, not the seed
        query_workload: 200            # count queries per measured workload (0: none)

The algorithm step makes the decisions (consent filter, QID groups, per-attribute buckets) in
its working tables and leaves the spine's ``rows`` (one row per consenting row, its group as the
partition) and ``parts`` (each group's tight generalization); the ``personalized`` release
layout publishes, verifies and measures them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from pydantic import Field, ValidationInfo, field_validator

from anonsql.algorithms.base import (
    Algorithm,
    LayoutFacts,
    OptionsBase,
    Partitioning,
    ProgressCallback,
)
from anonsql.algorithms.lca import HierarchyArrays
from anonsql.algorithms.parts import parts_table
from anonsql.algorithms.personalized.config import (
    REFERENCE,
    RESERVED_NAMES,
    CategoricalSA,
    ClusterKey,
    FuzzyTerms,
    NumericSA,
    PersonalizedConfig,
)
from anonsql.algorithms.personalized.decisions import Decisions, decide
from anonsql.algorithms.personalized.mixing import Mixers, mixers
from anonsql.algorithms.personalized.names import WorkTables
from anonsql.algorithms.workspace import Workspace
from anonsql.engines import ColumnInfo, Engine
from anonsql.engines.types import TypeClass
from anonsql.errors import InfeasibleError, SpecError
from anonsql.hierarchies import Hierarchy, load_hierarchy
from anonsql.privacy.base import PrivacyModel, largest_k
from anonsql.spec import Role, Spec
from anonsql.spec.errors import option_error
from anonsql.sql import Relation

#: The spec key of the options, for error messages.
KEY = "algorithm.personalized"

#: The root label of the flat taxonomy a categorical attribute without a hierarchy gets.
FLAT_ROOT = "*"


def _consent_true() -> list[bool | int | str]:
    return [True]


class ConsentOptions(OptionsBase):
    """The consent column (the paper's PD) and the values that mean consent."""

    column: str = Field(min_length=1)
    values: list[bool | int | str] = Field(default_factory=_consent_true, min_length=1)


class TermOptions(OptionsBase):
    """The fuzzy terms of a numeric sensitive attribute (``FuzzyTerms``, paper §3): at least two
    distinct labels, and strictly increasing finite points, one per label (``triangular``: the
    terms' centers) or one more (``paper_intervals``: min, a_2..a_k, max)."""

    # the rule first: the points' count depends on it, and errors are reported in field order
    rule: Literal["triangular", "paper_intervals"] = "triangular"
    labels: list[str]
    points: list[float]

    @field_validator("labels")
    @classmethod
    def _distinct_labels(cls, labels: list[str]) -> list[str]:
        if len(labels) < 2:
            raise option_error("fewer than 2 linguistic terms", "give at least 2 labels")
        if any(label == "" for label in labels):
            raise option_error("a label is empty", "give every term a label")
        if len(set(labels)) != len(labels):
            raise option_error("two terms share a label", "give distinct labels")
        return labels

    @field_validator("points")
    @classmethod
    def _increasing_points(cls, points: list[float], info: ValidationInfo) -> list[float]:
        labels, rule = info.data.get("labels"), info.data.get("rule")
        if labels is not None and rule is not None:
            expected = len(labels) + (1 if rule == "paper_intervals" else 0)
            if len(points) != expected:
                what = "min, a_2..a_k, max" if rule == "paper_intervals" else "one center per term"
                raise option_error(
                    f"{len(points)} points for {len(labels)} terms under rule {rule}",
                    f"give {expected} points ({what})",
                )
        if not all(math.isfinite(p) for p in points):
            raise option_error("a point is not a finite number", "give numbers")
        if any(b <= a for a, b in itertools.pairwise(points)):
            raise option_error("the points are not strictly increasing", "sort them ascending")
        return points


class SensitiveOptions(OptionsBase):
    """Per sensitive attribute: its own l and bucket size, and its fuzzy terms (numeric)."""

    l: int | None = Field(default=None, ge=1)
    bucket_k: int | None = Field(default=None, ge=1)
    terms: TermOptions | None = None


class ClusterKeyOptions(OptionsBase):
    """One part of the 1D order in which groups are filled (``ClusterKey``)."""

    column: str
    prefix: int | None = Field(default=None, ge=1)


class PersonalizedOptions(OptionsBase):
    """The options of ``algorithm: personalized`` (see the module docstring)."""

    profile: Literal["safe", "paper_compat"] = "safe"
    consent: ConsentOptions | None = None
    l: int = Field(default=2, ge=1)
    bucket_k: int | None = Field(default=None, ge=1)
    sensitivity_threshold: int = Field(default=1, ge=1)
    weight_step: float | None = Field(default=None, ge=0, le=1)
    sensitive: dict[str, SensitiveOptions] = Field(default_factory=dict)
    cluster_key: list[ClusterKeyOptions] = Field(default_factory=list)
    secret_shuffle: bool = False
    query_workload: int = Field(default=200, ge=0)


@dataclass(frozen=True)
class Declaration:
    """What the algorithm reads of the spec beyond its options: the sensitive columns (by kind,
    in the spec's order), the group size ``k`` of the privacy list, and the spec itself (its
    hierarchies are loaded in the algorithm step, its seed keys the shuffles)."""

    spec: Spec
    categorical: tuple[str, ...]
    numeric: tuple[str, ...]


@dataclass(frozen=True)
class PersonalizedFacts(LayoutFacts):
    """What the algorithm hands the ``personalized`` layout (Reddy, Raju, Valli Kumari, IJET
    2018): its decisions (groups, buckets and their working tables), the shuffles' keys, and
    the workload size and seed of the count-query error its metrics measure. No defaults: the
    layout publishes nothing without them."""

    decisions: Decisions
    keys: Mixers
    query_workload: int
    seed: int


def _accepted(model: PrivacyModel) -> bool:
    """A model the profile's groups enforce: one that only bounds class sizes."""
    bounds = model.bounds()
    return (
        bool(bounds)
        and all(b.kind == "class_size" for b in bounds)
        and not model.needs_sensitive
        and not model.counts_persons
    )


class Personalized(Algorithm[PersonalizedOptions]):
    """Personalized publishing with multiple sensitive attributes: QID groups of at least k
    published as value multisets (and generalized per tuple), every sensitive attribute in
    buckets of its own (categorical values climbing their taxonomy, numeric values as fuzzy
    terms with weights), linked to the groups per tuple (``paper_compat``) or per group and
    bucket (``safe``: every group and bucket frequency l-diverse, so an adversary who knows a
    target's group infers a value or term with confidence at most 1/l)."""

    name = "personalized"
    layout = "personalized"
    reference = REFERENCE
    #: sensitive values are published in buckets (labels, fuzzy terms), never unchanged
    publishes_unchanged = False

    def __init__(
        self, options: PersonalizedOptions, declaration: Declaration | None = None
    ) -> None:
        super().__init__(options)
        self.declaration = declaration

    def check_models(self, models: Sequence[PrivacyModel]) -> None:
        """Only models that bound class sizes (``k_anonymity``): they set the QID groups' k.
        The sensitive attributes are protected by the profile (``l``), not by models."""
        for position, model in enumerate(models):
            if not _accepted(model):
                raise SpecError(
                    f"privacy[{position}].{model.name}",
                    "the personalized algorithm protects sensitive attributes by its profile, "
                    "not by this model",
                    f"keep k_anonymity in privacy and set l under {KEY} (per column under "
                    f"{KEY}.sensitive)",
                )

    def bind(self, spec: Spec, columns: Sequence[ColumnInfo]) -> Algorithm:
        """Check the spec's columns against the options and the source's columns."""
        opts = self.options
        types = {c.name: c for c in columns}
        qids = spec.quasi_identifiers
        sensitive = spec.columns_with(Role.SENSITIVE)
        for name in spec.columns_with(Role.INSENSITIVE):
            raise SpecError(
                f"columns.{name}",
                "a personalized release publishes quasi-identifiers (as groups) and sensitive "
                "attributes (in buckets) only, no column passed through",
                "declare it sensitive to publish it in buckets, or identifier to drop it",
            )
        if not sensitive:
            raise SpecError(
                "columns",
                "no column has role sensitive",
                "declare the sensitive attributes to publish in buckets with role sensitive",
            )
        if spec.suppression_limit > 0:
            raise SpecError(
                "suppression_limit",
                "the personalized algorithm suppresses no row (rows without consent are "
                "withheld, not suppressed)",
                "remove suppression_limit",
            )
        for name in opts.sensitive:
            if name not in sensitive:
                raise SpecError(
                    f"{KEY}.sensitive.{name}",
                    "not a column with role sensitive",
                    f"name one of: {', '.join(sensitive)}",
                )
        categorical, numeric = [], []
        for name in sensitive:
            declared = spec.columns[name]
            options = opts.sensitive.get(name)
            terms = options.terms if options is not None else None
            if terms is None:
                if declared.type == "numeric":
                    raise SpecError(
                        f"{KEY}.sensitive.{name}.terms",
                        "a numeric sensitive attribute is published as fuzzy terms",
                        "give its terms: {labels: [...], points: [...]}, or drop type: numeric",
                    )
                categorical.append(name)
                continue
            if declared.hierarchy is not None:
                raise SpecError(
                    f"columns.{name}.hierarchy",
                    "the column has fuzzy terms and a taxonomy",
                    "keep the terms (numeric) or the hierarchy (categorical)",
                )
            if not types[name].is_numeric:
                raise SpecError(
                    f"{KEY}.sensitive.{name}.terms",
                    f"fuzzy terms need a numeric column, not {types[name].data_type}",
                    "drop the terms to publish the column as a categorical attribute",
                )
            numeric.append(name)
        for name in qids:
            if name in RESERVED_NAMES:
                raise SpecError(
                    f"columns.{name}",
                    "the name is reserved for the published relations",
                    "rename the column in a view over the source",
                )
        if opts.profile == "paper_compat":
            published = {*qids, *sensitive}
            for name in numeric:
                if f"{name}_weight" in published:
                    raise SpecError(
                        f"columns.{name}_weight",
                        f"paper_compat publishes {name!r}'s weights under this name",
                        "rename the column in a view over the source",
                    )
            if "group_id" in sensitive:
                raise SpecError(
                    "columns.group_id",
                    "the name is reserved for the published relations",
                    "rename the column in a view over the source",
                )
        self._check_consent(spec, types)
        for position, part in enumerate(opts.cluster_key):
            if part.column not in qids:
                raise SpecError(
                    f"{KEY}.cluster_key[{position}].column",
                    "not a quasi-identifier",
                    f"order groups by quasi-identifiers only: {', '.join(qids)}",
                )
        declaration = Declaration(spec, tuple(categorical), tuple(numeric))
        return Personalized(opts, declaration)

    def _check_consent(self, spec: Spec, types: dict[str, ColumnInfo]) -> None:
        consent = self.options.consent
        if consent is None:
            return
        key = f"{KEY}.consent.column"
        column = types.get(consent.column)
        if column is None:
            raise SpecError(key, "no such column in the source", "name the consent column")
        declared = spec.columns.get(consent.column)
        if declared is not None and declared.role is not Role.IDENTIFIER:
            raise SpecError(
                f"columns.{consent.column}",
                f"the consent column is declared {declared.role.value}",
                "leave it out of columns (it is never published)",
            )
        boolean = column.type_class is TypeClass.BOOLEAN
        if any(isinstance(v, bool) != boolean for v in consent.values):
            kind = "booleans" if boolean else "values of the column's type, not booleans"
            raise SpecError(
                f"{KEY}.consent.values",
                f"the consent column is {column.data_type}",
                f"list {kind}",
            )

    def partition(self, workspace: Workspace, progress: ProgressCallback) -> Partitioning:
        """Decide groups and buckets; leave ``rows`` (groups as partitions) and ``parts``."""
        declaration = self.declaration
        assert declaration is not None, "the resolve step binds the algorithm to its spec"
        opts, spec, e = self.options, declaration.spec, workspace.engine
        start = e.stats.statements
        consent = opts.consent
        if consent is not None:
            counted = e.query(
                "personalized/consent_counts",
                source=workspace.source,
                consent=consent.column,
                consent_values=list(consent.values),
            )
            if not int(counted[0][1] or 0):
                raise InfeasibleError(
                    f"{KEY}.consent: no row of the source consents, so there is nothing to "
                    "publish. Fix: check the consent column and the values meaning consent"
                )
        progress("reading the sensitive attributes' taxonomies")
        config = build_config(
            opts,
            quasi_identifiers=tuple(d.column for d in workspace.dimensions),
            taxonomies={c: self._taxonomy(e, workspace.source, c) for c in declaration.categorical},
            numeric=declaration.numeric,
            k=largest_k(workspace.models) or 1,
            seed=spec.seed,
        )
        keys = mixers(config.seed)
        progress(f"grouping and bucketizing ({opts.profile} profile)")
        decisions = decide(e, workspace.source, config, WorkTables(workspace.schema), keys)
        self._spine_tables(workspace, decisions)
        return Partitioning(
            partitions=decisions.grouping.groups,
            suppressed_rows=0,
            suppressed_partitions=0,
            rounds=1 + decisions.bucketing.rounds,
            statements=e.stats.statements - start,
            facts=PersonalizedFacts(decisions, keys, opts.query_workload, spec.seed),
        )

    def _taxonomy(self, engine: Engine, source: Relation, column: str) -> Hierarchy:
        """The column's declared hierarchy, else a flat one over its consenting values."""
        assert self.declaration is not None
        spec = self.declaration.spec
        if spec.columns[column].hierarchy is not None:
            return load_hierarchy(engine, spec, source, column)
        consent = self.options.consent
        values = sorted(
            str(r[0])
            for r in engine.query(
                "personalized/consenting_values",
                source=source,
                column=column,
                consent=consent.column if consent else None,
                consent_values=list(consent.values) if consent else [],
            )
        )
        if not values:
            raise SpecError(
                f"columns.{column}",
                "the consenting rows hold no value in this column",
                "publish a column with values, or leave it out",
            )
        if FLAT_ROOT in values:
            raise SpecError(
                f"columns.{column}.hierarchy",
                f"a value of the column is {FLAT_ROOT!r}, the root of the default flat taxonomy",
                "give the column a hierarchy",
            )
        return Hierarchy([[v, FLAT_ROOT] for v in values], name=column)

    @staticmethod
    def _spine_tables(workspace: Workspace, decisions: Decisions) -> None:
        """``rows``: the consenting rows coded, each group a partition; ``parts``: the groups'
        tight generalizations (numeric range, lowest common ancestor)."""
        e, dims = workspace.engine, workspace.dimensions
        rows = workspace.work("rows")
        e.drop(rows)
        e.run(
            "personalized/coded_rows",
            target=rows,
            rows=decisions.work.rows,
            members=decisions.work.members,
            dims=dims,
            leaves={d.index: workspace.work(f"leaves{d.index}") for d in dims if not d.is_numeric},
        )
        e.analyze(rows)
        stats = e.query_arrow("mondrian/stats", work=rows, dims=dims, window=(0, 2**62))
        arrays = {d.index: HierarchyArrays(d.hierarchy) for d in dims if d.hierarchy}
        table = parts_table(stats, dims, arrays, np.zeros(stats.num_rows, np.bool_))
        e.load_arrow(workspace.work("parts"), table)


def build_config(
    options: PersonalizedOptions,
    *,
    quasi_identifiers: Sequence[str],
    taxonomies: Mapping[str, Hierarchy],
    numeric: Sequence[str],
    k: int,
    seed: int,
    key: str = KEY,
) -> PersonalizedConfig:
    """The configuration of one release from validated options and what the spec declares:
    the quasi-identifiers, the categorical sensitive columns with their taxonomies (in order),
    the numeric ones (each with its terms in ``options``), the group size ``k`` and the seed
    (unused with ``secret_shuffle``). ``key`` prefixes the errors the data may still raise."""
    consent = options.consent
    categorical = tuple(
        CategoricalSA(column, taxonomy, *_overrides(options.sensitive.get(column)))
        for column, taxonomy in taxonomies.items()
    )
    return PersonalizedConfig(
        quasi_identifiers=tuple(quasi_identifiers),
        consent_column=consent.column if consent else None,
        categorical=categorical,
        numeric=tuple(_numeric(column, options.sensitive[column]) for column in numeric),
        consent_values=tuple(consent.values) if consent else (True,),
        profile=options.profile,
        k=k,
        l=options.l,
        bucket_k=options.bucket_k,
        sensitivity_threshold=options.sensitivity_threshold,
        weight_step=options.weight_step,
        cluster_key=tuple(ClusterKey(p.column, p.prefix) for p in options.cluster_key),
        seed=None if options.secret_shuffle else seed,
        key=key,
    )


def _overrides(options: SensitiveOptions | None) -> tuple[int | None, int | None]:
    return (options.l, options.bucket_k) if options is not None else (None, None)


def _numeric(column: str, options: SensitiveOptions) -> NumericSA:
    terms = options.terms
    assert terms is not None, "bind declares numeric the attributes with terms"
    fuzzy = FuzzyTerms(tuple(terms.labels), tuple(terms.points), terms.rule)
    return NumericSA(column, fuzzy, options.l, options.bucket_k)
