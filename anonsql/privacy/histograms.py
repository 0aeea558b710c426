"""Per-part histograms of sensitive-value codes, stored sparse.

A batch of histograms is a :class:`scipy.sparse.csr_array` of ``int64``: row ``i`` is part
``i``, column ``v`` is the sensitive value with code ``v``, and the entry counts the part's rows
with that value. Only positive counts are stored (explicit zeros are eliminated), so the stored
entries of a row are exactly the values the part holds, and memory follows the number of
(part, value) pairs present rather than parts x domain size, which matters once a sensitive
column has thousands to hundreds of thousands of distinct codes.

This module is the one place that knows the representation: builders, per-row statistics for
the privacy predicates, and the batch operations the search needs (row selection, unions of
bins, prefix sums). Everything is vectorized over the stored entries; nothing loops over parts.
The one operation that needs dense rows, the ordered Earth Mover's Distance, densifies a bounded
number of cells at a time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
import numpy.typing as npt

from anonsql.arrays import BoolArray, FloatArray, IntArray

if TYPE_CHECKING:
    from scipy import sparse


#: Histograms of a batch of parts: a ``csr_array`` of int64 counts, rows = parts, columns =
#: value codes, no stored zeros.
if TYPE_CHECKING:
    Histogram: TypeAlias = sparse.csr_array
else:
    # scipy.sparse is slow to import (BENCHMARKS.md "Startup weight"): it is imported by the
    # functions that build histograms, so runs that never build one (k-anonymity) do not pay
    Histogram = "scipy.sparse.csr_array"

#: Cells densified at a time by :func:`emd_ordered` (8 MiB of float64 per temporary).
DENSE_BATCH_CELLS = 1 << 20


# -- building -------------------------------------------------------------------------------


def from_triples(
    rows: npt.ArrayLike, codes: npt.ArrayLike, counts: npt.ArrayLike, shape: tuple[int, int]
) -> Histogram:
    """Histograms of ``shape`` (parts, values) from long ``(row, code, count)`` triples.

    Triples naming the same (row, code) are added up; zero counts are not stored.
    """
    from scipy import sparse

    coo = sparse.coo_array(
        (
            np.asarray(counts, dtype=np.int64),
            (np.asarray(rows, dtype=np.int64), np.asarray(codes, dtype=np.int64)),
        ),
        shape=shape,
    )
    return _canonical(coo.tocsr())


def from_dense(dense: npt.ArrayLike) -> Histogram:
    """Histograms from a dense 2D (parts, values) array of counts (tests and small cases)."""
    from scipy import sparse

    array = np.asarray(dense, dtype=np.int64)
    if array.ndim != 2:
        raise ValueError(f"a histogram batch is 2D (parts, values), got shape {array.shape}")
    return _canonical(sparse.csr_array(array))


def as_histogram(histogram: Any) -> Histogram:
    """``histogram`` in the representation: a dense 2D array or any scipy sparse matrix/array is
    converted; an int64 ``csr_array`` is returned as is (it is trusted to hold no zeros)."""
    from scipy import sparse

    if isinstance(histogram, sparse.csr_array) and histogram.dtype == np.int64:
        return histogram
    if sparse.issparse(histogram):
        # a copy: canonicalizing works in place and must not touch the caller's arrays
        return _canonical(sparse.csr_array(histogram, dtype=np.int64, copy=True))
    return from_dense(histogram)


def to_dense(histogram: Histogram) -> IntArray:
    """The dense (parts, values) array. Allocates parts x values cells: small batches only."""
    dense: IntArray = histogram.toarray()
    return dense


def _canonical(histogram: Histogram) -> Histogram:
    """Sorted column indices, duplicates summed, zeros dropped, int64 counts."""
    from scipy import sparse

    histogram = sparse.csr_array(histogram, dtype=np.int64)
    histogram.sum_duplicates()
    histogram.eliminate_zeros()
    return histogram


# -- per-row statistics ---------------------------------------------------------------------


def _nnz(histogram: Histogram) -> int:
    return int(histogram.indptr[-1])


def _entry_rows(histogram: Histogram) -> IntArray:
    """The row of each stored entry, in storage order."""
    rows: IntArray = np.repeat(
        np.arange(histogram.shape[0], dtype=np.int64), np.diff(histogram.indptr)
    )
    return rows


def _reduce_rows(
    ufunc: np.ufunc, histogram: Histogram, values: npt.NDArray[Any], empty: float
) -> npt.NDArray[Any]:
    """``ufunc`` reduced over each row's stored entries (``values`` aligned with them);
    ``empty`` for rows without entries."""
    indptr = histogram.indptr
    out = np.full(histogram.shape[0], empty, dtype=values.dtype)
    nonempty = np.diff(indptr) > 0
    if nonempty.any():
        # consecutive non-empty rows' entries are contiguous, so reduceat's segments are rows
        out[nonempty] = ufunc.reduceat(values[: _nnz(histogram)], indptr[:-1][nonempty])
    return out


def row_sums(histogram: Histogram) -> IntArray:
    """Each part's size: the sum of its counts."""
    sums: IntArray = _reduce_rows(np.add, histogram, histogram.data, 0)
    return sums


