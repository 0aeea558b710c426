"""The sparse histogram representation (anonsql.privacy.histograms) against dense numpy
references: random histograms with empty and single-value rows, and a high-cardinality domain
that must never be densified."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse

from anonsql.privacy import histograms as hist
from anonsql.privacy.base import PartStats

Dense = npt.NDArray[np.int64]

#: No deadline: timings of small sparse operations are noisy on a loaded machine.
RANDOM = settings(max_examples=100, deadline=None)

# -- dense references (the computations the predicates made before histograms were sparse) --


def ref_entropy(dense: Dense) -> npt.NDArray[np.float64]:
    sizes = dense.sum(axis=1)
    shares = np.divide(dense, sizes[:, None], out=np.zeros(dense.shape), where=sizes[:, None] > 0)
    logs = np.log(np.where(shares > 0, shares, 1.0))
    entropy: npt.NDArray[np.float64] = -(shares * logs).sum(axis=1)
    return entropy


def ref_recursive(dense: Dense, ell: int) -> tuple[Dense, Dense]:
    ranked = -np.sort(-dense, axis=1)
    return ranked[:, :1].sum(axis=1), ranked[:, ell - 1 :].sum(axis=1)


def ref_emd(dense: Dense, reference: Dense, distance: str) -> npt.NDArray[np.float64]:
    sizes = dense.sum(axis=1)
    shares = np.divide(dense, sizes[:, None], out=np.zeros(dense.shape), where=sizes[:, None] > 0)
    diff = shares - reference / reference.sum()
    if distance == "equal":
        equal: npt.NDArray[np.float64] = 0.5 * np.abs(diff).sum(axis=1)
        return equal
    if dense.shape[1] <= 1:
        return np.zeros(dense.shape[0])
    ordered: npt.NDArray[np.float64] = np.abs(np.cumsum(diff, axis=1)).sum(axis=1) / (
        dense.shape[1] - 1
    )
    return ordered


def ref_union(dense: Dense, members: Dense, owners: Dense, parts: int) -> Dense:
    acc = np.zeros((parts, dense.shape[1]), dtype=np.int64)
    np.add.at(acc, owners, dense[members])
    return acc


def ref_prefix(dense: Dense, order: Dense, starts: Dense) -> Dense:
    seg = np.zeros(order.shape[0], dtype=np.int64)
    seg[starts[1:]] = 1
    seg = np.cumsum(seg)
    values = dense[order]
    total = np.cumsum(values, axis=0)
    base = total[starts] - values[starts]
    result: Dense = total - base[seg]
    return result


# -- strategies -----------------------------------------------------------------------------


@st.composite
def dense_histograms(draw: st.DrawFn, max_parts: int = 8, max_values: int = 9) -> Dense:
    """Random counts, mostly zeros, with empty and single-value rows mixed in."""
    values = draw(st.integers(1, max_values))
    kinds = draw(
        st.lists(st.sampled_from(["random", "empty", "single"]), min_size=0, max_size=max_parts)
    )
    rows = []
    for kind in kinds:
        if kind == "empty":
            rows.append([0] * values)
        elif kind == "single":
            row = [0] * values
            row[draw(st.integers(0, values - 1))] = draw(st.integers(1, 50))
            rows.append(row)
        else:
            cell = st.one_of(st.just(0), st.just(0), st.integers(1, 20))
            rows.append(draw(st.lists(cell, min_size=values, max_size=values)))
    return np.array(rows, dtype=np.int64).reshape(len(rows), values)


def check_canonical(h: Any, shape: tuple[int, ...]) -> None:
    assert isinstance(h, sparse.csr_array)
    assert h.dtype == np.int64
    assert h.shape == shape
    assert (h.data[: h.indptr[-1]] > 0).all(), "zeros are never stored"


# -- building -------------------------------------------------------------------------------


@RANDOM
@given(dense=dense_histograms())
def test_from_dense_round_trip(dense: Dense) -> None:
    h = hist.from_dense(dense)
    check_canonical(h, dense.shape)
    np.testing.assert_array_equal(hist.to_dense(h), dense)


@RANDOM
@given(dense=dense_histograms(), data=st.data())
def test_from_triples_adds_duplicates_and_drops_zeros(dense: Dense, data: st.DataObject) -> None:
    parts, values = dense.shape
    n = data.draw(st.integers(0, 30))
    if parts == 0:
        n = 0
    rows = np.array(data.draw(st.lists(st.integers(0, max(parts - 1, 0)), min_size=n, max_size=n)))
    codes = np.array(data.draw(st.lists(st.integers(0, values - 1), min_size=n, max_size=n)))
    counts = np.array(data.draw(st.lists(st.integers(0, 9), min_size=n, max_size=n)))
    h = hist.from_triples(rows, codes, counts, (parts, values))
    expected = np.zeros(dense.shape, dtype=np.int64)
    np.add.at(expected, (rows.astype(np.int64), codes.astype(np.int64)), counts)
    check_canonical(h, dense.shape)
    np.testing.assert_array_equal(hist.to_dense(h), expected)


def test_from_dense_refuses_other_ranks() -> None:
    with pytest.raises(ValueError, match="2D"):
        hist.from_dense(np.array([1, 2, 3]))


@pytest.mark.parametrize(
    "convert",
    [
        np.asarray,
        lambda d: sparse.csr_matrix(d),
        lambda d: sparse.csr_array(d.astype(np.int32)),
        lambda d: sparse.coo_array(d),
    ],
)
def test_as_histogram_converts(convert: Callable[[Dense], Any]) -> None:
    dense = np.array([[0, 3, 0], [0, 0, 0], [1, 0, 2]], dtype=np.int64)
    source = convert(dense)
    h = hist.as_histogram(source)
    check_canonical(h, (3, 3))
    np.testing.assert_array_equal(hist.to_dense(h), dense)


def test_as_histogram_keeps_the_representation_and_foreign_arrays_intact() -> None:
    h = hist.from_dense(np.array([[1, 0], [0, 2]]))
    assert hist.as_histogram(h) is h
    foreign = sparse.csr_matrix(
        (np.array([1, 0, 2]), np.array([0, 1, 1]), np.array([0, 2, 3])), shape=(2, 2)
    )
    converted = hist.as_histogram(foreign)
    assert converted.nnz == 2
    assert foreign.nnz == 3, "the caller's explicit zero is left where it was"


def test_part_stats_converts_dense_histograms_and_takes() -> None:
    dense = np.array([[2, 0, 1], [0, 0, 0], [0, 4, 0]], dtype=np.int64)
    stats = PartStats(counts=dense.sum(axis=1), histograms={"sa": dense})
    check_canonical(stats.histograms["sa"], (3, 3))
    for index in (np.array([True, False, True]), np.array([2, 0, 2])):
        taken = stats.take(index)
        np.testing.assert_array_equal(hist.to_dense(taken.histograms["sa"]), dense[index])
        np.testing.assert_array_equal(taken.counts, dense.sum(axis=1)[index])


# -- per-row statistics ---------------------------------------------------------------------


@RANDOM
@given(dense=dense_histograms())
def test_row_statistics(dense: Dense) -> None:
    h = hist.from_dense(dense)
    np.testing.assert_array_equal(hist.row_sums(h), dense.sum(axis=1))
    np.testing.assert_array_equal(hist.distinct_per_row(h), np.count_nonzero(dense, axis=1))
    np.testing.assert_array_equal(hist.row_max(h), dense.max(axis=1, initial=0))
    np.testing.assert_allclose(hist.entropy(h), ref_entropy(dense), rtol=1e-12, atol=1e-12)
    for name in ("row_sums", "distinct_per_row", "row_max"):
        assert getattr(hist, name)(h).dtype == np.int64


@RANDOM
@given(dense=dense_histograms(), data=st.data())
def test_recursive_terms(dense: Dense, data: st.DataObject) -> None:
    ell = data.draw(st.integers(1, dense.shape[1] + 1))
    top, tail = hist.recursive_terms(hist.from_dense(dense), ell)
    expected_top, expected_tail = ref_recursive(dense, ell)
    np.testing.assert_array_equal(top, expected_top)
    np.testing.assert_array_equal(tail, expected_tail)


@RANDOM
@given(dense=dense_histograms(), data=st.data())
def test_emd_against_dense(dense: Dense, data: st.DataObject) -> None:
    values = dense.shape[1]
    reference = np.array(
        data.draw(st.lists(st.integers(0, 30), min_size=values, max_size=values)), dtype=np.int64
    )
    reference[data.draw(st.integers(0, values - 1))] += 1  # a non-empty reference
    h = hist.from_dense(dense)
    np.testing.assert_allclose(
        hist.emd_equal(h, reference), ref_emd(dense, reference, "equal"), rtol=1e-12, atol=1e-12
    )
    batch = data.draw(st.sampled_from([1, values, 3 * values, hist.DENSE_BATCH_CELLS]))
    # the ordered distance densifies the same rows as the reference: equal to the last bit
    np.testing.assert_array_equal(
        hist.emd_ordered(h, reference, batch_cells=batch), ref_emd(dense, reference, "ordered")
    )


# -- batch operations -----------------------------------------------------------------------


@RANDOM
@given(dense=dense_histograms(), data=st.data())
def test_take(dense: Dense, data: st.DataObject) -> None:
    parts = dense.shape[0]
    h = hist.from_dense(dense)
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=parts, max_size=parts)), bool)
    positions = np.array(
        data.draw(st.lists(st.integers(0, max(parts - 1, 0)), max_size=12 if parts else 0)),
        dtype=np.int64,
    )
    for index in (mask, positions):
        taken = hist.take(h, index)
        check_canonical(taken, (int(dense[index].shape[0]), dense.shape[1]))
        np.testing.assert_array_equal(hist.to_dense(taken), dense[index])


@RANDOM
@given(dense=dense_histograms(), data=st.data())
def test_union(dense: Dense, data: st.DataObject) -> None:
    parts = data.draw(st.integers(0, 6))
    n = data.draw(st.integers(0, 20)) if dense.shape[0] and parts else 0
    members = np.array(
        data.draw(st.lists(st.integers(0, dense.shape[0] - 1), min_size=n, max_size=n))
        if n
        else [],
        dtype=np.int64,
    )
    owners = np.array(
        data.draw(st.lists(st.integers(0, parts - 1), min_size=n, max_size=n)) if n else [],
        dtype=np.int64,
    )
    union = hist.union(hist.from_dense(dense), members, owners, parts)
    check_canonical(union, (parts, dense.shape[1]))
    np.testing.assert_array_equal(hist.to_dense(union), ref_union(dense, members, owners, parts))


@st.composite
def orders(draw: st.DrawFn, parts: int) -> tuple[Dense, Dense]:
    """Positions into ``parts`` rows (a permutation, or with repeats) and segment starts."""
    if parts == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    if draw(st.booleans()):
        order = draw(st.permutations(range(parts)))
    else:
        order = draw(st.lists(st.integers(0, parts - 1), min_size=1, max_size=15))
    cuts = draw(st.sets(st.integers(1, max(len(order) - 1, 1)), max_size=len(order)))
    starts = sorted({0} | {c for c in cuts if c < len(order)})
    return np.array(order, dtype=np.int64), np.array(starts, dtype=np.int64)


@RANDOM
@given(dense=dense_histograms(), data=st.data())
def test_prefix_sums(dense: Dense, data: st.DataObject) -> None:
    order, starts = data.draw(orders(dense.shape[0]))
    prefix = hist.prefix_sums(hist.from_dense(dense), order, starts)
    check_canonical(prefix, (order.shape[0], dense.shape[1]))
    np.testing.assert_array_equal(hist.to_dense(prefix), ref_prefix(dense, order, starts))


def test_prefix_sums_one_long_segment() -> None:
    """A segment of hundreds of rows (a flat hierarchy's children), each with a few values."""
    rng = np.random.default_rng(1)
    dense = np.zeros((600, 50), dtype=np.int64)
    for row in dense:
        row[rng.integers(0, 50, 3)] = rng.integers(1, 5, 3)
    order = rng.permutation(600)
    starts = np.array([0, 400], dtype=np.int64)
    prefix = hist.prefix_sums(hist.from_dense(dense), order, starts)
    np.testing.assert_array_equal(hist.to_dense(prefix), ref_prefix(dense, order, starts))


# -- high cardinality: never parts x values cells ---------------------------------------------

CODES = 200_000
PARTS = 40


@pytest.fixture(scope="module")
def wide() -> tuple[Any, Dense]:
    """40 parts over 200,000 codes (a dense copy would take 64 MB): an empty part, a
    single-value part, and parts of 1 to 2,000 scattered values."""
    rng = np.random.default_rng(7)
    rows, codes, counts = [], [], []
    for part in range(2, PARTS):
        size = int(rng.integers(1, 2_000))
        rows.append(np.full(size, part))
        codes.append(rng.integers(0, CODES, size))
        counts.append(rng.integers(1, 30, size))
    rows.append(np.array([1]))
    codes.append(np.array([CODES - 1]))
    counts.append(np.array([5]))
    h = hist.from_triples(
        np.concatenate(rows), np.concatenate(codes), np.concatenate(counts), (PARTS, CODES)
    )
    reference = rng.integers(1, 10, CODES).astype(np.int64)
    return h, reference


def peak_bytes(work: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def dense_row(h: Any, i: int) -> Dense:
    row: Dense = hist.to_dense(hist.take(h, np.array([i])))[0]
    return row


def test_high_cardinality_matches_dense_rows(wide: tuple[Any, Dense]) -> None:
    h, reference = wide
    assert h.shape == (PARTS, CODES)
    for i in (0, 1, 2, PARTS - 1):
        row = dense_row(h, i)[None, :]
        assert hist.row_sums(h)[i] == row.sum()
        assert hist.distinct_per_row(h)[i] == np.count_nonzero(row)
        assert hist.row_max(h)[i] == row.max()
        assert hist.entropy(h)[i] == pytest.approx(ref_entropy(row)[0], abs=1e-12)
        top, tail = hist.recursive_terms(h, 3)
        assert (top[i], tail[i]) == tuple(int(x[0]) for x in ref_recursive(row, 3))
        for distance, emd in (
            ("equal", hist.emd_equal(h, reference)),
            ("ordered", hist.emd_ordered(h, reference)),
        ):
            assert emd[i] == pytest.approx(ref_emd(row, reference, distance)[0], abs=1e-12)


def test_high_cardinality_operations_stay_sparse(wide: tuple[Any, Dense]) -> None:
    h, reference = wide
    dense_bytes = PARTS * CODES * 8
    members = np.repeat(np.arange(PARTS), 2)
    owners = np.tile(np.arange(PARTS), 2)
    order = np.arange(PARTS)[::-1].copy()
    starts = np.arange(0, PARTS, 4)  # segments of a few bins, as a hierarchy node's children
    work: dict[str, Callable[[], object]] = {
        "from_triples": lambda: hist.from_triples([0, 3], [5, CODES - 1], [2, 1], (PARTS, CODES)),
        "row_sums": lambda: hist.row_sums(h),
        "distinct_per_row": lambda: hist.distinct_per_row(h),
        "row_max": lambda: hist.row_max(h),
        "entropy": lambda: hist.entropy(h),
        "recursive_terms": lambda: hist.recursive_terms(h, 4),
        "emd_equal": lambda: hist.emd_equal(h, reference),
        "emd_ordered (one row at a time)": lambda: hist.emd_ordered(
            h, reference, batch_cells=CODES
        ),
        "take": lambda: hist.take(h, order),
        "union": lambda: hist.union(h, members, owners, PARTS),
        "prefix_sums": lambda: hist.prefix_sums(h, order, starts),
    }
    for name, run in work.items():
        peak = peak_bytes(run)
        # the largest legitimate temporaries are a few arrays of one row of the domain
        assert peak < dense_bytes / 4, f"{name} peaked at {peak} bytes"


def test_high_cardinality_batch_results(wide: tuple[Any, Dense]) -> None:
    h, _ = wide
    order = np.arange(PARTS)[::-1].copy()
    starts = np.array([0, 10, 25], dtype=np.int64)
    prefix = hist.prefix_sums(h, order, starts)
    # row 12 of the prefix adds up order[10..12]
    expected = sum(dense_row(h, int(order[j])) for j in (10, 11, 12))
    np.testing.assert_array_equal(dense_row(prefix, 12), expected)
    union = hist.union(h, np.array([1, 2, 2]), np.array([0, 0, 1]), 2)
    np.testing.assert_array_equal(dense_row(union, 0), dense_row(h, 1) + dense_row(h, 2))
    np.testing.assert_array_equal(dense_row(union, 1), dense_row(h, 2))


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_high_cardinality_random_codes(data: st.DataObject) -> None:
    """Few parts whose values are drawn anywhere in a 200,000-code domain."""
    n = data.draw(st.integers(0, 40))
    rows = np.array(data.draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)), np.int64)
    codes = np.array(
        data.draw(st.lists(st.integers(0, CODES - 1), min_size=n, max_size=n)), np.int64
    )
    counts = np.array(data.draw(st.lists(st.integers(1, 9), min_size=n, max_size=n)), np.int64)
    h = hist.from_triples(rows, codes, counts, (5, CODES))
    # the reference works on the columns in use only, which changes none of these statistics
    used, local = np.unique(codes, return_inverse=True)
    dense = np.zeros((5, used.shape[0]), dtype=np.int64)
    np.add.at(dense, (rows, local), counts)
    np.testing.assert_array_equal(hist.row_sums(h), dense.sum(axis=1))
    np.testing.assert_array_equal(hist.distinct_per_row(h), np.count_nonzero(dense, axis=1))
    np.testing.assert_array_equal(hist.row_max(h), dense.max(axis=1, initial=0))
    np.testing.assert_allclose(hist.entropy(h), ref_entropy(dense), atol=1e-12)
    for ell in (1, 2, 5):
        for got, want in zip(hist.recursive_terms(h, ell), ref_recursive(dense, ell), strict=True):
            np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(
        hist.to_dense(hist.take(h, np.array([4, 0])))[:, used], dense[[4, 0]]
    )
