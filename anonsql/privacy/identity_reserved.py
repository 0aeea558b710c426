"""Identity-reserved privacy models (Wang, Du, Luo, Li, "Two privacy-preserving approaches for
data publishing with identity reservation", Knowledge and Information Systems 2019, §2-3).

The published table keeps a pseudonymous number per individual (``Id_num``), so an individual's
records stay linked and one individual may own several records of a class. Within a class
``Q`` (restricted to its own rows): ``n_Q`` individuals, ``|Q|`` records, ``m_Q`` distinct
sensitive values, ``R(p)`` an individual's records, ``R(s)`` the records and ``P(s)`` the
individuals with value ``s``.

* ``ir_kl_anonymity`` (Tong et al., Definition 2.3.2): ``n_Q >= k`` and ``m_Q >= l``;
* ``ir_alpha_beta_anonymity`` (Definition 2.3.3): ``|R(p)|/|Q| <= α`` for every individual and
  ``|R(s)|/|Q| <= β`` for every value (records);
* ``eir_l_diversity`` (Definition 3.3): every reasoning set (one record per individual) holds
  ``l`` distinct values, i.e. the minimum hitting set of ``{S(p)}`` has ``>= l`` values
  (Theorem 3.1, an equivalence);
* ``eir_alpha_beta_anonymity`` (Definition 3.4): ``|R(p)|/|Q| <= α`` and
  ``max_s |P(s)| / n_Q <= β`` (Theorem 3.2, an equivalence: individuals, not records).

The IR models count records and leak (Table 3's Q2: every individual has Hypertension); the EIR
models count individuals. Each model has a SQL violation query over rows of persons
(``sql_templates/privacy/<name>.sql``: a person column, the quasi-identifiers, the
sensitive column, several rows per person; NULL is one sensitive value; statistics within the
class, digest G4) and a vectorized predicate over :class:`~anonsql.privacy.base.PartStats`
with its optional fields for individuals (``records``, ``max_person_records``,
``record_histograms``, ``set_histograms``, ``set_members``; each model names those it reads in
``needs_stats``). The EIR l-diversity query decides the hitting set in SQL by a depth-bounded
recursive search (at most the product of the l - 1 smallest un-hit set sizes of states per class);
its Python predicate decides it on per-class aggregates (the class's distinct sensitive sets) with
the exact search of :mod:`anonsql.privacy.hitting_sets` (limit: ``MAX_SEARCH_NODES`` per class).

**The record-count hole** (digest D9, not in the paper): linking records by ``Id_num`` publishes
every individual's number of records in the class. An attacker who knows how many records the
target has (e.g. how many diagnoses) narrows the class to the individuals with that count, and
none of the four models bounds what that subgroup reveals: in Table 4's Q2 only Id_num 1 has two
records, so knowing "Mike has two diagnoses" re-identifies him and discloses both. With
``record_counts: protected`` a model holds on every *count-refined class* (the individuals of a
class with the same record count), so the attacker's candidates after learning the count still
satisfy it. The SQL queries refine the classes themselves; the predicates must be given
count-refined parts (the models declare it with a ``record_count_refinement`` bound), which the
algorithms produce by clustering each record count separately
(:func:`anonsql.algorithms.identity_reserved.record_counts.by_record_count`): a release whose
classes each hold one record count.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt
from pydantic import Field
from typing_extensions import TypeVar

from anonsql.arrays import BoolArray, IntArray
from anonsql.errors import SpecError
from anonsql.privacy import histograms as hist
from anonsql.privacy.base import EPSILON, Bound, DataProfile, PartStats, PrivacyModel
from anonsql.privacy.histograms import Histogram
from anonsql.privacy.hitting_sets import bitmask_rows, is_eir_diverse
from anonsql.privacy.sensitive import SensitiveParams
from anonsql.sql import Relation

if TYPE_CHECKING:
    from scipy import sparse

    from anonsql.engines import Engine

REFERENCE = (
    "J. Wang, K. Du, X. Luo, X. Li, Two privacy-preserving approaches for data publishing with "
    "identity reservation, Knowledge and Information Systems 60(2), 2019 "
    "(doi:10.1007/s10115-018-1237-3); IR models after Tong et al., J. Software 2010"
)

#: The optional PartStats fields, as the models name them in ``needs_stats``.
RECORDS = "records"
MAX_PERSON_RECORDS = "max_person_records"
RECORD_HISTOGRAMS = "record_histograms"
SET_HISTOGRAMS = "set_histograms"
SET_MEMBERS = "set_members"


# -- predicates on per-class statistics (shared by the models, DAnonyIR's decisions and Handle) --


def within_share(top: npt.ArrayLike, share: float, total: npt.ArrayLike) -> BoolArray:
    """``top <= share * total`` with the SQL queries' slack (same float64 arithmetic)."""
    top_f = np.asarray(top, dtype=np.float64)
    total_f = np.asarray(total, dtype=np.float64)
    ok: BoolArray = top_f <= share * total_f + EPSILON
    return ok


