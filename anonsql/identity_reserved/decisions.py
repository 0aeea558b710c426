"""DAnonyIR's decision functions (Wang et al., KAIS 2019, §4.3, Algorithms 2 and 4-6): whether
a class of individuals satisfies the privacy model ``π``, from scratch (``SatPriIR_*``,
:meth:`Decision.check`) and incrementally as individuals join (``SatPriIRInc_*``,
:meth:`Decision.add` then :meth:`Decision.satisfied`).

* ``kl``: ``n_Q >= k`` and ``m_Q >= l`` (a seen-value bitmap; O(r) per individual);
* ``αβ`` / ``Eαβ``: the largest record count of an individual and of a value (records for IR,
  individuals for EIR) against ``α·|Q|`` and ``β·|Q|`` or ``β·n_Q`` (value counters; O(r));
* ``El``: the minimum hitting set of the sensitive sets reaches ``l``. Incrementally the
  paper's product family (Algorithm 5) truncated at size ``l``
  (:class:`~anonsql.identity_reserved.hitting_sets.HittingFamily`); past its cap, or with
  ``incremental=False``, the exact search (Algorithm 2's ξ + a bounded branching instead of
  BHS).

:class:`Admission` answers Handle's question for the non-monotone (α,β) models: which finished
classes still satisfy ``π`` after one more individual joins them (Algorithm 7, lines 3-10).
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np
import numpy.typing as npt
from scipy import sparse

from anonsql.identity_reserved.encoding import Individuals
from anonsql.identity_reserved.hitting_sets import HittingFamily, bitmask_rows, is_eir_diverse
from anonsql.identity_reserved.models import (
    AlphaBetaModel,
    EIRLDiversity,
    IdentityReservedModel,
    IRKLAnonymity,
    alpha_beta_holds,
)

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


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
        return self.persons >= self.k and self.values >= self.ell

    def check(self, members: IntArray) -> bool:
        values = np.unique(self.codes_of(members)).shape[0]
        return members.shape[0] >= self.k and values >= self.ell


class AlphaBetaDecision(Decision):
    """SatPriIR_αβ / _Eαβ (Algorithm 4) and their incremental forms (Algorithm 6)."""

    monotone = False

    def __init__(
        self, individuals: Individuals, alpha: float, beta: float, *, enhanced: bool
    ) -> None:
        super().__init__(individuals)
        self.alpha = alpha
        self.beta = beta
        self.enhanced = enhanced
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
            alpha_beta_holds(
                np.array([records]),
                np.array([persons]),
                np.array([top_p]),
                np.array([top_r]),
                np.array([top_s]),
                self.alpha,
                self.beta,
                enhanced=self.enhanced,
            )[0]
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


def decision_for(
    model: IdentityReservedModel, individuals: Individuals, *, incremental: bool = True
) -> Decision:
    """The decision function of ``model`` (one of the four identity-reserved models)."""
    if isinstance(model, IRKLAnonymity):
        return KLDecision(individuals, model.k, model.ell)
    if isinstance(model, EIRLDiversity):
        return ELDecision(individuals, model.ell, incremental=incremental)
    if isinstance(model, AlphaBetaModel):
        return AlphaBetaDecision(individuals, model.alpha, model.beta, enhanced=model.enhanced)
    raise TypeError(f"no decision function for {model.name}")


class Admission:
    """Handle's admission test for the (α,β) models (Algorithm 7, lines 3-10): for one more
    individual ``p``, which classes of a labelling would still satisfy the model with ``p``.

    Class totals are computed once from the labels (class id per individual, ``< 0`` = none);
    :meth:`join` keeps them current when ``p`` is merged. Per call the cost is the number of
    individuals sharing one of ``p``'s values (an inverted index by value)."""

    def __init__(self, decision: AlphaBetaDecision, labels: IntArray, classes: int) -> None:
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
        return alpha_beta_holds(
            self.records + rec,
            self.persons + 1,
            np.maximum(self.max_person_records, rec),
            np.maximum(self.max_value_records, top_r),
            np.maximum(self.max_value_persons, top_p),
            self.decision.alpha,
            self.decision.beta,
            enhanced=self.decision.enhanced,
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
