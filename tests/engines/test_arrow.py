"""``anonsql.arrow`` gives what ``pyarrow.array`` gives, without importing pandas."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anonsql import arrow

TYPES = [
    None,
    pa.int8(),
    pa.int32(),
    pa.int64(),
    pa.uint16(),
    pa.float32(),
    pa.float64(),
    pa.bool_(),
    pa.string(),
    pa.large_string(),
]


def _same(values: Any, kind: pa.DataType | None) -> None:
    try:
        expected = pa.array(values, kind)
    except (pa.ArrowException, TypeError, ValueError, OverflowError) as err:
        with pytest.raises(type(err)):
            arrow.array(values, kind)
        return
    got = arrow.array(values, kind)
    assert got.type == expected.type
    # Arrow's equals never holds for NaN: compare the values' reprs then (nan, -0.0 and None kept)
    assert got.equals(expected) or repr(got.to_pylist()) == repr(expected.to_pylist()), (
        got,
        expected,
    )
    assert got.null_count == expected.null_count


scalars = st.one_of(
    st.integers(-(2**70), 2**70),
    st.integers(-300, 300),
    st.floats(allow_nan=True),
    st.booleans(),
    st.text(max_size=6),
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(st.none(), scalars), max_size=12)
    | st.lists(st.one_of(st.none(), st.text()), max_size=12)
    | st.lists(st.integers(-(2**40), 2**40), max_size=12),
    st.sampled_from(TYPES),
)
def test_lists_convert_as_pyarrow_does(values: list[Any], kind: pa.DataType | None) -> None:
    _same(values, kind)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(
        ["int8", "int16", "int32", "int64", "uint8", "uint64", "float32", "float64", "bool", ">i8"]
    ),
    st.lists(st.integers(-(2**31), 2**31), max_size=12),
    st.sampled_from(TYPES),
    st.booleans(),
)
def test_numpy_columns_convert_as_pyarrow_does(
    dtype: str, ints: list[int], kind: pa.DataType | None, strided: bool
) -> None:
    values = np.array(ints).astype(dtype)
    if strided:
        values = np.repeat(values, 2)[::2]
    _same(values, kind)


def test_tables_keep_names_order_and_schema() -> None:
    schema = pa.schema([("b", pa.int32()), ("a", pa.string())])
    columns = {"a": ["x", None], "b": np.array([1, 2])}
    assert arrow.table(columns, schema).equals(pa.table(columns, schema=schema))
    assert arrow.table(columns).equals(pa.table(columns))
    chunked = pa.chunked_array([[1, 2], [3]])
    assert arrow.table({"c": chunked}).column("c").to_pylist() == [1, 2, 3]


def test_building_arrays_does_not_import_pandas() -> None:
    code = (
        "import sys, numpy as np, pyarrow as pa\n"
        "from anonsql import arrow\n"
        "arrow.table({'a': np.arange(3), 'b': ['x', None, 'z'], 'c': [1, None, 3],\n"
        "             'd': np.array([True, False, True]), 'e': [0.5, 1.5, None]})\n"
        "arrow.array(np.arange(3, dtype=np.int64), pa.int32())\n"
        "arrow.array([None, None], pa.float64()); arrow.array([None, None])\n"
        "print('pandas' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["int8", "int32", "int64", "uint16", "float32", "float64", "bool"]),
    st.lists(st.integers(-100, 100), max_size=20),
    st.integers(0, 3),
    st.integers(1, 3),
    st.booleans(),
)
def test_to_numpy_reads_what_pyarrow_reads(
    dtype: str, ints: list[int], skip: int, chunks: int, with_null: bool
) -> None:
    values = [np.array(ints).astype(dtype) for _ in range(chunks)]
    arrays = [pa.array(v) for v in values]
    if with_null and ints:
        arrays[0] = pa.array([*values[0].tolist()[:-1], None], pa.from_numpy_dtype(np.dtype(dtype)))
    column = pa.chunked_array(arrays)[skip:]  # a slice: chunks with an offset
    expected = column.to_numpy()
    got = arrow.to_numpy(column)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)
    if len(column.chunks) == 1:
        single = column.chunk(0)
        np.testing.assert_array_equal(arrow.to_numpy(single), single.to_numpy(zero_copy_only=False))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(-(2**54), 2**54) | st.sampled_from([2**53, -(2**53), 2**53 + 1]))
    | st.lists(st.integers(-(2**63), 2**63 - 1), max_size=8),
    st.sampled_from([pa.float64(), pa.float32(), pa.int32(), pa.int64(), pa.uint32()]),
)
def test_integers_near_exactness_limits_convert_as_pyarrow_does(
    ints: list[int], kind: pa.DataType
) -> None:
    # integers of more than 53 bits to float64, or out of an integer type's range, take
    # pyarrow's own (erroring) cast; the rest convert exactly in numpy
    _same(np.array(ints, np.int64), kind)
    _same(ints, kind)


numeric_columns = st.sampled_from(["int8", "int64", "uint16", "float32", "float64"]).flatmap(
    lambda dtype: st.tuples(
        st.just(dtype),
        st.lists(st.integers(-100, 100), max_size=20),
        st.integers(1, 3),
        st.booleans(),
    )
)


def _column(dtype: str, ints: list[int], chunks: int, with_null: bool) -> pa.ChunkedArray:
    kind = pa.from_numpy_dtype(np.dtype(dtype))
    arrays = [pa.array(np.array(ints).astype(dtype), kind) for _ in range(chunks)]
    if with_null and ints:
        arrays[0] = pa.array([*arrays[0].to_pylist()[:-1], None], kind)
    return pa.chunked_array(arrays, kind)


@settings(max_examples=200, deadline=None)
@given(numeric_columns, st.data())
def test_float64_and_filters_are_pyarrow_compute(
    column_args: tuple[str, list[int], int, bool], data: st.DataObject
) -> None:
    import pyarrow.compute as pc

    column = _column(*column_args)
    expected = pc.cast(column, pa.float64()).to_numpy()
    np.testing.assert_array_equal(arrow.to_float64(column), expected)
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=len(column), max_size=len(column))))
    mask = mask.astype(bool)
    filtered = arrow.filter_rows(column, mask)
    assert filtered.type == column.type
    assert filtered.to_pylist() == column.filter(pa.array(mask, pa.bool_())).to_pylist()
    table = pa.table({"a": column, "b": pa.array([str(i) for i in range(len(column))])})
    expected_table = table.filter(pa.array(mask, pa.bool_()))
    assert arrow.filter_table(table, mask).equals(expected_table)
    # decimals (and nulls) go through Arrow's own conversion
    decimals = pa.array([Decimal("1.5"), Decimal("-2.1"), None], pa.decimal128(5, 1))
    np.testing.assert_array_equal(
        arrow.to_float64(decimals),
        pc.cast(decimals, pa.float64()).to_numpy(zero_copy_only=False),
    )