def ir_kl_holds(persons: IntArray, values: IntArray, k: int, ell: int) -> BoolArray:
    ok: BoolArray = (persons >= k) & (values >= ell)
    return ok


def alpha_beta_holds(
    records: IntArray,
    persons: IntArray,
    max_person_records: IntArray,
    max_value_records: IntArray,
    max_value_persons: IntArray,
    alpha: float,
    beta: float,
    *,
    enhanced: bool,
) -> BoolArray:
    """IR (α,β) (``enhanced`` False: β over records) or EIR (α,β) (β over individuals)."""
    first = within_share(max_person_records, alpha, records)
    if enhanced:
        second = within_share(max_value_persons, beta, persons)
    else:
        second = within_share(max_value_records, beta, records)
    ok: BoolArray = (persons > 0) & first & second
    return ok


# -- parameters ------------------------------------------------------------------------------


class IRParams(SensitiveParams):
    record_counts: Literal["published", "protected"] = Field(
        default="published",
        description=(
            "'protected' refines every class by the individuals' record counts, which a "
            "release linking records by Id_num publishes"
        ),
    )


class IRKLParams(IRParams):
    k: int = Field(description="minimum individuals per class")
    l: int = Field(description="minimum distinct sensitive values per class")


class AlphaBetaParams(IRParams):
    alpha: float = Field(description="largest share of a class's records one individual may own")
    beta: float = Field(description="largest share of a class a sensitive value may reach")


class EIRLParams(IRParams):
    l: int = Field(description="minimum distinct values in every reasoning set")


def _positive(key: str, name: str, value: int) -> None:
    if value < 1:
        raise SpecError(f"{key}.{name}", f"{name} = {value} is below 1", f"use {name} >= 1")


def _share(key: str, name: str, value: float) -> None:
    if not (0.0 < value <= 1.0) or math.isnan(value):
        raise SpecError(
            f"{key}.{name}",
            f"{name} = {value} is outside (0, 1]",
            f"use 0 < {name} <= 1 (the paper's range is (0, 1))",
        )


def _at_most(key: str, name: str, value: int, bound: int, what: str) -> None:
    if value > bound:
        raise SpecError(
            f"{key}.{name}",
            f"{name} = {value} exceeds the {bound} {what} of the source",
            f"use {name} <= {bound}",
        )


# -- the models --------------------------------------------------------------------------------


IRP = TypeVar("IRP", bound=IRParams, default=IRParams, covariant=True)


class IdentityReservedModel(PrivacyModel[IRP]):
    """Base of the identity-reserved models: they count individuals (persons), need the person
    column and a sensitive column, render ``privacy/<name>``, and hold after whole
    individuals are suppressed (the algorithms never suppress part of an individual)."""

    needs_sensitive = True
    needs_person = True
    counts_persons = True
    supports_suppression = True
    reference = REFERENCE

    @property
    def column(self) -> str:
        return self.params.column

    @property
    def protects_record_counts(self) -> bool:
        """Whether classes are refined by the individuals' record counts (see the module)."""
        return self.params.record_counts == "protected"

    def template_params(self) -> dict[str, Any]:
        return {"record_counts": self.params.record_counts}

    def parameter_bounds(self) -> tuple[Bound, ...]:
        """The bounds the parameters set on every (count-refined) class."""
        return ()

    def bounds(self) -> tuple[Bound, ...]:
        refined = (Bound("record_count_refinement", 1),) if self.protects_record_counts else ()
        return (*self.parameter_bounds(), *refined)

    def _require(self, parts: PartStats) -> None:
        """Refuse statistics without the optional fields the predicate reads."""
        missing = [
            name
            for name in sorted(self.needs_stats)
            if getattr(parts, name) is None
            or (isinstance(getattr(parts, name), dict) and self.column not in getattr(parts, name))
        ]
        if missing:
            raise ValueError(
                f"{self.name} reads the part statistics {', '.join(missing)} of column "
                f"{self.column!r}, which were not computed"
            )