def distinct_per_row(histogram: Histogram) -> IntArray:
    """How many distinct values each part holds (its stored entries: zeros are never stored)."""
    distinct: IntArray = np.diff(histogram.indptr).astype(np.int64)
    return distinct


def row_max(histogram: Histogram) -> IntArray:
    """Each part's largest count (0 for an empty part)."""
    top: IntArray = _reduce_rows(np.maximum, histogram, histogram.data, 0)
    return top


def entropy(histogram: Histogram) -> FloatArray:
    """Each part's entropy ``-sum p log p`` (natural log) over its value shares; 0 when empty."""
    data = histogram.data[: _nnz(histogram)]
    shares = data / row_sums(histogram)[_entry_rows(histogram)]
    ent: FloatArray = -_reduce_rows(np.add, histogram, shares * np.log(shares), 0.0)
    return ent


def recursive_terms(histogram: Histogram, ell: int) -> tuple[IntArray, IntArray]:
    """For recursive (c, l)-diversity, with each part's counts ranked r1 >= r2 >= ...: the
    largest count ``r1`` and the tail ``r_l + r_(l+1) + ...`` (0 and 0 for an empty part)."""
    rows = _entry_rows(histogram)
    data = histogram.data[: _nnz(histogram)]
    # by row, then count descending: each row keeps its storage slots, now ranked
    order = np.lexsort((-data, rows))
    ranked = data[order]
    rank = np.arange(ranked.shape[0], dtype=np.int64) - histogram.indptr[rows]
    tail: IntArray = _reduce_rows(
        np.add, histogram, np.where(rank >= ell - 1, ranked, 0).astype(np.int64), 0
    )
    return row_max(histogram), tail


def entry_shares(histogram: Histogram, reference: IntArray) -> tuple[FloatArray, FloatArray]:
    """For every stored entry (a value present in a part), in storage order: its share of the
    part's rows and the share of the ``reference`` counts (the table's) its value has."""
    data = histogram.data[: _nnz(histogram)]
    codes = histogram.indices[: _nnz(histogram)]
    shares: FloatArray = data / row_sums(histogram)[_entry_rows(histogram)]
    overall: FloatArray = reference[codes] / reference.sum()
    return shares, overall


def max_per_row(histogram: Histogram, values: FloatArray, empty: float) -> FloatArray:
    """The largest of ``values`` (one per stored entry, in storage order) within each part;
    ``empty`` for a part without entries."""
    top: FloatArray = _reduce_rows(np.maximum, histogram, values, empty)
    return top


def sum_per_row(histogram: Histogram, values: FloatArray) -> FloatArray:
    """The sum of ``values`` (one per stored entry, in storage order) within each part."""
    total: FloatArray = _reduce_rows(np.add, histogram, values, 0.0)
    return total


# -- distances to a reference distribution (t-closeness) -------------------------------------


def emd_equal(histogram: Histogram, reference: IntArray) -> FloatArray:
    """Earth Mover's Distance with the equal ground distance, ``1/2 sum_v |p_v - q_v|``, from
    each part's distribution P to the distribution Q of the ``reference`` counts.

    Computed from the stored entries only: values absent from a part contribute their ``q_v``,
    which sum to ``1 - sum of q over the present values`` (taken from the integer counts).
    An empty part is at distance 1/2 (P all zeros).
    """
    total = reference.sum()
    data = histogram.data[: _nnz(histogram)]
    codes = histogram.indices[: _nnz(histogram)]
    shares = data / row_sums(histogram)[_entry_rows(histogram)]
    present = _reduce_rows(np.add, histogram, np.abs(shares - reference[codes] / total), 0.0)
    present_total = _reduce_rows(np.add, histogram, reference[codes].astype(np.int64), 0)
    absent = (total - present_total) / total
    emd: FloatArray = 0.5 * (present + absent)
    return emd


