"""The shipped INFORMS 2005 subset (1:M): loading both tables on every engine, their types, the
join the 1:M benchmark uses, and coverage of every column by its shipped hierarchy."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from anonsql.cli import main
from anonsql.engines import DuckDBEngine, Engine
from anonsql.errors import SpecError
from anonsql.hierarchies import Hierarchy, materialize, read_hierarchy, uncovered
from anonsql.resources import resource_dir
from anonsql.samples import (
    INFORMS_HIERARCHIES,
    SAMPLES,
    informs_tables,
    load_informs,
    load_sample,
    load_sample_tables,
    read_informs,
    sample_csv,
)
from anonsql.sql import TableName

PERSONS = 33961
CONDITIONS = 104855
#: Persons with at least one condition: the peers' INFORMS benchmark population.
PERSONS_WITH_CONDITIONS = 26854

#: Static SQL (no values interpolated), valid on DuckDB and PostgreSQL.
JOINED_PERSONS = (
    'SELECT COUNT(DISTINCT d."DUPERSID"), COUNT(*) FROM main.informs_demographics AS d '
    'JOIN main.informs_conditions AS c ON c."DUPERSID" = d."DUPERSID"'
)
CODE_SUMMARY = (
    'SELECT COUNT(DISTINCT "ICD9CODX"), '
    "SUM(CASE WHEN \"ICD9CODX\" IN ('-1', '-9') THEN 1 ELSE 0 END), "
    'COUNT(DISTINCT CASE WHEN "ICD9CODX" LIKE \'0%\' THEN "ICD9CODX" END), '
    'MIN(LENGTH("DUPERSID")), MAX(LENGTH("DUPERSID")) FROM main.informs_conditions'
)


#: How the catalogs name the types load_arrow creates (DuckDB / PostgreSQL).
TEXT = {"VARCHAR", "TEXT", "CHARACTER VARYING"}
INTEGER = {"INTEGER", "INT4"}


def column_types(engine: Engine, table: TableName) -> dict[str, str]:
    columns = engine.columns(table)
    assert columns is not None, table
    return {c.name: c.data_type.upper() for c in columns}


@pytest.fixture(scope="module")
def hierarchies() -> dict[str, Hierarchy]:
    root = resource_dir("hierarchies")
    return {col: read_hierarchy(root / file, name=col) for col, file in INFORMS_HIERARCHIES.items()}


def test_load_informs_on_every_engine(engine: Engine) -> None:
    counts = load_informs(engine)
    assert counts == {"informs_demographics": PERSONS, "informs_conditions": CONDITIONS}
    tables = informs_tables()
    demographics = column_types(engine, tables["demographics"])
    conditions = column_types(engine, tables["conditions"])
    assert list(demographics) == read_informs("demographics").schema.names
    assert list(conditions) == ["DUID", "DUPERSID", "ICD9CODX", "year"]
    assert {demographics["DUPERSID"], conditions["DUPERSID"], conditions["ICD9CODX"]} <= TEXT
    for column in ("DUID", "PID", "DOBMM", "DOBYY", "RACEX", "EDUCYEAR", "income", "marry"):
        assert demographics[column] in INTEGER, column
    assert {conditions["DUID"], conditions["year"]} <= INTEGER
    # the join the 1:M benchmark uses: persons with at least one condition
    persons, rows = engine.fetchall(JOINED_PERSONS)[0]
    assert (int(persons), int(rows)) == (PERSONS_WITH_CONDITIONS, CONDITIONS)
    # codes and person ids stay text: leading zeros kept ("034"), "-1" and "-9" are codes
    distinct, missing_codes, leading_zero, shortest, longest = engine.fetchall(CODE_SUMMARY)[0]
    assert (int(distinct), int(missing_codes), int(leading_zero)) == (601, 2182, 21)
    assert (int(shortest), int(longest)) == (8, 8)
    # loading again replaces the tables
    assert load_informs(engine) == counts


def test_informs_into_another_schema(engine: Engine) -> None:
    counts = load_informs(engine, schema="informs")
    assert counts == {"informs_demographics": PERSONS, "informs_conditions": CONDITIONS}
    assert engine.exists(TableName("informs_conditions", "informs"))
    assert not engine.exists(TableName("informs_conditions", "main"))


def test_shipped_hierarchies_cover_informs(
    engine: Engine, hierarchies: dict[str, Hierarchy]
) -> None:
    load_informs(engine)
    tables = informs_tables()
    for column, hierarchy in hierarchies.items():
        source = tables["conditions" if column == "ICD9CODX" else "demographics"]
        leaves = TableName(f"leaves_{column.lower()}")
        materialize(engine, hierarchy, leaves, TableName(f"nodes_{column.lower()}"))
        assert uncovered(engine, source, column, leaves) == (0, 0), column


def test_shipped_informs_hierarchy_shapes(hierarchies: dict[str, Hierarchy]) -> None:
    shapes = {col: (h.leaf_count, h.height) for col, h in hierarchies.items()}
    assert shapes == {
        "DOBMM": (12, 3),
        "DOBYY": (111, 5),
        "RACEX": (6, 1),
        "EDUCYEAR": (22, 2),
        "income": (23784, 7),
        "ICD9CODX": (1297, 6),
    }
    icd9 = hierarchies["ICD9CODX"]
    # ICD9 codes are zero-padded text, inner nodes name their leaf range, depth varies
    assert icd9.path("034") == ["034", "031,035", "026,050", "001,125", "001,625", "001,999", "*"]
    assert icd9.path("V70") == ["V70", "V66,V70", "V51,V75", "V01,V89", "*"]
    assert icd9.path("-1") == ["-1", "-4,-1", "-9,-1", "*"]


def test_informs_is_not_a_single_table_sample(tmp_path: Path) -> None:
    assert "informs" in SAMPLES
    with pytest.raises(SpecError, match="several tables"):
        sample_csv("informs")
    with DuckDBEngine(":memory:") as engine:
        with pytest.raises(SpecError, match="several tables"):
            load_sample(engine, "informs", TableName("x"))
        with pytest.raises(SpecError, match="no shipped sample named 'nope'"):
            load_sample_tables(engine, "nope")
        with pytest.raises(SpecError, match="no shipped sample named 'nope'"):
            sample_csv("nope")


def test_cli_sample_loads_informs_and_keeps_single_table_samples(tmp_path: Path) -> None:
    db = tmp_path / "samples.duckdb"
    runner = CliRunner()
    result = runner.invoke(main, ["sample", "informs", "--database", str(db)])
    assert result.exit_code == 0, result.output
    assert f"loaded {PERSONS} rows into main.informs_demographics" in result.output
    assert f"loaded {CONDITIONS} rows into main.informs_conditions" in result.output
    result = runner.invoke(main, ["sample", "informs", "--database", str(db), "--schema", "raw"])
    assert result.exit_code == 0 and "raw.informs_conditions" in result.output, result.output
    result = runner.invoke(main, ["sample", "informs", "--database", str(db), "--table", "a.b"])
    assert result.exit_code == 2 and "--schema" in result.output, result.output
    result = runner.invoke(main, ["sample", "adult", "--database", str(db)])
    assert result.exit_code == 0 and "30162 rows into main.adult" in result.output
    result = runner.invoke(main, ["sample", "adult-arx", "--database", str(db), "--schema", "arx"])
    assert result.exit_code == 0 and "30162 rows into arx.adult_arx" in result.output
    with DuckDBEngine(db) as engine:
        assert engine.count_rows(TableName("informs_conditions", "raw")) == CONDITIONS
        assert engine.count_rows(TableName("adult_arx", "arx")) == 30162
