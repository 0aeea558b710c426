"""Minimum hitting sets of individuals' sensitive-value sets (Wang, Du, Luo, Li, "Two
privacy-preserving approaches for data publishing with identity reservation", KAIS 2019, §3).

An equivalence class satisfies EIR l-diversity iff the minimum hitting set of
``{S(p) : p in the class}`` has at least ``l`` values (Theorem 3.1; the converse holds too: any
hitting set lets each individual pick a record whose value is in it, so the smallest reasoning
set has exactly ``τ`` distinct values, digest D-1).

Three deciders live here:

* :func:`hitting_set_within` / :func:`is_eir_diverse` — the production decision, exact: a
  depth-bounded branching on the smallest un-hit set (a hitting set must contain one of its
  values), with the paper's forced singletons (ξ of Algorithm 2) and a counting bound
  (``ceil(sets / max value frequency)``). Nodes are capped by
  :data:`MAX_SEARCH_NODES`;
* :class:`HittingFamily` — the paper's incremental SatPriIRInc_El (Algorithm 5): the family
  of minimal hitting sets multiplied by ``(s_1 + ... + s_r)`` for each added individual,
  truncated at size ``l`` (a set of size >= l can never witness τ < l, so the class holds iff
  the truncated family is empty);
* :func:`bhs` / :func:`sat_el_algorithm2` — the paper's Boolean hitting-set procedure
  (Algorithm 3, Jiang & Lin) and Algorithm 2 on Python sets, kept as the reference the
  vectorized deciders are tested against (BHS does not return every minimal hitting set but
  always one of minimum size).

Sets are rows of 64-bit words (bit ``v`` = value ``v`` of a class-local alphabet).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from anonsql.arrays import BoolArray, IntArray
from anonsql.errors import SpecError

Bits = npt.NDArray[np.uint64]
T = TypeVar("T")

_ONE = np.uint64(1)

#: Exact minimum-hitting-set decision (EIR l-diversity): search-tree nodes one class may
#: visit. The search is a bounded depth-(l-1) branching on the smallest un-hit set, pruned by
#: forced singletons and a counting bound; its worst case is r^(l-1) nodes for sets of size r.
MAX_SEARCH_NODES = 200_000

#: Incremental EIR l-diversity (the paper's Algorithm 5): minimal hitting sets of size < l kept
#: for the class under construction. Above this, the class falls back to the exact search.
MAX_FAMILY_SETS = 4_096


class LimitError(SpecError):
    """A size limit of an identity-reserved algorithm or check was exceeded."""


def words_for(values: int) -> int:
    """64-bit words per row for an alphabet of ``values`` values (at least one)."""
    return max(1, (int(values) + 63) // 64)


def bitmask_rows(indptr: npt.ArrayLike, codes: npt.ArrayLike, values: int) -> Bits:
    """CSR sets (row ``i`` = ``codes[indptr[i]:indptr[i+1]]``, codes < ``values``) as bit rows."""
    indptr_a = np.asarray(indptr, dtype=np.int64)
    codes_a = np.asarray(codes, dtype=np.int64)
    n = indptr_a.shape[0] - 1
    out = np.zeros((n, words_for(values)), dtype=np.uint64)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr_a))
    bits = np.left_shift(_ONE, (codes_a & 63).astype(np.uint64))
    np.bitwise_or.at(out, (rows, codes_a >> 6), bits)
    return out


def popcount(rows: Bits) -> IntArray:
    """Set sizes: the number of 1 bits of each row."""
    if rows.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    if hasattr(np, "bitwise_count"):
        counts: IntArray = np.bitwise_count(rows).sum(axis=1, dtype=np.int64)
        return counts
    unpacked = np.unpackbits(np.ascontiguousarray(rows).view(np.uint8), axis=1)
    fallback: IntArray = unpacked.sum(axis=1, dtype=np.int64)
    return fallback


def _bits(rows: Bits) -> npt.NDArray[np.uint8]:
    """Rows unpacked to one byte per value position (little-endian word and bit order)."""
    little = np.ascontiguousarray(rows.astype("<u8", copy=False)).view(np.uint8)
    return np.unpackbits(little, axis=1, bitorder="little")


def _hits(rows: Bits, mask: Bits) -> BoolArray:
    hits: BoolArray = np.asarray((rows & mask).any(axis=1), dtype=np.bool_)
    return hits


def minimal_rows(rows: Bits) -> Bits:
    """Distinct rows that contain no other row (absorption ``A + AB = A``)."""
    if rows.shape[0] <= 1:
        return rows
    rows = np.unique(rows, axis=0)
    sizes = popcount(rows)
    keep = np.ones(rows.shape[0], dtype=bool)
    chunk = max(1, (1 << 22) // max(1, rows.shape[0] * rows.shape[1]))
    for start in range(0, rows.shape[0], chunk):
        block = rows[start : start + chunk]
        contained = ((rows[None, :, :] & ~block[:, None, :]) == 0).all(axis=2)
        smaller = sizes[None, :] < sizes[start : start + chunk, None]
        keep[start : start + chunk] = ~(contained & smaller).any(axis=1)
    kept: Bits = rows[keep]
    return kept


class _Nodes:
    """Counts search-tree nodes and enforces the limit."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.visited = 0

    def tick(self) -> None:
        self.visited += 1
        if self.visited > self.limit:
            raise LimitError(
                "privacy.eir_l_diversity.l",
                f"deciding one class's minimum hitting set needed more than {self.limit} search "
                "nodes (many individuals with many sensitive values and a large l)",
                "lower l, or raise anonsql.privacy.hitting_sets.MAX_SEARCH_NODES",
            )