def emd_ordered(
    histogram: Histogram, reference: IntArray, *, batch_cells: int = DENSE_BATCH_CELLS
) -> FloatArray:
    """Earth Mover's Distance with the ordered ground distance (codes in value order),
    ``1/(m-1) sum_i |sum_(j<=i) (p_j - q_j)|`` over the ``m`` codes of ``reference``.

    The cumulative sums run over the whole domain, so rows are densified, in batches of at most
    ``batch_cells`` cells (at least one row): memory stays bounded, time is parts x domain.
    """
    parts, values = histogram.shape
    emd: FloatArray = np.zeros(parts, dtype=np.float64)
    if values <= 1:
        return emd
    overall = reference / reference.sum()
    step = max(1, batch_cells // values)
    sizes = row_sums(histogram)
    for lo in range(0, parts, step):
        rows = np.arange(lo, min(lo + step, parts), dtype=np.int64)
        dense = to_dense(take(histogram, rows))
        size = sizes[rows][:, None]
        shares = np.divide(dense, size, out=np.zeros(dense.shape), where=size > 0)
        emd[rows] = np.abs(np.cumsum(shares - overall, axis=1)).sum(axis=1) / (values - 1)
    return emd


# -- batch operations -----------------------------------------------------------------------


def take(histogram: Histogram, index: npt.ArrayLike) -> Histogram:
    """The rows selected by ``index``, a boolean mask or integer positions (repeats allowed)."""
    from scipy import sparse

    rows = np.asarray(index)
    rows = np.flatnonzero(rows) if rows.dtype == np.bool_ else rows.astype(np.int64)
    indptr = histogram.indptr
    lengths = (indptr[rows + 1] - indptr[rows]).astype(np.int64)
    new_indptr = np.zeros(rows.shape[0] + 1, dtype=np.int64)
    np.cumsum(lengths, out=new_indptr[1:])
    # source slot of each kept entry: its row's start, plus its offset within the row
    slots = np.repeat(indptr[rows] - new_indptr[:-1], lengths) + np.arange(
        new_indptr[-1], dtype=np.int64
    )
    return sparse.csr_array(
        (histogram.data[slots], histogram.indices[slots], new_indptr),
        shape=(rows.shape[0], histogram.shape[1]),
    )


def union(histogram: Histogram, members: IntArray, owners: IntArray, parts: int) -> Histogram:
    """Histograms of ``parts`` unions of rows: part ``i`` adds up the rows ``members[j]`` for
    which ``owners[j] == i`` (an incidence-matrix product; a repeated pair counts twice)."""
    from scipy import sparse

    incidence = sparse.coo_array(
        (np.ones(members.shape[0], dtype=np.int64), (owners, members)),
        shape=(parts, histogram.shape[0]),
    ).tocsr()
    return _canonical(incidence @ histogram)


def prefix_sums(histogram: Histogram, order: IntArray, starts: IntArray) -> Histogram:
    """Running sums of the rows ``order[0], order[1], ...``, restarting at each position in
    ``starts`` (which begins with 0): output row ``i`` adds up the rows ``order[s..i]``, ``s``
    being the last start at or before ``i``.

    Output-sensitive: each stored entry of a taken row, with its running count within its
    (segment, value), is repeated over the positions until the value occurs again in the
    segment or the segment ends, so time and memory follow the output's entries, however long
    the segments.
    """
    from scipy import sparse

    n = order.shape[0]
    if n == 0:
        return sparse.csr_array((0, histogram.shape[1]), dtype=np.int64)
    segment = np.zeros(n, dtype=np.int64)
    segment[starts[1:]] = 1
    segment = np.cumsum(segment)
    segment_end = np.append(starts[1:], n).astype(np.int64)
    taken = take(histogram, order)
    pos = _entry_rows(taken)
    code = taken.indices[: _nnz(taken)].astype(np.int64)
    count = taken.data[: _nnz(taken)]
    by_value = np.lexsort((pos, code, segment[pos]))
    pos, code, count, seg = pos[by_value], code[by_value], count[by_value], segment[pos[by_value]]
    first = np.ones(pos.shape[0], dtype=bool)
    first[1:] = (seg[1:] != seg[:-1]) | (code[1:] != code[:-1])
    running = _group_cumsum(count, first)
    last = np.append(first[1:], True)
    until = np.where(last, segment_end[seg], np.append(pos[1:], 0))
    span = until - pos
    offsets = np.arange(int(span.sum()), dtype=np.int64) - np.repeat(np.cumsum(span) - span, span)
    return from_triples(
        np.repeat(pos, span) + offsets,
        np.repeat(code, span),
        np.repeat(running, span),
        (n, histogram.shape[1]),
    )


def _group_cumsum(values: IntArray, first: BoolArray) -> IntArray:
    """Cumulative sums of ``values`` restarting where ``first`` is set (``first[0]`` is)."""
    total = np.cumsum(values)
    starts = np.flatnonzero(first)
    base = total[starts] - values[starts]
    group = np.cumsum(first) - 1
    result: IntArray = total - base[group]
    return result
