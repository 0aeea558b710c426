"""Small random tables with hierarchies and FDs that hold, for property and reference tests."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from anonsql.algorithms.dependency.encoding import EncodedRecords, Quasi, encode_table
from anonsql.hierarchies.model import Hierarchy
from anonsql.spec.dependencies import parse_fds

FDS = ["city -> region", "drug -> family"]


def _tree(name: str, leaves: int, fan: int) -> Hierarchy:
    paths = [[f"{name}{i}", f"{name}g{i // fan}", f"{name}G{i // (fan * fan)}", "*"]
             for i in range(leaves)]  # fmt: skip
    return Hierarchy(paths, name=name)


def hierarchies() -> dict[str, Hierarchy]:
    return {
        "city": _tree("c", 12, 2),
        "region": _tree("r", 6, 2),
        "drug": _tree("d", 9, 3),
    }


def quasis() -> list[Quasi]:
    h = hierarchies()
    return [
        Quasi("city", h["city"]),
        Quasi("region", h["region"]),
        Quasi("drug", h["drug"]),
        Quasi("age"),
    ]


def table(n: int, seed: int) -> pa.Table:
    """``city -> region`` holds (region = city // 2, shuffled), ``drug -> family`` holds with
    ``family`` a kept (sensitive) attribute; values are skewed."""
    rng = np.random.default_rng(seed)
    city = np.minimum(rng.zipf(1.6, n) - 1, 11)
    region_of = rng.permutation(6)[np.arange(12) // 2]
    drug = rng.integers(0, 9, n)
    family = np.array(["fa", "fb", "fc"])[drug % 3]
    return pa.table(
        {
            "city": [f"c{c}" for c in city],
            "region": [f"r{region_of[c]}" for c in city],
            "drug": [f"d{d}" for d in drug],
            "age": rng.integers(20, 30, n).astype(np.int64),
            "family": family,
            "note": rng.integers(0, 2, n).astype(np.int64),
        }
    )


def records(n: int, seed: int) -> EncodedRecords:
    return encode_table(table(n, seed), quasis(), parse_fds(FDS))
