"""The data samples shipped with anonsql and their loaders: the single-table Adult samples (one
with a seeded consent column, for personalized publishing) and the two-table INFORMS 2005
subset (one row per person plus several condition rows per person).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pa_csv

from anonsql import arrow
from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.resources import resource_dir
from anonsql.sql import TableName

#: Samples that load into one table (:func:`load_sample`).
TABLE_SAMPLES = ("adult", "adult-arx", "adult-consent")
#: ``adult-consent``: Adult with a boolean ``consent`` column, true for each subject with this
#: probability, drawn with ``numpy.random.default_rng(CONSENT_SEED)`` (about 80 % consent).
CONSENT_RATE = 0.8
CONSENT_SEED = 0
#: Samples that load several tables into a schema (:func:`load_informs`).
MULTI_TABLE_SAMPLES = ("informs",)
SAMPLES = TABLE_SAMPLES + MULTI_TABLE_SAMPLES

#: The INFORMS tables by role, as named in the schema they are loaded into.
INFORMS_TABLES = {"demographics": "informs_demographics", "conditions": "informs_conditions"}

#: Column types of the INFORMS CSV files (in file order). DUPERSID (person id) is text in both,
#: as is ICD9CODX (codes such as "-1", "034", "V70"); the other columns are integer codes.
_INFORMS_INT = pa.int32()
_INFORMS_CODES = [
    *("DOBMM", "DOBYY", "SEX", "RACEX", "RACEAX", "RACEBX", "RACEWX", "RACETHNX"),
    *("HISPANX", "HISPCAT", "EDUCYEAR", "Year", "marry", "income", "poverty"),
]
INFORMS_COLUMNS: dict[str, dict[str, pa.DataType]] = {
    "demographics": {
        "DUID": _INFORMS_INT,
        "PID": _INFORMS_INT,
        "DUPERSID": pa.string(),
        **dict.fromkeys(_INFORMS_CODES, _INFORMS_INT),
    },
    "conditions": {
        "DUID": _INFORMS_INT,
        "DUPERSID": pa.string(),
        "ICD9CODX": pa.string(),
        "year": _INFORMS_INT,
    },
}

#: The peers' 1:M configuration: QIDs of the demographics table and the sensitive item of the
#: conditions table, with the shipped hierarchies (``hierarchies/informs/``).
INFORMS_HIERARCHIES = {
    "DOBMM": "informs/DOBMM.txt",
    "DOBYY": "informs/DOBYY.txt",
    "RACEX": "informs/RACEX.txt",
    "EDUCYEAR": "informs/EDUCYEAR.txt",
    "income": "informs/income.txt.gz",
    "ICD9CODX": "informs/icd9_even.txt",
}


def _unknown_sample(name: str, choices: tuple[str, ...]) -> SpecError:
    return SpecError("sample", f"no shipped sample named {name!r}", f"use one of {choices}")


def sample_csv(name: str) -> Path:
    """The CSV file of a single-table sample."""
    if name in MULTI_TABLE_SAMPLES:
        raise SpecError(
            "sample",
            f"the {name!r} sample holds several tables, not one",
            f"load it with load_{name}(engine, schema)",
        )
    if name not in TABLE_SAMPLES:
        raise _unknown_sample(name, TABLE_SAMPLES)
    folder = "adult" if name == "adult-consent" else name
    return resource_dir("datasets") / folder / "adult.csv.gz"


def with_consent(data: pa.Table, rate: float = CONSENT_RATE, seed: int = CONSENT_SEED) -> pa.Table:
    """``data`` with a boolean ``consent`` column, true with probability ``rate`` per row."""
    consent = np.random.default_rng(seed).random(data.num_rows) < rate
    return data.append_column("consent", arrow.array(consent, pa.bool_()))


def load_sample(engine: Engine, name: str, table: TableName) -> int:
    """Load a shipped single-table sample into ``table`` (replacing it); return its row count."""
    data = pa_csv.read_csv(sample_csv(name), parse_options=pa_csv.ParseOptions(delimiter=";"))
    if name == "adult-consent":
        data = with_consent(data)
    if table.schema:
        engine.ensure_schema(table.schema)
    engine.drop(table)
    engine.load_arrow(table, data)
    return engine.count_rows(table)


def informs_csv(role: str) -> Path:
    """The shipped INFORMS CSV file of ``role`` (``demographics`` or ``conditions``)."""
    if role not in INFORMS_COLUMNS:
        raise SpecError(
            "sample", f"the informs sample has no {role!r} table", f"use one of {INFORMS_TABLES}"
        )
    return resource_dir("datasets") / "informs" / f"{role}.csv.gz"


def read_informs(role: str) -> pa.Table:
    """One INFORMS table as Arrow, typed per :data:`INFORMS_COLUMNS` (every column required)."""
    path = informs_csv(role)
    types = INFORMS_COLUMNS[role]
    return pa_csv.read_csv(
        path,
        parse_options=pa_csv.ParseOptions(delimiter=","),
        convert_options=pa_csv.ConvertOptions(column_types=types, include_columns=list(types)),
    )


def informs_tables(schema: str = "main") -> dict[str, TableName]:
    """Where :func:`load_informs` puts the tables, by role."""
    return {role: TableName(name, schema) for role, name in INFORMS_TABLES.items()}


def load_informs(engine: Engine, schema: str = "main") -> dict[str, int]:
    """Load the INFORMS 2005 subset into ``schema`` (replacing the tables); return row counts.

    ``<schema>.informs_demographics`` holds one row per person (33,961) and
    ``<schema>.informs_conditions`` one row per reported condition (104,855; 26,854 persons),
    joined on ``DUPERSID``. Returns ``{table name: rows}``, e.g.
    ``{"informs_demographics": 33961, "informs_conditions": 104855}``.
    """
    data = {role: read_informs(role) for role in INFORMS_TABLES}
    engine.ensure_schema(schema)
    counts: dict[str, int] = {}
    for role, table in informs_tables(schema).items():
        engine.drop(table)
        engine.load_arrow(table, data[role])
        counts[table.name] = engine.count_rows(table)
    return counts


def load_sample_tables(engine: Engine, name: str, schema: str = "main") -> dict[str, int]:
    """Load a shipped multi-table sample into ``schema``; return ``{table name: rows}``."""
    if name == "informs":
        return load_informs(engine, schema)
    raise _unknown_sample(name, MULTI_TABLE_SAMPLES)


def load_adult(engine: Engine, table: TableName = TableName("adult", "main")) -> int:
    """Load the shipped Adult sample (30,162 rows) into ``table``; return its row count."""
    return load_sample(engine, "adult", table)