def _within(rows: Bits, budget: int, nodes: _Nodes) -> bool:
    """Whether the sets ``rows`` (non-empty) have a hitting set of at most ``budget`` values."""
    nodes.tick()
    if rows.shape[0] == 0:
        return True
    if budget <= 0:
        return False
    sizes = popcount(rows)
    single = sizes == 1
    if single.any():
        # values of one-value sets are in every hitting set (ξ of the paper's Algorithm 2)
        forced = np.bitwise_or.reduce(rows[single], axis=0)
        taken = int(popcount(forced[None, :])[0])
        if taken > budget:
            return False
        return _within(rows[~_hits(rows, forced[None, :])], budget - taken, nodes)
    if budget == 1:
        return bool(np.bitwise_and.reduce(rows, axis=0).any())
    frequency = _bits(rows).sum(axis=0, dtype=np.int64)
    if -(-rows.shape[0] // int(frequency.max())) > budget:
        return False
    pivot = rows[int(np.argmin(sizes))]
    elements = np.flatnonzero(_bits(pivot[None, :])[0])
    for element in elements[np.argsort(-frequency[elements], kind="stable")]:
        mask = np.zeros((1, rows.shape[1]), dtype=np.uint64)
        mask[0, element >> 6] = _ONE << np.uint64(element & 63)
        if _within(rows[~_hits(rows, mask)], budget - 1, nodes):
            return True
    return False


def hitting_set_within(rows: Bits, budget: int, *, node_limit: int = MAX_SEARCH_NODES) -> bool:
    """Whether the sets ``rows`` have a hitting set of at most ``budget`` values (exact).

    Raises :class:`LimitError` past ``node_limit`` nodes.
    """
    if rows.shape[0] == 0:
        return True
    if (popcount(rows) == 0).any():
        raise ValueError("an empty set has no hitting set: every individual has a value")
    reduced = minimal_rows(rows) if rows.shape[0] <= 4096 else np.unique(rows, axis=0)
    return _within(reduced, budget, _Nodes(node_limit))


def is_eir_diverse(rows: Bits, ell: int, *, node_limit: int = MAX_SEARCH_NODES) -> bool:
    """EIR l-diversity of one class (Definition 3.3 via Theorem 3.1): ``τ(Ψ) >= l``."""
    if ell <= 1:
        return bool(rows.shape[0] > 0)
    return not bool(hitting_set_within(rows, ell - 1, node_limit=node_limit))


def minimum_hitting_set_size(rows: Bits, *, node_limit: int = MAX_SEARCH_NODES) -> int:
    """``τ(Ψ)``, the size of a minimum hitting set of the sets ``rows`` (0 for no sets)."""
    if rows.shape[0] == 0:
        return 0
    budget = 1
    while not hitting_set_within(rows, budget, node_limit=node_limit):
        budget += 1
    return budget


class HittingFamily:
    """SatPriIRInc_El (the paper's Algorithm 5), truncated at size ``l``.

    Holds the minimal hitting sets of size < ``l`` of the sensitive sets added so far, over a
    class-local alphabet (global value codes ``< values`` are mapped as they appear). Adding
    an individual with values ``{s_1..s_r}`` multiplies the family by ``(s_1 + ... + s_r)``:
    sets already hit stay, the others grow by each ``s_i`` (only the minimal extensions are
    kept, the absorption ``A + AB = A``) and sets reaching ``l`` values are dropped. The class
    satisfies EIR l-diversity iff the family is empty. ``overflowed`` turns true when the
    family exceeds ``cap`` sets (the caller then decides by :func:`is_eir_diverse` instead).
    """

    def __init__(self, ell: int, values: int, *, cap: int = MAX_FAMILY_SETS) -> None:
        self.ell = ell
        self.cap = cap
        self._local = np.full(max(1, values), -1, dtype=np.int64)
        self._alphabet = 0
        self.family: Bits = np.zeros((1, 1), dtype=np.uint64)
        self._sets: Bits = np.zeros((0, 1), dtype=np.uint64)
        self.overflowed = False

    def _widen(self, words: int) -> None:
        if words > self.family.shape[1]:
            pad = np.zeros((self.family.shape[0], words - self.family.shape[1]), dtype=np.uint64)
            self.family = np.hstack([self.family, pad])
            more = np.zeros((self._sets.shape[0], words - self._sets.shape[1]), dtype=np.uint64)
            self._sets = np.hstack([self._sets, more])

    def add(self, codes: npt.ArrayLike) -> None:
        """Add one individual's distinct sensitive value codes."""
        if self.overflowed:
            return
        values = np.unique(np.asarray(codes, dtype=np.int64))
        fresh = values[self._local[values] < 0]
        self._local[fresh] = np.arange(self._alphabet, self._alphabet + fresh.shape[0])
        self._alphabet += int(fresh.shape[0])
        self._widen(words_for(self._alphabet))
        width = self.family.shape[1]
        local = self._local[values]
        singles = np.zeros((local.shape[0], width), dtype=np.uint64)
        singles[np.arange(local.shape[0]), local >> 6] = np.left_shift(
            _ONE, (local & 63).astype(np.uint64)
        )
        mask = np.bitwise_or.reduce(singles, axis=0)[None, :]
        hit = _hits(self.family, mask)
        kept = self.family[hit]
        base = self.family[~hit]
        grown = np.zeros((0, width), dtype=np.uint64)
        if base.shape[0]:
            grown = self._minimal_extensions(base, singles)
        self.family = np.vstack([kept, grown])
        self._sets = np.vstack([self._sets, mask])
        if self.family.shape[0] > self.cap:
            self.overflowed = True

    def _minimal_extensions(self, base: Bits, singles: Bits) -> Bits:
        """The minimal sets ``g ∪ {s}`` (``g`` a row of ``base``, ``s`` a row of ``singles``)
        below size ``l``, deduplicated.

        ``g`` is a minimal hitting set of the earlier sets ``Ψ`` that misses the new set; ``g ∪
        {s}`` is minimal iff every ``e`` in ``g`` keeps a *private* set (a set of ``Ψ`` that
        ``g`` hits only at ``e``) not containing ``s`` — otherwise ``e`` is redundant. This
        replaces the pairwise absorption ``A + AB = A`` by ``|family| x |Ψ|`` work."""
        width = base.shape[1]
        sizes = popcount(base)
        keep = sizes + 1 < self.ell
        base, sizes = base[keep], sizes[keep]
        psi = self._sets
        # (sets, values)
        contains = np.asarray((psi[:, None, :] & singles[None, :, :]).any(axis=2), dtype=np.bool_)
        parts = []
        per = max(1, (1 << 22) // max(1, psi.shape[0] * singles.shape[0] * width))
        for start in range(0, base.shape[0], per):
            block = base[start : start + per]
            inter = block[:, None, :] & psi[None, :, :]  # (block, sets, words)
            private = np.asarray(
                popcount(inter.reshape(-1, width)).reshape(inter.shape[:2]) == 1, dtype=np.bool_
            )
            # (block, sets, values)
            valid = np.asarray(private[:, :, None] & ~contains[None, :, :], dtype=np.bool_)
            covered = np.bitwise_or.reduce(
                np.where(valid[..., None], inter[:, :, None, :], np.uint64(0)), axis=1
            )  # (block, values, words)
            minimal = (
                popcount(covered.reshape(-1, width)).reshape(covered.shape[:2])
                == (sizes[start : start + per, None])
            )
            grown = block[:, None, :] | singles[None, :, :]
            parts.append(grown[minimal])
        if not parts:
            return np.zeros((0, width), dtype=np.uint64)
        out: Bits = np.unique(np.vstack(parts), axis=0)
        return out

    @property
    def satisfied(self) -> bool:
        """Whether every hitting set has at least ``l`` values (meaningless once overflowed)."""
        return bool(self.family.shape[0] == 0)

    def minimum(self) -> int | None:
        """The smallest kept hitting set's size (``τ`` when < l), None when none is kept."""
        if self.family.shape[0] == 0:
            return None
        return int(popcount(self.family).min())


# -- the paper's reference procedures on Python sets ------------------------------------------


def _absorb(items: Iterable[frozenset[T]]) -> set[frozenset[T]]:
    unique = set(items)
    return {a for a in unique if not any(b < a for b in unique)}


def bhs(family: Iterable[Iterable[T]]) -> set[frozenset[T]]:
    """BHS (the paper's Algorithm 3, after Jiang & Lin): hitting sets of ``family`` by
    expanding the negated-literal formula, splitting on the most frequent literal (ties to
    the smallest). Returns a family containing a minimum hitting set (not every minimal one:
    a literal common to all items short-cuts to that literal alone). Exponential: reference
    use on small inputs only."""
    items = _absorb(frozenset(s) for s in family)
    if not items:
        return {frozenset()}
    if any(not s for s in items):
        raise ValueError("an empty set has no hitting set")
    if len(items) == 1:
        (only,) = items
        return {frozenset({x}) for x in only}
    common = frozenset.intersection(*items)
    if common:
        return {frozenset({x}) for x in common}
    sig = frozenset().union(*(s for s in items if len(s) == 1))
    rest = [s for s in items if len(s) > 1]
    if not rest:
        return {sig}
    counts = Counter(x for s in rest for x in s)
    top = max(counts.values())
    pivot = min(x for x, c in counts.items() if c == top)  # type: ignore[type-var]
    with_pivot = {sig | {pivot} | h for h in bhs(s for s in rest if pivot not in s)}
    without_pivot = {sig | h for h in bhs(s - {pivot} for s in rest)}
    return _absorb(with_pivot | without_pivot)


def sat_el_algorithm2(sets: Sequence[Iterable[T]], ell: int) -> bool:
    """SatPriIR_El as the paper's Algorithm 2: forced values ξ of single-value individuals,
    then BHS on the sets ξ does not hit (reference; exponential)."""
    family = [frozenset(s) for s in sets]
    xi = frozenset().union(*(s for s in family if len(s) == 1))
    rest = [s for s in family if len(s) > 1]
    if not xi:
        return min(len(h) for h in bhs(rest)) >= ell
    if len(xi) >= ell:
        return True
    rest = [s for s in rest if not (s & xi)]
    smallest = min(len(h) for h in bhs(rest)) if rest else 0
    return smallest + len(xi) >= ell
