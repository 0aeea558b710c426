"""The thesis's running example (Gorla 2019, Table 3): 8 tuples, QI = {PC, PRV, MED}, DIAG
sensitive, Σ = {PC -> PRV, DIAG -> MED}, with hierarchies reconstructed to satisfy the LCA facts
the digest lists (§1.7 and §6): LCA(J5B, K2H) = [J,K,L]; V6J and R7A in other groups;
QC, ON -> Central Canada; AB, MB -> Prairies; ibuprofen -> NSAID; LCA(ibuprofen, diazepam) = *."""

from __future__ import annotations

import pyarrow as pa

from anonsql.algorithms.dependency.encoding import EncodedRecords, Quasi, encode_table
from anonsql.hierarchies.model import Hierarchy
from anonsql.spec.dependencies import parse_fds

PC_PATHS = [
    ["V6J", "[S,T,V]", "*"],
    ["J5B", "[J,K,L]", "*"],
    ["K2H", "[J,K,L]", "*"],
    ["R7A", "[R]", "*"],
]
PRV_PATHS = [
    ["BC", "West Coast", "*"],
    ["QC", "Central Canada", "*"],
    ["ON", "Central Canada", "*"],
    ["AB", "Prairies", "*"],
    ["MB", "Prairies", "*"],
    ["NS", "Maritimes", "*"],
    ["NB", "Maritimes", "*"],
]
MED_PATHS = [
    ["ibuprofen", "NSAID", "Analgesic", "*"],
    ["addaprin", "NSAID", "Analgesic", "*"],
    ["naproxen", "NSAID", "Analgesic", "*"],
    ["morphine", "Opioid", "Analgesic", "*"],
    ["codeine", "Opioid", "Analgesic", "*"],
    ["diazepam", "Benzodiazepine", "Psycholeptic", "*"],
    ["lorazepam", "Benzodiazepine", "Psycholeptic", "*"],
    ["haloperidol", "Antipsychotic", "Psycholeptic", "*"],
]

OA = "osteoarthritis"
TABLE3 = {
    "ID": ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"],
    "PC": ["V6J", "V6J", "J5B", "K2H", "K2H", "J5B", "R7A", "R7A"],
    "PRV": ["BC", "BC", "QC", "ON", "ON", "QC", "MB", "MB"],
    "MED": ["ibuprofen"] * 4 + ["diazepam"] * 4,
    "DIAG": [OA] * 4 + ["seizure"] * 4,
}
TABLE6 = {
    "FName": ["Andre", "Carol", "Beth", "Ellen", "Dan"],
    "LName": ["Brown", "Anderson", "Hill", "Furlan", "Johnson"],
    "GEN": ["Male", "Female", "Female", "Female", "Male"],
    "PC": ["J5B", "R7A", "R7A", "K2H", "K2H"],
    "PRV": ["QC", "AB", "AB", "ON", "ON"],
}
FDS = ["PC -> PRV", "DIAG -> MED"]

#: Table 4 (R') and Table 5 (R''): the clusterings of Example 3.9 (tuple index -> cluster)
R_PRIME = [0, 0, 1, 1, 2, 2, 3, 3]
R_DOUBLE_PRIME = [0, 0, 1, 2, 2, 1, 3, 3]


def hierarchy(name: str, paths: list[list[str]]) -> Hierarchy:
    return Hierarchy(paths, name=name)


def hierarchies() -> dict[str, Hierarchy]:
    return {
        "PC": hierarchy("PC", PC_PATHS),
        "PRV": hierarchy("PRV", PRV_PATHS),
        "MED": hierarchy("MED", MED_PATHS),
    }


def quasis() -> list[Quasi]:
    h = hierarchies()
    return [Quasi("PC", h["PC"]), Quasi("PRV", h["PRV"]), Quasi("MED", h["MED"])]


def table3() -> pa.Table:
    return pa.table(TABLE3)


def records() -> EncodedRecords:
    """The encoded fixture; record i is tuple t(i+1) (the tuples are distinct and the encoding
    keeps the table's order because its signatures sort that way... checked below)."""
    encoded = encode_table(table3(), quasis(), parse_fds(FDS))
    return encoded


def record_of_tuple(encoded: EncodedRecords) -> list[int]:
    """Record index of each tuple t1..t8 (identical tuples t1 = t2 and t7 = t8 map to distinct
    records of their signature, in order)."""
    h = hierarchies()
    taken: set[int] = set()
    out: list[int] = []
    for i in range(8):
        want = [
            h["PC"].leaf_rank[TABLE3["PC"][i]],
            h["PRV"].leaf_rank[TABLE3["PRV"][i]],
            h["MED"].leaf_rank[TABLE3["MED"][i]],
        ]
        for r in range(encoded.size):
            if r not in taken and list(encoded.codes[r, :3]) == want:
                taken.add(r)
                out.append(r)
                break
    return out


#: Table 4 (R') and Table 5 (R''), the published views of Example 3.9
TABLE4 = {
    "PC": ["V6J", "V6J"] + ["[J,K,L]"] * 4 + ["R7A", "R7A"],
    "PRV": ["BC", "BC"] + ["Central Canada"] * 4 + ["MB", "MB"],
    "MED": ["ibuprofen"] * 4 + ["diazepam"] * 4,
    "DIAG": [OA] * 4 + ["seizure"] * 4,
}
TABLE5 = {
    "PC": ["V6J", "V6J", "J5B", "K2H", "K2H", "J5B", "R7A", "R7A"],
    "PRV": ["BC", "BC", "QC", "ON", "ON", "QC", "MB", "MB"],
    "MED": ["ibuprofen", "ibuprofen", "*", "*", "*", "*", "diazepam", "diazepam"],
    "DIAG": [OA] * 4 + ["seizure"] * 4,
}
#: Table 1 (voter list) and Table 2 (hospital data) of the linkage attack (Example 1.1)
TABLE1 = {
    "FNAME": ["Andre", "Carol", "Beth", "Ellen", "Dan", "Andrew"],
    "AGE": [54, 32, 48, 37, 52, 64],
    "GEN": ["Male", "female", "Female", "Female", "Male", "Male"],
    "PC": ["T5H", "V6J", "B3M", "T9C", "E3A", "B0P"],
}
TABLE2 = {
    "AGE": [32, 51, 39, 43, 54, 48],
    "GEN": ["female", "male", "female", "female", "male", "female"],
    "PC": ["V6J", "J5B", "J5B", "K2H", "R7A", "K2H"],
    "DIAG": [OA, "atrial flutter", "pain reliever", "seizure", "seizure", "atrial flutter"],
}
