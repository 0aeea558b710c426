"""Sources named by path (``source: parquet:/data/visits``): registered as a relation of
``anonsql_files`` and read like a table; a missing path is refused naming the key."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from helpers import people, people_spec, snapshot

from anonsql import api
from anonsql.engines import DuckDBEngine
from anonsql.errors import SpecError
from anonsql.spec.sources import FILES_SCHEMA, file_source


def test_a_parquet_file_reads_as_the_same_table(tmp_path: Path) -> None:
    data = people()
    pq.write_table(data, tmp_path / "people.parquet")
    with DuckDBEngine() as duck:
        expected = api.run(
            {**people_spec(tmp_path), "source": "parquet:people.parquet", "base_dir": tmp_path},
            engine=duck,
        )
        assert expected.certificate["verified"]
        assert str(expected.certificate["source"]).startswith(f"{FILES_SCHEMA}.people_")
        assert len(snapshot(duck, expected.names.main)) == data.num_rows


def test_a_folder_of_part_files_and_csv(tmp_path: Path) -> None:
    folder = tmp_path / "people"
    folder.mkdir()
    data = people()
    pq.write_table(data.slice(0, 200), folder / "part-0.parquet")
    pq.write_table(data.slice(200), folder / "part-1.parquet")
    with DuckDBEngine() as duck:
        result = api.run({**people_spec(tmp_path), "source": f"parquet:{folder}"}, engine=duck)
        assert result.certificate["source_rows"] == data.num_rows
    csv = tmp_path / "people.csv"
    csv.write_text(data.to_pandas().to_csv(index=False), encoding="utf-8")
    with DuckDBEngine() as duck:
        result = api.run({**people_spec(tmp_path), "source": f"csv:{csv}"}, engine=duck)
        assert result.certificate["source_rows"] == data.num_rows


@pytest.mark.parametrize(
    ("text", "problem"),
    [("parquet:/nowhere/at/all", "does not exist"), ("orc:/x", "not a file format")],
)
def test_bad_paths_name_the_key(tmp_path: Path, text: str, problem: str) -> None:
    with pytest.raises(SpecError, match=problem) as err:
        file_source(text, tmp_path)
    assert err.value.key == "source"
    with DuckDBEngine() as duck, pytest.raises(SpecError, match=problem):
        api.run({**people_spec(tmp_path), "source": text}, engine=duck)


def test_names_and_uris() -> None:
    assert file_source("main.people", None) is None
    remote = file_source("parquet:s3://bucket/visits/", None)
    assert remote is not None and remote.path == "s3://bucket/visits/"
    assert remote.relation.schema == FILES_SCHEMA and remote.relation.name.startswith("visits_")
    other = file_source("parquet:s3://bucket/other/visits/", None)
    assert other is not None and other.relation != remote.relation


def test_the_dataframe_api_takes_a_spec_file_without_source(tmp_path: Path) -> None:
    """``anonsql.spark.anonymize(df, "spec.yaml")``: the data given is the source."""
    import yaml

    import anonsql.spark

    spec = people_spec(tmp_path)
    del spec["source"]
    (tmp_path / "spec.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
    given = anonsql.spark._with_source(tmp_path / "spec.yaml", "anonsql_inputs.people")
    assert (given.source, given.engine, given.base_dir) == (
        "anonsql_inputs.people",
        "spark",
        tmp_path.resolve(),
    )
    assert anonsql.spark._with_source(spec, "main.t").source == "main.t"
    with pytest.raises(SpecError, match="output"):
        anonsql.spark._with_source({**spec, "output": {}}, "main.t")
