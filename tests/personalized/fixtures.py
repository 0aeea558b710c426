"""The worked example of Reddy, Raju, Valli Kumari (IJET 2018) as fixtures (digest 002 §1.5):
Table 2 (Table 1 with the consent flag PD), stand-in taxonomies (the paper's figures are lost;
digest §1.6), the fuzzy terms that reproduce Table 9, and configurations of both profiles."""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from anonsql.engines import Engine
from anonsql.hierarchies import Hierarchy
from anonsql.personalized.config import (
    CategoricalSA,
    ClusterKey,
    FuzzyTerms,
    NumericSA,
    PersonalizedConfig,
)
from anonsql.sql import TableName

COLUMNS = [
    "pd", "pid", "pname", "age", "gender", "zipcode", "salary", "bonus", "loan",
    "education", "job", "disease",
]  # fmt: skip

TABLE_2 = [
    (True, "P01", "James", 40, "Male", 12411, 90000, 9000, 108000, "Bachelors", "Tech support", "Flu"),
    (True, "P02", "Alice", 30, "Female", 22311, 120000, 12000, 144000, "Preschool", "Sales", "HIV"),
    (True, "P03", "Bill", 25, "Male", 22629, 60000, 6000, 72000, "HS-grad", "Exec-managerial", "Malaria"),
    (True, "P04", "Bob", 50, "Male", 42411, 200000, 20000, 240000, "Prof-school", "Adm-clerical", "Typhoid"),
    (True, "P05", "Williams", 47, "Male", 42344, 50000, 5000, 60000, "Masters", "Adm-clerical", "HIV"),
    (True, "P06", "Henry", 38, "Female", 12523, 250000, 25000, 300000, "Doctorate", "Exec-managerial", "HIV"),
    (True, "P07", "Angel", 43, "Female", 42413, 125000, 12500, 175000, "Bachelors", "Adm-clerical", "HIV"),
    (True, "P08", "Small", 60, "Male", 32266, 70000, 7000, 84000, "Preschool", "Exec-managerial", "Flu"),
    (True, "P09", "Mary", 55, "Female", 32243, 300000, 30000, 360000, "HS-grad", "Tech support", "Diabetes"),
    (True, "P10", "Adam", 49, "Male", 42512, 58000, 5800, 69600, "Masters", "Exec-managerial", "Cancer"),
    (False, "P11", "Mercy", 39, "Female", 42123, 76000, 7600, 91200, "Bachelors", "Sales", "Diabetes"),
    (False, "P12", "Anil", 31, "Male", 41234, 45000, 4500, 54000, "HS-Grad", "Tech support", "Cancer"),
]  # fmt: skip

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
