"""The Hilbert curve index of integer grid points, in the engine and in NumPy.

J. Skilling, "Programming the Hilbert curve", AIP Conf. Proc. 707, 2004: points on a
``2^bits``-per-axis grid are turned into the curve's "transposed" index by an inverse undo
pass and a Gray encoding, then the index bits are interleaved (axis 0's bit first). This is
the convention of the PyPI package ``hilbertcurve`` (e.g. point (4, 6) with 3 bits -> 36), used
by Ghinita et al., "Fast Data Anonymization with Low Information Loss", VLDB 2007, to map
quasi-identifier vectors to one dimension.

:func:`hilbert_key_sql` generates the computation as SQL (one CTE per step, bit operations
only), so keys of per-row data are computed where the data lives; :func:`hilbert_index` is the
vectorized reference the tests hold it to.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from anonsql.arrays import IntArray
from anonsql.sql import SqlRenderer, TableName

#: Keys are BIGINT: ``bits * dimensions`` must leave the sign bit free.
MAX_KEY_BITS = 62


def check_shape(dimensions: int, bits: int) -> None:
    if dimensions < 1 or bits < 1:
        raise ValueError("a Hilbert key needs at least one dimension and one bit")
    if dimensions * bits > MAX_KEY_BITS:
        raise ValueError(
            f"{dimensions} dimensions x {bits} bits = {dimensions * bits} bits exceed the "
            f"{MAX_KEY_BITS} a BIGINT key holds; lower the resolution"
        )


def hilbert_index(points: IntArray, bits: int) -> IntArray:
    """Hilbert indexes of ``points`` (shape (N, dimensions), coordinates in [0, 2^bits))."""
    n = points.shape[1]
    check_shape(n, bits)
    x = [points[:, i].astype(np.int64).copy() for i in range(n)]
    q = 1 << (bits - 1)
    while q > 1:  # inverse undo
        p = q - 1
        for i in range(n):
            high = (x[i] & q) != 0
            t = np.where(high, 0, (x[0] ^ x[i]) & p)
            x[0] = np.where(high, x[0] ^ p, x[0] ^ t)
            if i:
                x[i] = x[i] ^ t
        q >>= 1
    for i in range(1, n):  # Gray encode
        x[i] = x[i] ^ x[i - 1]
    t = np.zeros_like(x[0])
    q = 1 << (bits - 1)
    while q > 1:
        t = np.where((x[n - 1] & q) != 0, t ^ (q - 1), t)
        q >>= 1
    x = [xi ^ t for xi in x]
    key = np.zeros_like(x[0])
    for j in range(bits - 1, -1, -1):
        for i in range(n):
            key = (key << 1) | ((x[i] >> j) & 1)
    return key


def hilbert_key_sql(
    renderer: SqlRenderer,
    relation: TableName,
    id_column: str,
    coordinates: Sequence[str],
    bits: int,
    target: TableName | None = None,
) -> str:
    """A query returning ``(id, hilbert_key)`` for each row of ``relation`` (or, with
    ``target``, a statement creating that table from it).

    ``coordinates`` name integer columns already scaled to ``[0, 2^bits)``.
    """
    check_shape(len(coordinates), bits)
    undo = [(1 << level) for level in range(bits - 1, 0, -1)]
    return renderer.render(
        "mapping/hilbert_key",
        relation=relation,
        id_column=id_column,
        coordinates=list(coordinates),
        n=len(coordinates),
        bits=bits,
        undo=undo,
        target=target,
    )
