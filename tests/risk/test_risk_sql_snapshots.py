"""Every statement the risk package and the ARX models added beside it generate, per engine, kept
as a snapshot (tests/support/sql_snapshots.py) and executed while it is recorded. Regenerate with
``UPDATE_SNAPSHOTS=1 pytest tests/risk/test_risk_sql_snapshots.py``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
from sql_snapshots import compare

from anonsql.engines import Engine
from anonsql.privacy import PRIVACY_MODELS
from anonsql.privacy.base import PrivacyModel
from anonsql.risk import PopulationModel, PopulationTable, measure_risk
from anonsql.sql import TableName

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
QIDS = ['zip "code"', "age"]


def test_risk_sql_matches_snapshot(engine: Engine) -> None:
    sample, population = TableName("sample", "main"), TableName("population", "main")
    engine.load_arrow(
        sample,
        pa.table(
            {
                QIDS[0]: ["1", "1", "2", None],
                QIDS[1]: [30, 30, 40, 50],
                "w": [2.0] * 4,
                "sa": ["a", "b", "a", None],
            }
        ),
    )
    engine.load_arrow(
        population, pa.table({QIDS[0]: ["1", "2", None], QIDS[1]: [30, 40, 50], "n": [9, 3, 4]})
    )
    statements: list[str] = []
    engine.listeners.append(statements.append)
    measure_risk(
        engine, sample, QIDS, population_table=PopulationTable(population, "n"), weight="w"
    )
    measure_risk(engine, sample, QIDS, population=PopulationModel(100))
    entries: list[tuple[str, dict[str, Any]]] = [
        ("k_map", {"k": 5, "population": "main.population", "count": "n"}),
        (
            "average_reidentification_risk",
            {"threshold": 0.5, "highest_risk": 0.2, "records_at_risk": 0.1},
        ),
        ("sample_uniqueness", {"threshold": 0.1}),
        ("population_uniqueness", {"threshold": 0.1, "population_size": 100}),
        ("alpha_k_anonymity", {"column": "sa", "k": 2, "alpha": 0.5}),
        ("delta_disclosure_privacy", {"column": "sa", "delta": 1.0}),
        ("basic_beta_likeness", {"column": "sa", "beta": 1.0}),
        ("enhanced_beta_likeness", {"column": "sa", "beta": 1.0}),
        (
            "hierarchical_t_closeness",
            {"column": "sa", "t": 0.2, "hierarchy": [["a", "A", "*"], ["b", "A", "*"]]},
        ),
    ]
    models: list[PrivacyModel] = [
        PRIVACY_MODELS.get(name).from_spec(params, key=name) for name, params in entries
    ]
    for model in models:
        ready = model.prepared(engine, sample, QIDS)
        engine.fetchall(ready.violations_sql(engine.sql, sample, QIDS))
    engine.listeners.remove(statements.append)
    compare(SNAPSHOTS / engine.dialect / "risk.sql", statements, engine.dialect)
