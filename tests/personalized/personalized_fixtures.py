"""The worked example of Reddy, Raju, Valli Kumari (IJET 2018) as fixtures (digest 002 §1.5):
Table 2 (Table 1 with the consent flag PD), stand-in taxonomies (the paper's figures are lost;
digest §1.6), the fuzzy terms that reproduce Table 9, and configurations of both profiles."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd
import pyarrow as pa
from adversary import frame
from personalized_pipeline import PersonalizedRelease, publish_personalized

from anonsql.algorithms.personalized.config import (
    CategoricalSA,
    ClusterKey,
    FuzzyTerms,
    NumericSA,
    PersonalizedConfig,
)
from anonsql.algorithms.personalized.names import PublishedTables, WorkTables
from anonsql.engines import Engine
from anonsql.hierarchies import Hierarchy
from anonsql.sql import TableName

COLUMNS = [
    "pd", "pid", "pname", "age", "gender", "zipcode", "salary", "bonus", "loan",
    "education", "job", "disease",
]  # fmt: skip

#: Table 2 of the paper (Table 1 with the consent flag PD first), one row per line
_TABLE_2 = """
T|P01|James|40|Male|12411|90000|9000|108000|Bachelors|Tech support|Flu
T|P02|Alice|30|Female|22311|120000|12000|144000|Preschool|Sales|HIV
T|P03|Bill|25|Male|22629|60000|6000|72000|HS-grad|Exec-managerial|Malaria
T|P04|Bob|50|Male|42411|200000|20000|240000|Prof-school|Adm-clerical|Typhoid
T|P05|Williams|47|Male|42344|50000|5000|60000|Masters|Adm-clerical|HIV
T|P06|Henry|38|Female|12523|250000|25000|300000|Doctorate|Exec-managerial|HIV
T|P07|Angel|43|Female|42413|125000|12500|175000|Bachelors|Adm-clerical|HIV
T|P08|Small|60|Male|32266|70000|7000|84000|Preschool|Exec-managerial|Flu
T|P09|Mary|55|Female|32243|300000|30000|360000|HS-grad|Tech support|Diabetes
T|P10|Adam|49|Male|42512|58000|5800|69600|Masters|Exec-managerial|Cancer
F|P11|Mercy|39|Female|42123|76000|7600|91200|Bachelors|Sales|Diabetes
F|P12|Anil|31|Male|41234|45000|4500|54000|HS-Grad|Tech support|Cancer
"""


def _typed(line: str) -> tuple[object, ...]:
    f = line.split("|")
    return (f[0] == "T", f[1], f[2], int(f[3]), f[4], *(int(x) for x in f[5:9]), *f[9:])


TABLE_2 = [_typed(line) for line in _TABLE_2.strip().splitlines()]

JOB = Hierarchy(
    [
        ["Adm-clerical", "White-collar", "Any"],
        ["Exec-managerial", "White-collar", "Any"],
        ["Prof-specialty", "White-collar", "Any"],
        ["Sales", "White-collar", "Any"],
        ["Tech support", "White-collar", "Any"],
        ["Craft-repair", "Blue-collar", "Any"],
        ["Transport-moving", "Blue-collar", "Any"],
        ["Other-service", "Other", "Any"],
    ],
    name="job",
)
DISEASE = Hierarchy(
    [[d, "Any Disease"] for d in ["Flu", "HIV", "Malaria", "Typhoid", "Diabetes", "Cancer"]],
    name="disease",
)
EDUCATION = Hierarchy(
    [
        ["Masters", "Graduate", "Higher", "Any"],
        ["Doctorate", "Graduate", "Higher", "Any"],
        ["Prof-school", "Graduate", "Higher", "Any"],
        ["Bachelors", "Undergraduate", "Higher", "Any"],
        ["Some-college", "Undergraduate", "Higher", "Any"],
        ["HS-grad", "High-school", "Secondary", "Any"],
        ["11th", "High-school", "Secondary", "Any"],
        ["Preschool", "Early", "Primary", "Any"],
        ["1st-4th", "Early", "Primary", "Any"],
    ],
    name="education",
)

INCOME = ("Low", "Medium", "High")
#: digest §2.6: min = 50000, a2 = 150000, a3 = 250000, max = 300000 reproduce Table 9
SALARY_PAPER = FuzzyTerms(INCOME, (50000, 150000, 250000, 300000), "paper_intervals")
BONUS_PAPER = FuzzyTerms(INCOME, (5000, 15000, 25000, 30000), "paper_intervals")
LOAN_PAPER = FuzzyTerms(INCOME, (60000, 180000, 300000, 360000), "paper_intervals")
#: digest T5b: the standard reading, centers min, a2, max
SALARY_TRIANGULAR = FuzzyTerms(INCOME, (50000, 150000, 300000))
BONUS_TRIANGULAR = FuzzyTerms(INCOME, (5000, 15000, 30000))
LOAN_TRIANGULAR = FuzzyTerms(INCOME, (60000, 180000, 360000))

#: Table 8 of the paper as the paper_compat profile publishes it: per group (keyed by its ZIP
#: codes) the multisets of age and gender, and the group size
TABLE_8 = {
    frozenset({"22311", "22629"}): ({"25": 1, "30": 1}, {"Male": 1, "Female": 1}, 2),
    frozenset({"12411", "12523"}): ({"38": 1, "40": 1}, {"Male": 1, "Female": 1}, 2),
    frozenset({"42344", "42411", "42413", "42512"}): (
        {"43": 1, "47": 1, "49": 1, "50": 1},
        {"Male": 3, "Female": 1},
        4,
    ),
    frozenset({"32243", "32266"}): ({"55": 1, "60": 1}, {"Male": 1, "Female": 1}, 2),
}

TABLE_9 = {
    50000: ("Low", 1.0),
    58000: ("Low", 0.92),
    60000: ("Low", 0.9),
    70000: ("Low", 0.8),
    90000: ("Low", 0.6),
    120000: ("Low", 0.3),
    125000: ("Low", 0.25),
    200000: ("Medium", 0.5),
    250000: ("Medium", 0.0),
    300000: ("High", 1.0),
}


def multiset(text: str) -> dict[str, int]:
    """A published ``v1:c1,v2:c2`` multiset as a mapping."""
    pairs = (item.split(":") for item in text.split(","))
    return {v: int(c) for v, c in pairs}


SOURCE = TableName("table2", "main")
QIDS = ("age", "gender", "zipcode")
PID_BY_SALARY = {row[6]: row[1] for row in TABLE_2}


def table_2() -> pa.Table:
    return pa.table({c: [row[i] for row in TABLE_2] for i, c in enumerate(COLUMNS)})


def load_table_2(engine: Engine, table: TableName = SOURCE) -> TableName:
    engine.load_arrow(table, table_2())
    return table


def paper_config(**overrides: Any) -> PersonalizedConfig:
    """The paper's example: k = 2, NSA buckets of 5 (K_N), CSA buckets of 3 (K_C, digest T8)
    are two bucket sizes, so the NSA and CSA phases run with their own configuration."""
    params: dict[str, Any] = {
        "quasi_identifiers": QIDS,
        "consent_column": "pd",
        "categorical": (
            CategoricalSA("education", EDUCATION, bucket_k=3),
            CategoricalSA("job", JOB, bucket_k=3),
            CategoricalSA("disease", DISEASE, bucket_k=3),
        ),
        "numeric": (
            NumericSA("salary", SALARY_PAPER, bucket_k=5),
            NumericSA("bonus", BONUS_PAPER, bucket_k=5),
            NumericSA("loan", LOAN_PAPER, bucket_k=5),
        ),
        "profile": "paper_compat",
        "k": 2,
        "l": 2,
        "cluster_key": (ClusterKey("zipcode", prefix=1),),
        "seed": 7,
    }
    params.update(overrides)
    return PersonalizedConfig(**params)


def safe_config(**overrides: Any) -> PersonalizedConfig:
    params: dict[str, Any] = {
        "quasi_identifiers": QIDS,
        "consent_column": "pd",
        "categorical": (
            CategoricalSA("education", EDUCATION),
            CategoricalSA("job", JOB),
            CategoricalSA("disease", DISEASE),
        ),
        "numeric": (
            NumericSA("salary", SALARY_TRIANGULAR),
            NumericSA("bonus", BONUS_TRIANGULAR),
            NumericSA("loan", LOAN_TRIANGULAR),
        ),
        "profile": "safe",
        "k": 2,
        "l": 2,
        "cluster_key": (ClusterKey("zipcode", prefix=1),),
        "seed": 7,
    }
    params.update(overrides)
    return PersonalizedConfig(**params)


@dataclass(frozen=True)
class Released:
    """A release of the example with its working tables kept (for the private checks)."""

    release: PersonalizedRelease
    work: WorkTables
    target: PublishedTables


def publish(
    engine: Engine,
    config: PersonalizedConfig,
    name: str = "ex",
    source: TableName = SOURCE,
) -> Released:
    engine.ensure_schema("w")
    engine.ensure_schema("anon")
    work = WorkTables("w", name + "_")
    target = PublishedTables.beside(TableName(name, "anon"))
    release = publish_personalized(engine, source, config, work, target)
    return Released(release, work, target)


def private_values(engine: Engine, released: Released) -> pd.DataFrame:
    """Per consenting row: group_id, the QIDs under their names, and per sensitive attribute its
    original label (categorical value or fuzzy term) under the column's name, plus raw numeric
    values as ``<column>_raw`` (read from the working tables, never published)."""
    config = released.release.config
    rows = frame(engine, released.work.rows)
    members = frame(engine, released.work.members)
    labels = frame(engine, released.work.labels)
    out = rows.merge(members, on="rid")
    for i, q in enumerate(config.quasi_identifiers):
        out[q] = out[f"q{i}"]
    for attr, column in enumerate(config.sensitive_columns):
        own = labels[labels["attr"] == attr].set_index("node")["label"]
        out[column] = out[f"s{attr}"].map(own)
        if f"x{attr}" in out.columns:
            out[column + "_raw"] = out[f"x{attr}"]
            out[column + "_weight"] = out[f"w{attr}"]
    keep = ["rid", "group_id", *config.quasi_identifiers]
    for c in config.sensitive_columns:
        keep += [x for x in (c, c + "_raw", c + "_weight") if x in out.columns]
    return out[keep]


def published_frames(engine: Engine, released: Released) -> dict[str, pd.DataFrame]:
    """Every published relation as a frame, by role: ``tuples``, ``groups``, ``group_values``,
    ``group_buckets``, ``sa_taxonomy``, and each attribute's buckets under the column's name
    (``bucket, slot, value`` or, numeric, ``bucket, slot, term, weight``), read from the one
    long-form bucket table."""
    t = released.target
    config = released.release.config
    out = {
        "tuples": frame(engine, t.tuples),
        "groups": frame(engine, t.groups),
        "group_values": frame(engine, t.group_values),
        "group_buckets": frame(engine, t.group_buckets),
        "sa_taxonomy": frame(engine, t.sa_taxonomy),
    }
    buckets = frame(engine, t.buckets)
    numeric = {n.column for n in config.numeric}
    for column in config.sensitive_columns:
        own = buckets[buckets["attribute"] == column].drop(columns=["attribute"])
        if column in numeric:
            own = own.rename(columns={"label": "term"})
        else:
            own = own.rename(columns={"label": "value"}).drop(columns=["weight"])
        out[column] = own.reset_index(drop=True)
    return out


def taxonomies(config: PersonalizedConfig) -> dict[str, Hierarchy | None]:
    out: dict[str, Hierarchy | None] = {c.column: c.taxonomy for c in config.categorical}
    out.update({n.column: None for n in config.numeric})
    return out
