"""A deterministic synthetic table shaped like the thesis's food-inspection data (Gorla 2019,
Table 26: N = 30,000, 8 quasi-identifiers with 2-4 level hierarchies, 6 FDs, |Γ| = 1866), for
the dependency-preserving benchmark. The real data set is not available here.

Restaurants (a fixed population) have an address (which lies in a zip code, which lies in a
borough) and a cuisine; inspections pick a restaurant, a violation code (with its description),
an inspection type, a critical flag, a score and a grade, all with Zipf-like skew. By
construction these FDs hold:

* ``address -> borough``, ``zipcode -> borough``, ``cuisine, address -> borough``
* ``violation_code -> violation_description``
* ``inspection_type, critical_flag -> action``
* ``critical_flag, score -> grade`` (all sensitive: only suppression can lose them)

Hierarchies deliberately do not follow the FDs (addresses group by street and neighbourhood,
zip codes by prefix, descriptions by theme), as in real data. Generated in NumPy from ``seed``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from anonsql.algorithms.dependency.encoding import Quasi
from anonsql.hierarchies.model import Hierarchy

FDS = [
    "address -> borough",
    "violation_code -> violation_description",
    "zipcode -> borough",
    "cuisine, address -> borough",
    "inspection_type, critical_flag -> action",
    "critical_flag, score -> grade",
]
QIS = [
    "borough",
    "address",
    "violation_code",
    "violation_description",
    "zipcode",
    "cuisine",
    "action",
    "inspection_type",
]
SENSITIVE = ["critical_flag", "score", "grade"]

RESTAURANTS = 1500
ADDRESSES = 1200
ZIPS = 140
BOROUGHS = 5
CODES = 84
CUISINES = 63
TYPES = 28
ACTIONS = 5


@dataclass(frozen=True)
class Synthetic:
    table: pa.Table
    hierarchies: dict[str, Hierarchy]

    def quasis(self) -> list[Quasi]:
        return [Quasi(c, self.hierarchies[c]) for c in QIS]


def _zipf(rng: np.random.Generator, n: int, size: int, s: float) -> np.ndarray:  # type: ignore[type-arg]
    """Skewed choice of ``size`` items among ``n`` (weights 1 / rank^s over a shuffled order)."""
    weights = 1.0 / np.arange(1, n + 1) ** s
    order = rng.permutation(n)
    return order[rng.choice(n, size=size, p=weights / weights.sum())]


def _tree(name: str, leaves: list[str], fans: list[int]) -> Hierarchy:
    """Leaves grouped ``fans[0]`` per level-1 node, those ``fans[1]`` per level-2 node, ...;
    root ``*``."""
    paths = []
    for i, leaf in enumerate(leaves):
        path = [leaf]
        width = 1
        for level, fan in enumerate(fans, start=1):
            width *= fan
            path.append(f"{name}:{level}:{i // width}")
        path.append("*")
        paths.append(path)
    return Hierarchy(paths, name=name)


def generate(rows: int = 30_000, seed: int = 0) -> Synthetic:
    if not 1 <= rows <= 1_000_000:
        raise ValueError("rows must be in 1..1,000,000")
    rng = np.random.default_rng(seed)
    zip_borough = rng.integers(0, BOROUGHS, ZIPS)
    address_zip = _zipf(rng, ZIPS, ADDRESSES, 0.6)
    restaurant_address = _zipf(rng, ADDRESSES, RESTAURANTS, 0.3)
    restaurant_cuisine = _zipf(rng, CUISINES, RESTAURANTS, 1.0)
    restaurant = _zipf(rng, RESTAURANTS, rows, 0.7)
    address = restaurant_address[restaurant]
    zipcode = address_zip[address]
    borough = zip_borough[zipcode]
    cuisine = restaurant_cuisine[restaurant]
    code = _zipf(rng, CODES, rows, 1.1)
    itype = _zipf(rng, TYPES, rows, 1.2)
    critical = rng.choice(3, size=rows, p=[0.45, 0.5, 0.05])
    action_of = rng.choice(ACTIONS, size=(TYPES, 3), p=[0.6, 0.2, 0.1, 0.06, 0.04])
    action = action_of[itype, critical]
    score = np.minimum(rng.poisson(12 + 8 * (critical == 1), rows), 99)
    grade = np.select([score < 14, score < 28], [0, 1], 2) + 3 * (critical == 2)
    description_of = rng.permutation(CODES)
    names = {
        "borough": [f"B{i}" for i in range(BOROUGHS)],
        "address": [f"A{i:04d}" for i in range(ADDRESSES)],
        "violation_code": [f"V{i:02d}" for i in range(CODES)],
        "violation_description": [f"D{i:02d}" for i in range(CODES)],
        "zipcode": [f"Z{i:03d}" for i in range(ZIPS)],
        "cuisine": [f"C{i:02d}" for i in range(CUISINES)],
        "action": [f"ACT{i}" for i in range(ACTIONS)],
        "inspection_type": [f"T{i:02d}" for i in range(TYPES)],
    }
    fans = {
        "borough": [],
        "address": [4, 10],
        "violation_code": [6, 3],
        "violation_description": [9, 3],
        "zipcode": [5, 7],
        "cuisine": [7],
        "action": [],
        "inspection_type": [4],
    }
    hierarchies = {c: _tree(c, names[c], fans[c]) for c in QIS}
    values = {
        "borough": borough,
        "address": address,
        "violation_code": code,
        "violation_description": description_of[code],
        "zipcode": zipcode,
        "cuisine": cuisine,
        "action": action,
        "inspection_type": itype,
    }
    columns: dict[str, pa.Array] = {c: pa.array(np.array(names[c])[values[c]]) for c in QIS}
    columns["critical_flag"] = pa.array(np.array(["N", "Y", "NA"])[critical])
    columns["score"] = pa.array(score.astype(np.int64))
    columns["grade"] = pa.array(np.array(["A", "B", "C", "P", "Q", "Z"])[grade])
    return Synthetic(pa.table(columns), hierarchies)