class IRKLAnonymity(IdentityReservedModel[IRKLParams]):
    """IR (k,l)-anonymity (Tong et al. 2010; Wang et al. 2019, Definition 2.3): every class
    holds at least ``k`` individuals and ``l`` distinct sensitive values. Monotone. Leaks
    attribute values when several records belong to one individual (Table 3, Q2)."""

    name = "ir_kl_anonymity"
    examples = (
        {"k": 1, "l": 1},
        {"k": 2, "l": 2, "record_counts": "protected"},
        {"k": 3, "l": 2},
    )

    @property
    def k(self) -> int:
        return self.params.k

    @property
    def ell(self) -> int:
        return self.params.l

    def check_params(self, key: str) -> None:
        _positive(key, "k", self.k)
        _positive(key, "l", self.ell)

    def check_against(self, profile: DataProfile, key: str) -> None:
        _at_most(key, "k", self.k, profile.rows, "individuals")
        values = profile.distinct_sensitive.get(self.column, self.ell)
        _at_most(key, "l", self.ell, values, "distinct sensitive values")

    def min_rows(self) -> int:
        return self.k

    def parameter_bounds(self) -> tuple[Bound, ...]:
        return (Bound("class_size", self.k), Bound("distinct_values", self.ell, self.column))

    def holds(self, parts: PartStats) -> BoolArray:
        values = hist.distinct_per_row(parts.histograms[self.column])
        return ir_kl_holds(parts.counts, values, self.k, self.ell)

    def template_params(self) -> dict[str, Any]:
        return {**super().template_params(), "k": self.k, "l": self.ell}


class AlphaBetaModel(IdentityReservedModel[AlphaBetaParams]):
    """Shared parameters and bounds of the two (α,β) models.

    Not monotone in the paper's sense (a satisfying class may fail once one more individual
    joins it: Handle must check), but a union of disjoint satisfying classes satisfies them
    (every share is at most the larger of its shares in the parts), which is what
    :attr:`~anonsql.privacy.base.PrivacyModel.monotonic` declares: classes that publish the
    same values may merge."""

    enhanced = False
    needs_stats = frozenset({RECORDS, MAX_PERSON_RECORDS, RECORD_HISTOGRAMS})
    examples = (
        {"alpha": 1.0, "beta": 1.0},
        {"alpha": 0.5, "beta": 0.5, "record_counts": "protected"},
        {"alpha": 0.6, "beta": 0.4},
    )

    @property
    def alpha(self) -> float:
        return self.params.alpha

    @property
    def beta(self) -> float:
        return self.params.beta

    def check_params(self, key: str) -> None:
        _share(key, "alpha", self.alpha)
        _share(key, "beta", self.beta)

    def min_rows(self) -> int:
        """Individuals a class needs: one individual owns >= 1/n of the records (α) and, for
        EIR, a present value has >= 1 of the n individuals (β)."""
        need = math.ceil(1.0 / self.alpha - EPSILON)
        if self.enhanced:
            need = max(need, math.ceil(1.0 / self.beta - EPSILON))
        return max(1, need)

    def check_against(self, profile: DataProfile, key: str) -> None:
        if self.min_rows() > profile.rows:
            raise SpecError(
                key,
                f"a class needs at least {self.min_rows()} individuals under these shares, "
                f"and the source has {profile.rows}",
                "raise alpha (and beta)",
            )

    def parameter_bounds(self) -> tuple[Bound, ...]:
        value_share = "value_individual_share" if self.enhanced else "value_record_share"
        return (
            Bound("individual_record_share", self.alpha),
            Bound(value_share, self.beta, self.column),
        )

    def holds(self, parts: PartStats) -> BoolArray:
        self._require(parts)
        assert parts.records is not None and parts.max_person_records is not None
        return alpha_beta_holds(
            parts.records,
            parts.counts,
            parts.max_person_records,
            hist.row_max(parts.record_histograms[self.column]),
            hist.row_max(parts.histograms[self.column]),
            self.alpha,
            self.beta,
            enhanced=self.enhanced,
        )

    def template_params(self) -> dict[str, Any]:
        return {**super().template_params(), "alpha": self.alpha, "beta": self.beta}


class IRAlphaBetaAnonymity(AlphaBetaModel):
    """IR (α,β)-anonymity (Tong et al. 2010; Wang et al. 2019, Definition 2.3): no individual
    owns more than ``α`` of a class's records and no sensitive value more than ``β`` of its
    records. Not monotone when one individual joins (Table 4)."""

    name = "ir_alpha_beta_anonymity"


