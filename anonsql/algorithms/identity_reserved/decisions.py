"""DAnonyIR's decision functions (Wang et al., KAIS 2019, §4.3, Algorithms 2 and 4-6): whether
a class of individuals satisfies the privacy models ``π``, from scratch (``SatPriIR_*``,
:meth:`Decision.check`) and incrementally as individuals join (``SatPriIRInc_*``,
:meth:`Decision.add` then :meth:`Decision.satisfied`).

The models are read through their declared bounds (:func:`requirements`), never their classes:

* ``class_size`` and ``distinct_values`` — ``kl``: ``n_Q >= k`` and ``m_Q >= l`` (a seen-value
  bitmap; O(r) per individual);
* ``individual_record_share``, ``value_record_share``, ``value_individual_share`` — ``αβ`` /
  ``Eαβ``: the largest record count of an individual and of a value (records for IR,
  individuals for EIR) against ``α·|Q|`` and ``β·|Q|`` or ``β·n_Q`` (value counters; O(r));
* ``reasoning_set_values`` — ``El``: the minimum hitting set of the sensitive sets reaches
  ``l``. Incrementally the paper's product family (Algorithm 5) truncated at size ``l``
  (:class:`~anonsql.privacy.hitting_sets.HittingFamily`); past its cap, or with
  ``incremental=False``, the exact search (Algorithm 2's ξ + a bounded branching instead of
  BHS).

Several models (or bounds) are decided together by :class:`AllOf`. :class:`Admission` answers
Handle's question for the non-monotone share bounds: which finished classes still satisfy ``π``
after one more individual joins them (Algorithm 7, lines 3-10); the monotone bounds still hold
on any class that grows.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy import sparse

from anonsql.algorithms.identity_reserved.encoding import Individuals
from anonsql.arrays import BoolArray, IntArray
from anonsql.errors import SpecError
from anonsql.privacy.base import PrivacyModel
from anonsql.privacy.hitting_sets import HittingFamily, bitmask_rows, is_eir_diverse
from anonsql.privacy.identity_reserved import within_share

#: The bound kinds the identity-reserved algorithms enforce.
ENFORCED_BOUNDS = frozenset(
    {
        "class_size",
        "distinct_values",
        "reasoning_set_values",
        "individual_record_share",
        "value_record_share",
        "value_individual_share",
        "record_count_refinement",
    }
)


@dataclass(frozen=True)
class Requirements:
    """What every class must satisfy: the strictest value of each bound kind the models declare
    (1 or 1.0 when none sets it); ``column`` the sensitive column the bounds read (None when
    none does) and ``refined`` whether the classes are count-refined (record counts protected).
    """

    k: int = 1
    distinct: int = 1
    reasoning: int = 1
    alpha: float = 1.0
    beta_records: float = 1.0
    beta_individuals: float = 1.0
    refined: bool = False
    column: str | None = None

    @property
    def shares(self) -> bool:
        """Whether a share bound (non-monotone) is set."""
        return min(self.alpha, self.beta_records, self.beta_individuals) < 1.0

    @property
    def smallest_class(self) -> int:
        """Individuals a class needs at least."""
        need = max(self.k, self.distinct, self.reasoning)
        for share in (self.alpha, self.beta_individuals):
            need = max(need, int(np.ceil(1.0 / share - 1e-9)))
        return need


def unenforced(model: PrivacyModel) -> str | None:
    """Why the identity-reserved algorithms cannot enforce ``model`` (None if they can)."""
    bounds = model.bounds()
    if not bounds:
        return "it declares no bounds these algorithms can enforce"
    unknown = sorted({b.kind for b in bounds} - ENFORCED_BOUNDS)
    if unknown:
        return f"its bounds {', '.join(unknown)} are not enforced by these algorithms"
    return None


def requirements(models: Sequence[PrivacyModel]) -> Requirements:
    """The models' bounds combined (the models are assumed enforceable, see :func:`unenforced`).
    Bounds on different sensitive columns are refused: the algorithms read one."""
    k = distinct = reasoning = 1
    alpha = beta_records = beta_individuals = 1.0
    refined = False
    columns = {b.column for m in models for b in m.bounds() if b.column is not None}
    if len(columns) > 1:
        raise SpecError(
            "privacy",
            f"the models read {len(columns)} different sensitive columns",
            "protect one sensitive column (the identity-reserved algorithms read one)",
        )
    for bound in (b for m in models for b in m.bounds()):
        if bound.kind == "class_size":
            k = max(k, int(bound.value))
        elif bound.kind == "distinct_values":
            distinct = max(distinct, int(bound.value))
        elif bound.kind == "reasoning_set_values":
            reasoning = max(reasoning, int(bound.value))
        elif bound.kind == "individual_record_share":
            alpha = min(alpha, float(bound.value))
        elif bound.kind == "value_record_share":
            beta_records = min(beta_records, float(bound.value))
        elif bound.kind == "value_individual_share":
            beta_individuals = min(beta_individuals, float(bound.value))
        elif bound.kind == "record_count_refinement":
            refined = True
    return Requirements(
        k=k,
        distinct=distinct,
        reasoning=reasoning,
        alpha=alpha,
        beta_records=beta_records,
        beta_individuals=beta_individuals,
        refined=refined,
        column=columns.pop() if columns else None,
    )


def gather(indptr: IntArray, data: IntArray, rows: IntArray) -> tuple[IntArray, IntArray]:
    """CSR entries of ``rows`` (vectorized): (the data, the position in ``rows`` of each)."""
    starts = indptr[rows]
    lengths = indptr[rows + 1] - starts
    owner = np.repeat(np.arange(rows.shape[0], dtype=np.int64), lengths)
    offsets = np.arange(owner.shape[0], dtype=np.int64) - np.repeat(
        np.cumsum(lengths) - lengths, lengths
    )
    return data[starts[owner] + offsets], owner


class Decision(ABC):
    """A decision function for one model over one set of individuals."""

    #: Whether a class satisfying the model still does after an individual joins (kl, El).
    monotone: bool = True

    def __init__(self, individuals: Individuals) -> None:
        self.individuals = individuals

    @abstractmethod
    def start(self) -> None:
        """Forget the class under construction."""

    @abstractmethod
    def add(self, members: IntArray) -> None:
        """Individuals join the class under construction (SatPriIRInc)."""

    @abstractmethod
    def satisfied(self) -> bool:
        """Whether the class under construction satisfies the model."""

    @abstractmethod
    def check(self, members: IntArray) -> bool:
        """Whether the class of ``members`` satisfies the model, from scratch (SatPriIR)."""

    def codes_of(self, members: IntArray) -> IntArray:
        ind = self.individuals
        codes, _ = gather(ind.sa_indptr, ind.sa_codes, members)
        return codes


class KLDecision(Decision):
    """SatPriIR_kl / SatPriIRInc_kl: IR (k,l)-anonymity."""

    def __init__(self, individuals: Individuals, k: int, ell: int) -> None:
        super().__init__(individuals)
        self.k = k
        self.ell = ell
        self._seen = np.zeros(max(1, individuals.value_count), dtype=bool)
        self.start()

    def start(self) -> None:
        self._seen[:] = False
        self.persons = 0
        self.values = 0

    def add(self, members: IntArray) -> None:
        codes = np.unique(self.codes_of(members))
        fresh = codes[~self._seen[codes]]
        self._seen[fresh] = True
        self.values += int(fresh.shape[0])
        self.persons += int(members.shape[0])

    def satisfied(self) -> bool:
        return self.persons >= max(1, self.k) and (self.ell <= 1 or self.values >= self.ell)

    def check(self, members: IntArray) -> bool:
        values = np.unique(self.codes_of(members)).shape[0]
        return members.shape[0] >= max(1, self.k) and (self.ell <= 1 or values >= self.ell)


def shares_hold(
    records: npt.ArrayLike,
    persons: npt.ArrayLike,
    max_person_records: npt.ArrayLike,
    max_value_records: npt.ArrayLike,
    max_value_persons: npt.ArrayLike,
    requirements: Requirements,
) -> BoolArray:
    """The share bounds on classes given their totals (the models' arithmetic and slack)."""
    persons_a = np.asarray(persons)
    ok: BoolArray = (
        (persons_a > 0)
        & within_share(max_person_records, requirements.alpha, records)
        & within_share(max_value_records, requirements.beta_records, records)
        & within_share(max_value_persons, requirements.beta_individuals, persons_a)
    )
    return ok


class SharesDecision(Decision):
    """SatPriIR_αβ / _Eαβ (Algorithm 4) and their incremental forms (Algorithm 6): the share
    bounds (an individual's records, a value's records, a value's individuals)."""

    monotone = False

    def __init__(self, individuals: Individuals, requirements: Requirements) -> None:
        super().__init__(individuals)
        self.requirements = requirements
        m = max(1, individuals.value_count)
        self._value_records = np.zeros(m, dtype=np.int64)
        self._value_persons = np.zeros(m, dtype=np.int64)
        self._touched: list[IntArray] = []
        self.start()

    def start(self) -> None:
        for codes in self._touched:
            self._value_records[codes] = 0
            self._value_persons[codes] = 0
        self._touched = []
        self.records = 0
        self.persons = 0
        self.max_person_records = 0
        self.max_value_records = 0
        self.max_value_persons = 0

    def add(self, members: IntArray) -> None:
        ind = self.individuals
        codes, _ = gather(ind.sa_indptr, ind.sa_codes, members)
        counts, _ = gather(ind.sa_indptr, ind.sa_records, members)
        np.add.at(self._value_records, codes, counts)
        np.add.at(self._value_persons, codes, 1)
        self._touched.append(codes)
        rec = ind.records[members]
        self.records += int(rec.sum())
        self.persons += int(members.shape[0])
        self.max_person_records = max(self.max_person_records, int(rec.max()))
        if codes.shape[0]:
            self.max_value_records = max(
                self.max_value_records, int(self._value_records[codes].max())
            )
            self.max_value_persons = max(
                self.max_value_persons, int(self._value_persons[codes].max())
            )

    def _holds(self, records: int, persons: int, top_p: int, top_r: int, top_s: int) -> bool:
        return bool(
            shares_hold([records], [persons], [top_p], [top_r], [top_s], self.requirements)[0]
        )

    def satisfied(self) -> bool:
        return self._holds(
            self.records,
            self.persons,
            self.max_person_records,
            self.max_value_records,
            self.max_value_persons,
        )

    def check(self, members: IntArray) -> bool:
        ind = self.individuals
        codes, _ = gather(ind.sa_indptr, ind.sa_codes, members)
        counts, _ = gather(ind.sa_indptr, ind.sa_records, members)
        rec = ind.records[members]
        by_records = np.bincount(codes, weights=counts).max() if codes.size else 0
        by_persons = np.bincount(codes).max() if codes.size else 0
        return self._holds(
            int(rec.sum()), int(members.shape[0]), int(rec.max()), int(by_records), int(by_persons)
        )


class ELDecision(Decision):
    """SatPriIR_El (Algorithm 2, exact) and SatPriIRInc_El (Algorithm 5, truncated product)."""

    def __init__(self, individuals: Individuals, ell: int, *, incremental: bool = True) -> None:
        super().__init__(individuals)
        self.ell = ell
        self.incremental = incremental
        self.fallbacks = 0
        self.start()

    def start(self) -> None:
        self._members: list[IntArray] = []
        self._family = HittingFamily(self.ell, self.individuals.value_count)
        self._counted_fallback = False

    def add(self, members: IntArray) -> None:
        self._members.append(members)
        if not self.incremental or self._family.overflowed:
            return
        ind = self.individuals
        for p in members:
            self._family.add(ind.sa_codes[ind.sa_indptr[p] : ind.sa_indptr[p + 1]])
            if self._family.overflowed:
                break

    def satisfied(self) -> bool:
        if self.incremental and not self._family.overflowed:
            return self._family.satisfied
        if self.incremental and not self._counted_fallback:
            self.fallbacks += 1
            self._counted_fallback = True
        return self.check(np.concatenate(self._members))

    def check(self, members: IntArray) -> bool:
        if members.shape[0] < self.ell:
            return False
        ind = self.individuals
        codes, owner = gather(ind.sa_indptr, ind.sa_codes, members)
        values, local = np.unique(codes, return_inverse=True)
        if values.shape[0] < self.ell:
            return False
        indptr = np.concatenate([[0], np.cumsum(np.bincount(owner, minlength=members.shape[0]))])
        bits = bitmask_rows(indptr, local.reshape(-1), int(values.shape[0]))
        return is_eir_diverse(bits, self.ell)


class AllOf(Decision):
    """Several decision functions at once: a class satisfies ``π`` when it satisfies each."""

    def __init__(self, individuals: Individuals, parts: Sequence[Decision]) -> None:
        super().__init__(individuals)
        self.parts = list(parts)
        self.monotone = all(p.monotone for p in self.parts)

    def start(self) -> None:
        for part in self.parts:
            part.start()

    def add(self, members: IntArray) -> None:
        for part in self.parts:
            part.add(members)

    def satisfied(self) -> bool:
        return all(part.satisfied() for part in self.parts)

    def check(self, members: IntArray) -> bool:
        return all(part.check(members) for part in self.parts)


def decision_for(
    required: Requirements | PrivacyModel | Sequence[PrivacyModel],
    individuals: Individuals,
    *,
    incremental: bool = True,
) -> Decision:
    """The decision function of ``requirements``: SatPriIR_kl for class size and distinct
    values, SatPriIR_El for reasoning sets, SatPriIR_αβ / _Eαβ for shares (SatPriIR_kl with
    ``k = l = 1`` when nothing is required); :class:`AllOf` them when several apply."""
    if not isinstance(required, Requirements):
        required = requirements([required] if isinstance(required, PrivacyModel) else required)
    return _decision(required, individuals, incremental)


def _decision(requirements: Requirements, individuals: Individuals, incremental: bool) -> Decision:
    parts: list[Decision] = []
    if requirements.k > 1 or requirements.distinct > 1:
        parts.append(KLDecision(individuals, requirements.k, requirements.distinct))
    if requirements.reasoning > 1:
        parts.append(ELDecision(individuals, requirements.reasoning, incremental=incremental))
    if requirements.shares:
        parts.append(SharesDecision(individuals, requirements))
    if not parts:
        parts.append(KLDecision(individuals, 1, 1))
    return parts[0] if len(parts) == 1 else AllOf(individuals, parts)


def shares_of(decision: Decision) -> SharesDecision | None:
    """The share part of a decision (the non-monotone one Handle must admit), if any."""
    if isinstance(decision, SharesDecision):
        return decision
    if isinstance(decision, AllOf):
        return next((p for p in decision.parts if isinstance(p, SharesDecision)), None)
    return None


class Admission:
    """Handle's admission test for the (α,β) models (Algorithm 7, lines 3-10): for one more
    individual ``p``, which classes of a labelling would still satisfy the model with ``p``.

    Class totals are computed once from the labels (class id per individual, ``< 0`` = none);
    :meth:`join` keeps them current when ``p`` is merged. Per call the cost is the number of
    individuals sharing one of ``p``'s values (an inverted index by value)."""

    def __init__(self, decision: SharesDecision, labels: IntArray, classes: int) -> None:
        ind = decision.individuals
        self.decision = decision
        self.labels = labels
        self.classes = classes
        by_value = ind.sensitive_matrix(records=True).tocsc()
        self._value_indptr = by_value.indptr.astype(np.int64)
        self._value_rows = by_value.indices.astype(np.int64)
        self._value_records = by_value.data.astype(np.int64)
        inside = labels >= 0
        part = labels[inside]
        self.persons = np.bincount(part, minlength=classes).astype(np.int64)
        self.records = np.bincount(part, weights=ind.records[inside], minlength=classes).astype(
            np.int64
        )
        self.max_person_records = np.zeros(classes, dtype=np.int64)
        np.maximum.at(self.max_person_records, part, ind.records[inside])
        owner = np.repeat(labels, ind.set_sizes())
        keep = owner >= 0
        shape = (classes, max(1, ind.value_count))
        pairs_r = sparse.coo_array(
            (ind.sa_records[keep], (owner[keep], ind.sa_codes[keep])), shape=shape
        ).tocsr()
        pairs_p = sparse.coo_array(
            (np.ones(int(keep.sum()), dtype=np.int64), (owner[keep], ind.sa_codes[keep])),
            shape=shape,
        ).tocsr()
        self.max_value_records = pairs_r.max(axis=1).toarray().reshape(-1).astype(np.int64)
        self.max_value_persons = pairs_p.max(axis=1).toarray().reshape(-1).astype(np.int64)

    def _value_counts(self, individual: int) -> tuple[IntArray, IntArray, IntArray]:
        """Per class, the largest count (records, individuals) among ``p``'s values once
        ``p`` joins, and ``p``'s own records per value."""
        ind = self.decision.individuals
        lo, hi = ind.sa_indptr[individual], ind.sa_indptr[individual + 1]
        codes = ind.sa_codes[lo:hi]
        own = ind.sa_records[lo:hi]
        top_r = np.zeros(self.classes, dtype=np.int64)
        top_p = np.zeros(self.classes, dtype=np.int64)
        for code, mine in zip(codes, own, strict=True):
            rows = self._value_rows[self._value_indptr[code] : self._value_indptr[code + 1]]
            recs = self._value_records[self._value_indptr[code] : self._value_indptr[code + 1]]
            labels = self.labels[rows]
            inside = labels >= 0
            by_r = np.bincount(labels[inside], weights=recs[inside], minlength=self.classes)
            by_p = np.bincount(labels[inside], minlength=self.classes)
            np.maximum(top_r, by_r.astype(np.int64) + int(mine), out=top_r)
            np.maximum(top_p, by_p.astype(np.int64) + 1, out=top_p)
        return top_r, top_p, own

    def admits(self, individual: int) -> BoolArray:
        """For every class, whether it satisfies the model with ``individual`` added."""
        ind = self.decision.individuals
        top_r, top_p, _ = self._value_counts(individual)
        rec = int(ind.records[individual])
        return shares_hold(
            self.records + rec,
            self.persons + 1,
            np.maximum(self.max_person_records, rec),
            np.maximum(self.max_value_records, top_r),
            np.maximum(self.max_value_persons, top_p),
            self.decision.requirements,
        )

    def join(self, individual: int, j: int) -> None:
        """``individual`` was merged into class ``j``: update the totals and labels."""
        ind = self.decision.individuals
        top_r, top_p, _ = self._value_counts(individual)
        rec = int(ind.records[individual])
        self.records[j] += rec
        self.persons[j] += 1
        self.max_person_records[j] = max(int(self.max_person_records[j]), rec)
        self.max_value_records[j] = max(int(self.max_value_records[j]), int(top_r[j]))
        self.max_value_persons[j] = max(int(self.max_value_persons[j]), int(top_p[j]))
        self.labels[individual] = j
