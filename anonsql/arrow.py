"""Arrow arrays and tables built without importing pandas.

``pyarrow.array`` asks pandas whether its argument is a pandas object before converting it, and
so imports pandas (BENCHMARKS.md "Startup weight": more than a whole Adult round) the first time
it runs, whatever the argument. anonsql hands the engine numpy columns and short Python lists
(hierarchy leaves, parts, metric rows) and never pandas objects, so :func:`array` builds the
common cases from their buffers (``pyarrow.Array.from_buffers``: zero-copy for a contiguous
numpy column) and passes anything else, including values out of a narrower type's range, to
``pyarrow.array`` unchanged: the result, or the error, is the one ``pyarrow.array`` gives
(``tests/engines/test_arrow.py`` compares the two on random inputs).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

#: Kinds of numpy dtypes whose buffer is Arrow's: bool, signed, unsigned, floating.
_NUMERIC_KINDS = frozenset("iuf")


def array(values: Any, type: pa.DataType | None = None) -> pa.Array:
    """``pyarrow.array(values, type)`` without importing pandas for numpy columns and lists
    of strings, integers, floats or booleans (``None`` is null), and ranges."""
    if isinstance(values, pa.Array):
        return values if type is None or values.type == type else values.cast(type)
    if isinstance(values, range):
        values = np.arange(values.start, values.stop, values.step, dtype=np.int64)
    if isinstance(values, np.ndarray):
        built = _from_numpy(values, type)
    elif isinstance(values, (list, tuple)):
        built = _from_sequence(values, type)
    else:
        built = None
    return pa.array(values, type) if built is None else built


def plain_scalar(kind: pa.DataType) -> bool:
    """Whether a column of ``kind`` holds plain scalars that text and file formats carry
    exactly between engines (signed integers, floating point, text, booleans); dates,
    timestamps, decimals, unsigned, binary, nested and null columns do not qualify."""
    return bool(
        pa.types.is_signed_integer(kind)
        or pa.types.is_floating(kind)
        or pa.types.is_string(kind)
        or pa.types.is_large_string(kind)
        or pa.types.is_boolean(kind)
    )


def table(columns: Mapping[str, Any], schema: pa.Schema | None = None) -> pa.Table:
    """``pyarrow.table(columns)``, each column through :func:`array` (typed by ``schema``
    when given)."""
    if schema is None:
        return pa.Table.from_arrays(
            [_column(v, None) for v in columns.values()], names=list(columns)
        )
    arrays = [_column(columns[field.name], field.type) for field in schema]
    return pa.Table.from_arrays(arrays, schema=schema)


def _column(values: Any, kind: pa.DataType | None) -> pa.Array | pa.ChunkedArray:
    if isinstance(values, pa.ChunkedArray):
        return values if kind is None or values.type == kind else values.cast(kind)
    return array(values, kind)


def _from_numpy(values: np.ndarray[Any, Any], kind: pa.DataType | None) -> pa.Array | None:
    if values.ndim != 1:
        return None
    if values.dtype.kind == "b":
        bits = np.packbits(values, bitorder="little")
        natural = pa.Array.from_buffers(pa.bool_(), values.shape[0], [None, pa.py_buffer(bits)])
    elif values.dtype.kind in _NUMERIC_KINDS and values.dtype.isnative:
        data = np.ascontiguousarray(_exact_astype(values, kind))
        natural = pa.Array.from_buffers(
            pa.from_numpy_dtype(data.dtype), data.shape[0], [None, pa.py_buffer(data)]
        )
    elif values.dtype.kind in "OU":
        return _from_sequence(values.tolist(), kind)
    else:
        return None
    return _typed(natural, kind)


def _exact_astype(values: np.ndarray[Any, Any], kind: pa.DataType | None) -> np.ndarray[Any, Any]:
    """``values`` in the numpy dtype of ``kind`` where the conversion is exact (integers in the
    target's range, integers of at most 53 bits to float64, floats widened), so Arrow's
    ``cast`` (which imports ``pyarrow.compute``) is not needed; else unchanged."""
    if kind is None or not _is_number(kind) or values.shape[0] == 0:
        return values
    target = np.dtype(kind.to_pandas_dtype())
    if target == values.dtype:
        return values
    if values.dtype.kind in "iu" and target.kind in "iu":
        info = np.iinfo(target)
        if int(values.min()) >= info.min and int(values.max()) <= info.max:
            return values.astype(target)
    elif values.dtype.kind in "iu" and target == np.float64:
        if max(abs(int(values.min())), abs(int(values.max()))) <= 2**53:
            return values.astype(target)
    elif values.dtype.kind == "f" and target.kind == "f" and target.itemsize >= values.itemsize:
        return values.astype(target)
    return values


def _typed(natural: pa.Array, kind: pa.DataType | None) -> pa.Array | None:
    if kind is None or natural.type == kind:
        return natural
    if not (_is_number(natural.type) and _is_number(kind)):
        return None
    try:
        return natural.cast(kind)
    except pa.ArrowInvalid:
        return None  # out of range: pyarrow.array raises its own error for it


def _is_number(kind: pa.DataType) -> bool:
    return bool(pa.types.is_integer(kind) or pa.types.is_floating(kind))


def _from_sequence(values: Sequence[Any], kind: pa.DataType | None) -> pa.Array | None:
    present = [v for v in values if v is not None]
    valid = None if len(present) == len(values) else np.array([v is not None for v in values])
    classes = {v.__class__ for v in present}
    if not classes:
        # all null: the string path when a string type is asked for; else ``pa.nulls``, which,
        # unlike ``pa.array`` on a list, does not import pandas (0.2-0.7 s on full-domain runs)
        if _is_text(kind):
            return _strings([], valid, len(values), kind)
        return pa.nulls(len(values)) if kind is None else pa.nulls(len(values), kind)
    if classes == {str}:
        return (
            _strings(present, valid, len(values), kind) if kind is None or _is_text(kind) else None
        )
    if classes == {bool}:
        accepts = kind is None or pa.types.is_boolean(kind)
        numpy_type: Any = np.bool_
    elif classes == {int}:
        accepts = kind is None or _is_number(kind)
        numpy_type = np.int64
    elif classes == {float}:
        accepts = kind is None or pa.types.is_floating(kind)
        numpy_type = np.float64
    else:
        return None
    if not accepts:
        return None
    try:
        dense = _exact_astype(np.array(present, dtype=numpy_type), kind)
    except OverflowError:
        return None
    natural = _from_numpy(dense, None) if valid is None else _spread(dense, valid)
    return None if natural is None else _typed(natural, kind)


def _is_text(kind: pa.DataType | None) -> bool:
    return kind is not None and bool(pa.types.is_string(kind) or pa.types.is_large_string(kind))


def _spread(present: np.ndarray[Any, Any], valid: np.ndarray[Any, Any]) -> pa.Array | None:
    """An array of ``valid``'s length holding ``present`` where ``valid``, null elsewhere."""
    full = np.zeros(valid.shape[0], present.dtype)
    full[valid] = present
    natural = _from_numpy(full, None)
    if natural is None:
        return None
    bitmap = pa.py_buffer(np.packbits(valid, bitorder="little"))
    buffers = natural.buffers()
    return pa.Array.from_buffers(natural.type, valid.shape[0], [bitmap, buffers[1]])


def _strings(
    present: list[str], valid: np.ndarray[Any, Any] | None, length: int, kind: pa.DataType | None
) -> pa.Array:
    """A string array from its UTF-8 bytes and offsets (large when asked or past 2 GiB)."""
    encoded = [value.encode("utf-8") for value in present]
    sizes = np.fromiter(map(len, encoded), np.int64, len(encoded))
    if valid is not None:
        spread = np.zeros(length, np.int64)
        spread[valid] = sizes
        sizes = spread
    offsets = np.zeros(length + 1, np.int64)
    np.cumsum(sizes, out=offsets[1:])
    large = (kind is not None and pa.types.is_large_string(kind)) or offsets[-1] >= 2**31
    bitmap = None if valid is None else pa.py_buffer(np.packbits(valid, bitorder="little"))
    return pa.Array.from_buffers(
        pa.large_string() if large else pa.string(),
        length,
        [
            bitmap,
            pa.py_buffer(offsets if large else offsets.astype(np.int32)),
            pa.py_buffer(b"".join(encoded)),
        ],
    )


def to_numpy(values: pa.Array | pa.ChunkedArray) -> np.ndarray[Any, Any]:
    """``values.to_numpy(zero_copy_only=False)`` without importing pandas for integer, floating
    and boolean columns without nulls (a read-only view of the buffer for one chunk, as
    pyarrow's; a copy for several)."""
    chunks = values.chunks if isinstance(values, pa.ChunkedArray) else [values]
    kind = values.type
    plain = pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_boolean(kind)
    if not plain or values.null_count or len(chunks) == 0:
        converted: np.ndarray[Any, Any] = values.to_numpy(zero_copy_only=False)
        return converted
    parts = [_chunk_to_numpy(chunk) for chunk in chunks]
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def to_float64(values: pa.Array | pa.ChunkedArray) -> np.ndarray[Any, np.dtype[np.float64]]:
    """The values as float64 (``pyarrow.compute.cast``), without importing
    ``pyarrow.compute`` for integer and floating columns without nulls."""
    kind = values.type
    if (pa.types.is_integer(kind) or pa.types.is_floating(kind)) and not values.null_count:
        return to_numpy(values).astype(np.float64)
    import pyarrow.compute as pc  # decimals: Arrow's own conversion, as before

    return to_numpy(pc.cast(values, pa.float64())).astype(np.float64)


def filter_rows(
    values: pa.Array | pa.ChunkedArray, mask: np.ndarray[Any, np.dtype[np.bool_]]
) -> pa.Array | pa.ChunkedArray:
    """``values.filter(mask)`` without importing ``pyarrow.compute`` for integer and
    floating columns without nulls."""
    kind = values.type
    if (pa.types.is_integer(kind) or pa.types.is_floating(kind)) and not values.null_count:
        return array(to_numpy(values)[mask], kind)
    return values.filter(array(mask))


def filter_table(data: pa.Table, mask: np.ndarray[Any, np.dtype[np.bool_]]) -> pa.Table:
    """``data.filter(mask)``, column by column through :func:`filter_rows`."""
    columns = {name: filter_rows(data.column(name), mask) for name in data.column_names}
    return table(columns, schema=data.schema)


def _chunk_to_numpy(chunk: pa.Array) -> np.ndarray[Any, Any]:
    data = chunk.buffers()[1]
    if pa.types.is_boolean(chunk.type):
        bits = np.frombuffer(data, np.uint8) if data is not None else np.zeros(0, np.uint8)
        unpacked = np.unpackbits(bits, bitorder="little")
        return unpacked[chunk.offset : chunk.offset + len(chunk)].astype(bool)
    dtype = np.dtype(chunk.type.to_pandas_dtype())
    if data is None:
        return np.zeros(0, dtype)
    return np.frombuffer(data, dtype, count=len(chunk), offset=chunk.offset * dtype.itemsize)


__all__ = ["array", "filter_rows", "filter_table", "table", "to_float64", "to_numpy"]