class EIRAlphaBetaAnonymity(AlphaBetaModel):
    """EIR (α,β)-anonymity (Wang et al. 2019, Definition 3.4 with Theorem 3.2): no individual
    owns more than ``α`` of a class's records, and no sensitive value is held by more than
    ``β`` of its individuals (``max_s |P(s)| / n_Q <= β``, the attacker's confidence over the
    reasoning sets). Not monotone when one individual joins (digest T12)."""

    name = "eir_alpha_beta_anonymity"
    enhanced = True


class EIRLDiversity(IdentityReservedModel[EIRLParams]):
    """EIR l-diversity (Wang et al. 2019, Definition 3.3, Theorem 3.1): every reasoning set of
    a class (one record per individual) holds at least ``l`` distinct sensitive values, i.e.
    the minimum hitting set of the individuals' sensitive sets has at least ``l`` values.
    Implies IR (l,l)-anonymity. Monotone."""

    name = "eir_l_diversity"
    #: Not in the dbt package: its hitting-set search uses DuckDB's list syntax, which anonsql
    #: transpiles with sqlglot for each engine but dbt would run as written (`anonsql check`).
    dbt_test = False
    needs_stats = frozenset({SET_HISTOGRAMS, SET_MEMBERS})
    examples = ({"l": 1}, {"l": 2, "record_counts": "protected"}, {"l": 3})
    #: The search is a recursive CTE whose step picks one un-hit individual with a correlated
    #: LATERAL ... ORDER BY ... LIMIT 1, which Spark cannot plan (it rewrites the LIMIT as an
    #: unordered row number).
    engine_capabilities = frozenset({"recursive_lateral_joins"})

    def prepared(self, engine: Engine, relation: Relation, qids: Sequence[str]) -> PrivacyModel:
        self.check_engine(engine)
        return self

    @property
    def ell(self) -> int:
        return self.params.l

    def check_params(self, key: str) -> None:
        _positive(key, "l", self.ell)

    def check_against(self, profile: DataProfile, key: str) -> None:
        _at_most(key, "l", self.ell, profile.rows, "individuals")
        values = profile.distinct_sensitive.get(self.column, self.ell)
        _at_most(key, "l", self.ell, values, "distinct sensitive values")

    def min_rows(self) -> int:
        return self.ell

    def parameter_bounds(self) -> tuple[Bound, ...]:
        return (Bound("reasoning_set_values", self.ell, self.column),)

    def holds(self, parts: PartStats) -> BoolArray:
        from scipy import sparse  # see anonsql.privacy.histograms: imported when used

        self._require(parts)
        sets = parts.set_histograms[self.column]
        members = parts.set_members[self.column]
        values = hist.distinct_per_row(parts.histograms[self.column])
        out = (parts.counts >= self.ell) & (values >= self.ell)
        # ξ: the values of one-value sets are in every hitting set
        single = np.diff(members.indptr) == 1
        single_members = sparse.diags_array(single.astype(np.int64), dtype=np.int64) @ members
        forced = sparse.csr_array(sets @ single_members)
        enough = hist.distinct_per_row(forced) >= self.ell
        for part in np.flatnonzero(out & ~enough):
            out[part] = self._diverse(sets, members, int(part))
        return out

    def _diverse(self, sets: Histogram, members: sparse.csr_array, part: int) -> bool:
        """The exact decision on one part's distinct sensitive sets."""
        set_ids = sets.indices[sets.indptr[part] : sets.indptr[part + 1]]
        rows = members[set_ids]
        _, local = np.unique(rows.indices, return_inverse=True)
        bits = bitmask_rows(rows.indptr, local.reshape(-1), int(local.max()) + 1)
        return is_eir_diverse(bits, self.ell)

    def template_params(self) -> dict[str, Any]:
        return {**super().template_params(), "l": self.ell}


IDENTITY_RESERVED_MODELS: tuple[type[IdentityReservedModel], ...] = (
    IRKLAnonymity,
    IRAlphaBetaAnonymity,
    EIRLDiversity,
    EIRAlphaBetaAnonymity,
)

__all__ = [
    "IDENTITY_RESERVED_MODELS",
    "REFERENCE",
    "AlphaBetaModel",
    "EIRAlphaBetaAnonymity",
    "EIRLDiversity",
    "IRAlphaBetaAnonymity",
    "IRKLAnonymity",
    "IdentityReservedModel",
    "alpha_beta_holds",
    "ir_kl_holds",
    "within_share",
]
