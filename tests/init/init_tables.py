"""Tables anonsql does not ship, made here for ``anonsql init``: a patients table of several
rows per patient with direct identifiers only their values give away, and a visits table whose
patient id repeats."""

from __future__ import annotations

import datetime

import numpy as np
import pyarrow as pa

FIRST = ("james", "mary", "john", "patricia", "robert", "linda", "michael", "susan", "david")
LAST = ("smith", "johnson", "williams", "jones", "garcia", "miller", "davis", "lopez")
INSURERS = ("Aetna", "Cigna", "Humana", "Kaiser", "Medicare", "Medicaid", "UnitedHealth", "BCBS")
DIAGNOSES = tuple(f"D{i:02d}" for i in range(20))
RACES = ("Asian", "Black", "Hispanic", "White", "Other")


def patients(rows: int = 50_000, persons: int = 26_720, seed: int = 7) -> pa.Table:
    """``rows`` hospital stays of ``persons`` patients: the patient's id, names, e-mail, phone,
    birth date, sex (5 rows of a rare ``X``), race, zip code and insurer, and per stay the
    length of stay and a diagnosis. Column names do not say ``email`` or ``name``."""
    rng = np.random.default_rng(seed)
    owner = np.concatenate([np.arange(persons), rng.integers(0, persons, rows - persons)])
    owner.sort()
    first = rng.integers(0, len(FIRST), persons)
    last = rng.integers(0, len(LAST), persons)
    day0 = datetime.date(1930, 1, 1)
    birth = [day0 + datetime.timedelta(days=int(d)) for d in rng.integers(0, 30_000, persons)]
    sex = rng.choice(["F", "M"], persons)
    sex[owner[:5]] = "X"  # the first patient's rows and the next ones': 5 rows
    race = rng.choice(RACES, persons, p=[0.06, 0.13, 0.18, 0.6, 0.03])
    zips = rng.integers(10_000, 10_400, persons)
    insurer = rng.choice(INSURERS, persons)
    return pa.table(
        {
            "patient_ref": [f"P{p:06d}" for p in owner],
            "contact": [f"{FIRST[first[p]]}.{LAST[last[p]]}{p}@example.org" for p in owner],
            "reach": [f"+1 555 {p // 10_000:03d} {p % 10_000:04d}" for p in owner],
            "given": [FIRST[first[p]].title() for p in owner],
            "family": [LAST[last[p]].title() for p in owner],
            "birth_date": [birth[p] for p in owner],
            "sex": [str(sex[p]) for p in owner],
            "race": [str(race[p]) for p in owner],
            "zip": [f"{zips[p]:05d}" for p in owner],
            "insurer": [str(insurer[p]) for p in owner],
            "length_of_stay": rng.integers(1, 40, rows),
            "diagnosis": rng.choice(DIAGNOSES, rows),
        }
    )


def visits(rows: int = 20_000, persons: int = 8_000, seed: int = 3) -> pa.Table:
    """``rows`` visits of ``persons`` patients: a unique visit id, the repeating patient id,
    the patient's age and sex, and per visit the ward and a cost."""
    rng = np.random.default_rng(seed)
    owner = np.concatenate([np.arange(persons), rng.integers(0, persons, rows - persons)])
    rng.shuffle(owner)
    age = rng.integers(18, 95, persons)
    sex = rng.choice(["F", "M"], persons)
    return pa.table(
        {
            "visit_id": np.arange(rows) + 1_000_000,
            "patient_id": owner,
            "age": [int(age[p]) for p in owner],
            "sex": [str(sex[p]) for p in owner],
            "ward": rng.choice(["A", "B", "C", "D", "E", "F"], rows),
            "cost": np.round(rng.gamma(2.0, 400.0, rows), 2),
        }
    )
