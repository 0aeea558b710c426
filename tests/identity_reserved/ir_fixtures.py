"""The paper's running example (Wang et al., KAIS 2019, Tables 2-4; digest 003 §1.5).

Table 2 is the original patient table (QI = Gender, Age, Postcode; SA = Disease); names are
recoded to Id_num in order of first appearance (Mike=1 ... Lucy=7). Table 3 is GeneIR's
IR (3,3)-anonymous output, Table 4 DAnonyIR's EIR 3-diverse output. Domains of the running
example: Gender {M, F}, Age [30, 39] (declared, not the data's range), the 7 postcodes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from anonsql.algorithms.identity_reserved.encoding import Individuals, build_individuals
from anonsql.hierarchies import Hierarchy

#: rec, Id_num, Gender, Age, Postcode, Disease
TABLE_2: list[tuple[str, int, str, int, str, str]] = [
    ("r1", 1, "M", 36, "10085", "Hypertension"),
    ("r2", 1, "M", 36, "10085", "Heart"),
    ("r3", 2, "F", 37, "10076", "Cancer"),
    ("r4", 3, "M", 36, "10086", "Hypertension"),
    ("r5", 4, "F", 33, "10087", "Hypertension"),
    ("r6", 4, "F", 33, "10087", "Diabetes"),
    ("r7", 5, "F", 38, "10077", "HIV"),
    ("r8", 6, "F", 34, "10070", "Leukaemia"),
    ("r9", 6, "F", 34, "10070", "Heart"),
    ("r10", 7, "F", 33, "10073", "Syphilis"),
]

POSTCODES = ("10070", "10073", "10076", "10077", "10085", "10086", "10087")
GENDERS = ("F", "M")
AGE_DOMAIN = (30.0, 39.0)

#: Table 3 (GeneIR): EC, Id_num, Gender, Age, Postcode, Disease
#: (records r3, r7, r8, r9, r10 | r1, r2, r4, r5, r6)
TABLE_3: list[tuple[str, int, str, str, str, str]] = [
    ("Q1", 2, "F", "[30, 39]", "1007*", "Cancer"),
    ("Q1", 5, "F", "[30, 39]", "1007*", "HIV"),
    ("Q1", 6, "F", "[30, 39]", "1007*", "Leukaemia"),
    ("Q1", 6, "F", "[30, 39]", "1007*", "Heart"),
    ("Q1", 7, "F", "[30, 39]", "1007*", "Syphilis"),
    ("Q2", 1, "*", "[30, 39]", "1008*", "Hypertension"),
    ("Q2", 1, "*", "[30, 39]", "1008*", "Heart"),
    ("Q2", 3, "*", "[30, 39]", "1008*", "Hypertension"),
    ("Q2", 4, "*", "[30, 39]", "1008*", "Hypertension"),
    ("Q2", 4, "*", "[30, 39]", "1008*", "Diabetes"),
]

Q1_4 = ("{F}", "[33, 34]", "{10070, 10073, 10087}")
Q2_4 = ("{F, M}", "[36, 38]", "{10076, 10077, 10085, 10086}")

#: Table 4 (DAnonyIR): EC, Id_num, Gender, Age, Postcode, Disease
TABLE_4: list[tuple[str, int, str, str, str, str]] = [
    ("Q1", 4, *Q1_4, "Hypertension"),
    ("Q1", 4, *Q1_4, "Diabetes"),
    ("Q1", 6, *Q1_4, "Leukaemia"),
    ("Q1", 6, *Q1_4, "Heart"),
    ("Q1", 7, *Q1_4, "Syphilis"),
    ("Q2", 1, *Q2_4, "Hypertension"),
    ("Q2", 1, *Q2_4, "Heart"),
    ("Q2", 2, *Q2_4, "Cancer"),
    ("Q2", 3, *Q2_4, "Hypertension"),
    ("Q2", 5, *Q2_4, "HIV"),
]


def columns(table: list[tuple[Any, ...]]) -> dict[str, list[Any]]:
    """A published table (Table 3 or 4) as columns of a relation of rows of persons."""
    return {
        "ec": [r[0] for r in table],
        "id_num": [r[1] for r in table],
        "gender": [r[2] for r in table],
        "age": [r[3] for r in table],
        "postcode": [r[4] for r in table],
        "disease": [r[5] for r in table],
    }


def table_2_columns() -> dict[str, list[Any]]:
    return {
        "id_num": [r[1] for r in TABLE_2],
        "gender": [r[2] for r in TABLE_2],
        "age": [r[3] for r in TABLE_2],
        "postcode": [r[4] for r in TABLE_2],
        "disease": [r[5] for r in TABLE_2],
    }


def table_2_individuals() -> Individuals:
    """The 7 individuals of Table 2 with the running example's domains."""
    cols = table_2_columns()
    return build_individuals(
        np.array(cols["id_num"]),
        np.array(cols["disease"], dtype=object),
        numeric={"age": cols["age"]},
        categorical={"gender": cols["gender"], "postcode": cols["postcode"]},
        domains={"age": AGE_DOMAIN},
        categories={"gender": GENDERS, "postcode": POSTCODES},
    )


def hierarchies() -> dict[str, Hierarchy]:
    """The running example's taxonomy trees (Fig. 1 as far as the text reveals it)."""
    ages = [[str(a), "[30, 34]" if a <= 34 else "[35, 39]", "[30, 39]"] for a in range(30, 40)]
    postcodes = [[p, p[:4] + "*", "100*"] for p in POSTCODES]
    return {
        "age": Hierarchy(ages, name="age"),
        "gender": Hierarchy([[g, "*"] for g in GENDERS], name="gender"),
        "postcode": Hierarchy(postcodes, name="postcode"),
    }
