"""Fingerprints of every release on the Adult and INFORMS grids, to prove a refactoring changed
no published output, metric or certificate.

    python bench/release_fingerprints.py --write before.json        # on the old code
    python bench/release_fingerprints.py --compare before.json      # on the new code

For each configuration (algorithm, models, suppression, engine) it runs anonsql, then hashes
the sorted rows of every relation the release published (the main view, and for 1:M data the
person-level view) and of its classes, metrics, attributes and hierarchy nodes, plus the
certificate without its run-specific fields (run id, time stamps, seconds, version). Exit code
1 when a comparison finds a difference.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

import yaml

from anonsql import api
from anonsql.demo import adult_spec
from anonsql.engines import DuckDBEngine, Engine
from anonsql.samples import load_adult, load_informs, load_sample
from anonsql.sql import TableName

ROOT = Path(__file__).resolve().parent.parent
#: Certificate fields that differ from run to run by nature.
VOLATILE = {"run_id", "created_at", "seconds", "anonsql_version"}
#: Timings inside the certificate's ``search`` record (full-domain search statistics).
VOLATILE_SEARCH = {"seconds", "sql_seconds"}
#: Relations of a release whose rows are fingerprinted (those that exist).
RELATIONS = ("", "__by_person", "__classes", "__metrics", "__attributes", "__hierarchy_nodes")
#: Those of them published in the private schema since issue 11.
PRIVATE_SUFFIXES = ("__attributes", "__hierarchy_nodes")


def _adult(k: int, **changes: Any) -> dict[str, Any]:
    spec = adult_spec(":memory:", k=k)
    del spec["database"]
    spec.update(changes)
    return spec


def _adult_sa(k: int, models: list[dict[str, Any]], **changes: Any) -> dict[str, Any]:
    spec = _adult(k, **changes)
    spec["privacy"] = [{"k_anonymity": {"k": k}}, *models]
    return spec


def _informs(k: int, l: int, models: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    spec = yaml.safe_load((ROOT / "examples" / "informs.yaml").read_text(encoding="utf-8"))
    del spec["database"]
    spec["privacy"] = models or [{"kl_diversity": {"column": "ICD9CODX", "k": k, "l": l}}]
    return dict(spec)


def _example(name: str, **changes: Any) -> dict[str, Any]:
    spec = yaml.safe_load((ROOT / "examples" / name).read_text(encoding="utf-8"))
    del spec["database"]
    spec["base_dir"] = ROOT / "examples"  # its hierarchy paths are relative to it
    spec.update(changes)
    return dict(spec)


def _adult_sample(algorithm: str, k: int = 5) -> dict[str, Any]:
    """Adult's first rows (``adult_sample``), for the quadratic dependency-preserving
    algorithms, with its functional dependency education <-> education_num."""
    spec = _example("adult-dependencies.yaml", algorithm=algorithm)
    spec["source"] = "main.adult_sample"
    spec["output"] = {"schema": "anon", "name": f"adult_{algorithm}"}
    spec["privacy"] = [{"k_anonymity": {"k": k}}]
    return spec


def grid() -> dict[str, tuple[str, Callable[[], dict[str, Any]]]]:
    """Configuration name -> (data set, spec factory)."""
    configs: dict[str, tuple[str, Callable[[], dict[str, Any]]]] = {}
    for k in (2, 5, 10, 25, 50, 100):
        configs[f"adult mondrian k={k}"] = ("adult", lambda k=k: _adult(k))
    for limit in (0.01, 0.05):
        configs[f"adult mondrian k=10 suppression={limit}"] = (
            "adult",
            lambda limit=limit: _adult(10, suppression_limit=limit),
        )
    configs["adult mondrian k=10 strict"] = (
        "adult",
        lambda: _adult(10, algorithm={"mondrian": {"categorical_split": "strict"}}),
    )
    configs["adult mondrian k=10 window=50"] = (
        "adult",
        lambda: _adult(10, algorithm={"mondrian": {"max_partitions_per_round": 50}}),
    )
    sa_models: dict[str, list[dict[str, Any]]] = {
        "distinct l=2": [{"distinct_l_diversity": {"column": "class", "l": 2}}],
        "entropy l=1.5": [{"entropy_l_diversity": {"column": "class", "l": 1.5}}],
        "recursive c=4 l=2": [{"recursive_cl_diversity": {"column": "class", "c": 4, "l": 2}}],
        "t-closeness t=0.2": [{"t_closeness": {"column": "class", "t": 0.2}}],
        "t-closeness ordered hours t=0.3": [
            {"t_closeness": {"column": "hours_per_week", "t": 0.3, "distance": "ordered"}}
        ],
    }
    for label, models in sa_models.items():
        configs[f"adult mondrian k=5 {label}"] = (
            "adult",
            lambda models=models, label=label: _adult_sa(
                5,
                models,
                columns={
                    **_adult(5)["columns"],
                    **({"hours_per_week": {"role": "sensitive"}} if "hours" in label else {}),
                },
            ),
        )
    for algorithm in ("hilbert", "idistance"):
        for k in (5, 25):
            configs[f"adult {algorithm} k={k}"] = (
                "adult",
                lambda k=k, algorithm=algorithm: _adult(k, algorithm=algorithm),
            )
    configs["adult hilbert k=5 distinct l=2"] = (
        "adult",
        lambda: _adult_sa(
            5, [{"distinct_l_diversity": {"column": "class", "l": 2}}], algorithm="hilbert"
        ),
    )
    for k in (2, 10, 100):
        configs[f"informs one_to_many k={k} l=5"] = ("informs", lambda k=k: _informs(k, 5))
    configs["adult full_domain k=10 suppression=0.05"] = (
        "adult",
        lambda: _adult(10, algorithm="full_domain", suppression_limit=0.05),
    )
    configs["adult dependencies mondrian k=10"] = (
        "adult",
        lambda: _example("adult-dependencies.yaml"),
    )
    for algorithm in ("pair_enum", "k_assemble", "k_member", "top_down"):
        configs[f"adult dependencies {algorithm} k=5"] = (
            "adult",
            lambda algorithm=algorithm: _adult_sample(algorithm),
        )
    configs["adult personalized k=10"] = ("adult", lambda: _example("adult-personalized.yaml"))
    for algorithm in ("danonyir", "geneir"):
        configs[f"informs identity_reserved {algorithm} l=6"] = (
            "informs",
            lambda algorithm=algorithm: _example(
                "informs-identity-reserved.yaml", algorithm={algorithm: {"seed": 0}}
            ),
        )
    configs["informs person_k_anonymity k=10"] = (
        "informs",
        lambda: _informs(10, 1, [{"person_k_anonymity": {"k": 10}}]),
    )
    return configs


def _stable(value: Any) -> Any:
    """Floats rounded to 9 significant digits: parallel sums differ in the last bits run to run."""
    if isinstance(value, float):
        return float(f"{value:.9g}")
    if isinstance(value, (tuple, list)):
        return type(value)(_stable(v) for v in value)
    return value


def _rows_hash(engine: Engine, relation: TableName, drop: str | None = None) -> str | None:
    """Hash of the sorted rows; ``drop`` names a column left out (1:M pseudonyms are drawn at
    random by every run)."""
    if not engine.exists(relation):
        return None
    table = engine.query_arrow("select_all", relation=relation)
    if drop is not None and drop in table.column_names:
        table = table.drop_columns([drop])
    rows = sorted(repr(_stable(tuple(r.values()))) for r in table.to_pylist())
    return hashlib.sha256("\n".join(rows).encode()).hexdigest()[:16]


#: A versioned relation's run-specific part (``informs__vf730ca24b6a6__by_person``): engines
#: without transactional DDL (Spark) check the version they publish, and name it in
#: ``violations``.
VERSION_ID = re.compile(r"__v[0-9a-f]{12}(?=__|\b)")


def _without_timings(certificate: dict[str, Any]) -> dict[str, Any]:
    """The certificate with what differs run to run by nature left out: the search statistics'
    timings, and the version ids in the names of the relations checked."""
    certificate = {
        k: VERSION_ID.sub("__v*", v) if isinstance(v, str) else v for k, v in certificate.items()
    }
    search = json.loads(certificate.get("search") or "null")
    if isinstance(search, dict) and isinstance(search.get("statistics"), dict):
        for key in VOLATILE_SEARCH:
            search["statistics"].pop(key, None)
        certificate = {**certificate, "search": json.dumps(search, sort_keys=True)}
    return certificate


def fingerprint(engine: Engine, output: TableName) -> dict[str, Any]:
    found: dict[str, Any] = {}
    certificate = engine.query_arrow(
        "select_all", relation=output.with_name(output.name + "__certificate")
    ).to_pylist()[0]
    person = json.loads(certificate.get("person_level") or "null")
    pseudonym = person["person_id"] if person else None
    private = certificate.get("private_schema")
    for suffix in RELATIONS:
        relation = output.with_name(output.name + suffix)
        if private and suffix in PRIVATE_SUFFIXES:  # releases since issue 11 keep them private
            relation = TableName(output.name + suffix, private)
        found[suffix or "main"] = _rows_hash(engine, relation, pseudonym)
    found["certificate"] = {
        k: _stable(v) for k, v in sorted(certificate.items()) if k not in VOLATILE
    }
    return found


#: Configurations run beyond DuckDB (names containing one of these), per engine: a subset
#: touching every layout and research system, as every run there takes seconds to minutes.
ON_OTHER_ENGINES = {
    "postgres": ("k=10", "t-closeness t=0.2", "hilbert k=5", "danonyir", "k_member"),
    "spark": (
        "adult mondrian k=10",
        "informs one_to_many k=10",
        "personalized",
        "t-closeness t=0.2",
    ),
}


def _load(engine: Engine, data: str) -> None:
    if data == "informs":
        load_informs(engine)
        return
    load_adult(engine)
    load_sample(engine, "adult-consent", TableName("adult_consent", "main"))
    # a fixed ~1,000-row subset for the quadratic dependency-preserving algorithms
    engine.execute(
        "CREATE TABLE main.adult_sample AS SELECT * FROM main.adult WHERE final_weight % 30 = 0"
    )


def engines(names: list[str]) -> Iterator[tuple[str, Callable[[], Engine], Callable[[], None]]]:
    for name in names:
        if name == "duckdb":
            yield name, lambda: DuckDBEngine(":memory:"), lambda: None
        elif name == "spark":
            import tempfile

            from anonsql.engines.spark.engine import SparkEngine, open_session

            warehouse = tempfile.mkdtemp(prefix="fp-spark-")
            session = open_session(
                "local[2]",
                {
                    "spark.sql.warehouse.dir": warehouse,
                    "spark.driver.extraJavaOptions": f"-Dderby.system.home={warehouse}",
                    "spark.sql.shuffle.partitions": "2",
                },
            )

            def open_spark(session: Any = session) -> Engine:
                # one catalog: the Adult and INFORMS tables share ``main`` under distinct names
                engine = SparkEngine(session=session)
                engine.ensure_schema("main")
                return engine

            yield name, open_spark, session.stop
        else:
            from pg_server import start_server

            from anonsql.engines import PostgresEngine

            server = start_server()
            counter = iter(range(1_000_000))

            def open_pg(server: Any = server, counter: Any = counter) -> Engine:
                import psycopg

                name = f"fp{next(counter)}"
                with psycopg.connect(server.dsn, autocommit=True) as admin:
                    admin.execute(f'CREATE DATABASE "{name}"')
                engine = PostgresEngine(server.dsn_for(name))
                engine.create_schema("main")
                return engine

            yield name, open_pg, server.stop


def _acknowledged(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec with every sensitive or insensitive column published with
    ``acknowledge_linked``: at some k and algorithms such a column gives a few rows'
    quasi-identifiers away, which the linkage gate (since issue 29) refuses; acknowledged, the
    run publishes and the certificate records the exposure, which is fingerprinted too."""
    columns = {
        name: {**column, "acknowledge_linked": True}
        if isinstance(column, dict) and column.get("role") in ("sensitive", "insensitive")
        else column
        for name, column in spec["columns"].items()
    }
    return {**spec, "columns": columns}


def compute(engine_names: list[str], only: str | None) -> dict[str, Any]:
    results: dict[str, Any] = {}
    configs = grid()
    for engine_name, open_engine, stop in engines(engine_names):
        loaded: dict[str, Engine] = {}
        try:
            for name, (data, make) in configs.items():
                if only and only not in name:
                    continue
                if engine_name != "duckdb" and not any(
                    s in name for s in ON_OTHER_ENGINES[engine_name]
                ):
                    continue
                if data not in loaded:
                    engine = open_engine()
                    _load(engine, data)
                    loaded[data] = engine
                engine = loaded[data]
                spec = _acknowledged(make())
                started = time.perf_counter()
                result = api.run(spec, engine=engine)
                key = f"{engine_name}: {name}"
                results[key] = fingerprint(engine, result.names.main)
                print(f"{key}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
        finally:
            for engine in loaded.values():
                engine.close()
            stop()
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", type=Path)
    parser.add_argument("--compare", type=Path)
    parser.add_argument("--engines", default="duckdb,postgres")
    parser.add_argument("--only", help="run only configurations whose name contains this")
    args = parser.parse_args()
    results = compute(args.engines.split(","), args.only)
    if args.write:
        args.write.write_text(json.dumps(results, indent=1, sort_keys=True, default=str) + "\n")
    if args.compare:
        before = json.loads(args.compare.read_text())
        now = json.loads(json.dumps(results, default=str))
        for found in (before, now):
            for value in found.values():
                value["certificate"] = _without_timings(value["certificate"])
        differ = [k for k in now if k in before and before[k] != now[k]]
        missing = [k for k in before if k not in now]
        for key in differ:
            for part in now[key]:
                was, is_ = before[key].get(part), now[key][part]
                if was == is_:
                    continue
                if isinstance(was, dict) and isinstance(is_, dict):
                    fields = sorted(f for f in {*was, *is_} if was.get(f) != is_.get(f))
                    print(f"DIFFERENT {key}: {part} fields {fields}")
                else:
                    print(f"DIFFERENT {key}: {part}")
        print(
            f"{len(now)} releases compared: {len(now) - len(differ)} identical, "
            f"{len(differ)} different, {len(missing)} not run"
        )
        sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
