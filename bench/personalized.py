"""Personalized publishing with several sensitive attributes on Adult (seed 002, Reddy, Raju,
Valli Kumari, IJET 2018): the paper_compat and safe profiles side by side, and anonsql's
existing l-diversity publishing the same sensitive attributes.

Data: the shipped Adult sample (30,162 rows) with a seeded consent column (each subject
consents with probability ``--consent``). QIDs, in cluster-key order: sex, race,
marital_status, workclass, age.
Categorical sensitive attributes: occupation, education (ARX hierarchies). Numeric: hours per
week and capital gain as fuzzy terms (the paper's intervals in paper_compat, triangles in safe).

Per profile and engine: loss (QID NCP, utility and privacy gain, transformation ratio,
count-query error over one and two sensitive attributes), the adversary's largest confidence per
attribute (through what is published, and knowing every row's true cells), the safe profile's
bound re-checked by the independent pandas adversary of ``tests/personalized/adversary.py``, and
time. Then a consent sweep (the paper's 20/50/100 % disclosure, time only) and anonsql's
Mondrian with k-anonymity and distinct l-diversity on the same attributes.

    python bench/personalized.py [--engines duckdb postgres] [--consent 0.8] [--out FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "support"))
sys.path.insert(0, str(ROOT / "tests" / "personalized"))

from adversary import frame, published_confidence, tuple_confidence  # noqa: E402
from pg_server import start_server  # noqa: E402

from anonsql import api  # noqa: E402
from anonsql.algorithms.personalized.config import FuzzyTerms  # noqa: E402
from anonsql.algorithms.personalized.fuzzy import fuzzify  # noqa: E402
from anonsql.engines import DuckDBEngine, Engine, PostgresEngine  # noqa: E402
from anonsql.hierarchies import read_hierarchy  # noqa: E402
from anonsql.report import RunResult  # noqa: E402
from anonsql.samples import load_adult, with_consent  # noqa: E402
from anonsql.sql import TableName  # noqa: E402

#: low-cardinality QIDs first: the cluster key follows this order (1D order of the grouping)
QIDS = ("sex", "race", "marital_status", "workclass", "age")
SOURCE = TableName("adult_pd", "main")
HIERARCHIES = ROOT / "hierarchies"
#: 40 hours is 47 % of Adult: the term holding it must hold little else for l = 2
HOURS_SAFE = FuzzyTerms(
    ("minimal", "reduced", "standard", "extended", "maximal"), (1, 38, 40, 42, 99)
)
GAIN_SAFE = FuzzyTerms(("none", "moderate", "high"), (0, 5000, 99999))
HOURS_PAPER = FuzzyTerms(("Low", "Medium", "High"), (1, 35, 45, 99), "paper_intervals")
GAIN_PAPER = FuzzyTerms(("Low", "Medium", "High"), (0, 5000, 20000, 99999), "paper_intervals")
SENSITIVE = ("occupation", "education", "hours_per_week", "capital_gain")
PUBLISHED = ("groups", "group_values", "buckets", "group_buckets", "sa_taxonomy")


def _terms(terms: FuzzyTerms) -> dict[str, Any]:
    return {"labels": list(terms.labels), "points": list(terms.points), "rule": terms.rule}


def spec(
    profile: str, k: int, l: int, seed: int, *, queries: int = 200, source: TableName = SOURCE
) -> dict[str, Any]:
    """The spec of one personalized release of ``main.adult_pd`` (as
    ``examples/adult-personalized.yaml``, with the profile's terms)."""
    safe = profile == "safe"
    columns: dict[str, Any] = {
        q: {"role": "quasi_identifier", "hierarchy": str(HIERARCHIES / "adult" / f"{q}.txt")}
        for q in QIDS
        if q != "age"
    }
    columns["age"] = {"role": "quasi_identifier", "type": "numeric"}
    for c in ("occupation", "education"):
        columns[c] = {"role": "sensitive", "hierarchy": str(HIERARCHIES / "adult-arx" / f"{c}.csv")}
    for c in ("hours_per_week", "capital_gain"):
        columns[c] = {"role": "sensitive", "type": "numeric"}
    columns["consent"] = {"role": "identifier"}
    gain: dict[str, Any] = {"terms": _terms(GAIN_SAFE if safe else GAIN_PAPER)}
    if safe:
        # 92 % of capital gains are 0: no term split is 2-diverse, so l = 1 (no bound)
        gain["l"] = 1
    return {
        "source": str(source),
        "output": {"schema": "anon", "name": f"{source.name}_{profile}"},
        "columns": columns,
        "privacy": [{"k_anonymity": {"k": k}}],
        "algorithm": {
            "personalized": {
                "profile": profile,
                "consent": {"column": "consent", "values": [True]},
                "l": l,
                "sensitive": {
                    "hours_per_week": {"terms": _terms(HOURS_SAFE if safe else HOURS_PAPER)},
                    "capital_gain": gain,
                },
                "query_workload": queries,
            }
        },
        "seed": seed,
    }


@contextlib.contextmanager
def open_engine(kind: str, tmp: Path) -> Iterator[Engine]:
    if kind == "duckdb":
        with DuckDBEngine(str(tmp / "personalized.duckdb"), threads=2) as engine:
            yield engine
        return
    server = start_server()
    try:
        with PostgresEngine(server.dsn) as engine:
            engine.create_schema("main")
            yield engine
    finally:
        server.stop()


def load(engine: Engine, rate: float, seed: int, source: TableName = SOURCE) -> pa.Table:
    """Adult with a seeded consent column as ``source``; returns the table."""
    with DuckDBEngine() as scratch:
        load_adult(scratch)
        table = scratch.query_arrow("select_all", relation=TableName("adult", "main"))
    table = with_consent(table, rate, seed)
    engine.load_arrow(source, table)
    engine.analyze(source)
    return table


def run_profile(
    engine: Engine,
    profile: str,
    k: int,
    l: int,
    seed: int,
    *,
    queries: int = 200,
    source: TableName = SOURCE,
) -> dict[str, Any]:
    """One release through ``anonsql.api.run`` (verified, measured, certified), timed."""
    start = time.perf_counter()
    result = api.run(spec(profile, k, l, seed, queries=queries, source=source), engine=engine)
    seconds = time.perf_counter() - start
    return {"profile": profile, "seconds": seconds, "result": result}


def independent_adversary(engine: Engine, result: RunResult, profile: str) -> dict[str, float]:
    """The largest confidence per attribute by the tests' pandas adversary, who knows a
    target's group and reads what is published: each tuple's cells in paper_compat (a label
    counting for every leaf below it), the group-bucket counts, buckets and taxonomy in safe."""
    if profile == "paper_compat":
        taxonomies = {
            c: read_hierarchy(HIERARCHIES / "adult-arx" / f"{c}.csv", name=c)
            for c in ("occupation", "education")
        }
        tuples = frame(engine, result.names.main)
        return tuple_confidence(tuples, list(SENSITIVE), taxonomies, covering=True)
    frames = {k: frame(engine, result.names.companion(k)) for k in PUBLISHED}
    return published_confidence(frames["group_buckets"], frames["buckets"], frames["sa_taxonomy"])


def facts(result: RunResult) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(result.certificate["personalized"])
    return loaded


def profile_table(results: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| engine | profile | consenting / withheld rows | groups | run s | QID NCP | UG | PG | "
        "query error d=1 / d=2 (mean) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        res: RunResult = r["result"]
        cert = res.certificate
        q = " / ".join(f"{res.metric(f'query_error_d{d}'):.3f}" for d in (1, 2))
        lines.append(
            f"| {r['engine']} | {r['profile']} | {cert['published_rows']} / "
            f"{cert['withheld_rows']} | {int(res.metric('groups'))} | {r['seconds']:.2f} | "
            f"{res.metric('ncp') / 100:.4f} | {res.metric('utility_gain'):.3f} | "
            f"{res.metric('privacy_gain'):.3f} | {q} |"
        )
    return lines


def attribute_table(results: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| engine | profile | attribute | transformed | UG | PG | confidence published | "
        "confidence links (SQL) | independent (pandas, published) | bound |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        res: RunResult = r["result"]
        bounds = {a["column"]: a["bound"] for a in facts(res)["sensitive"]}
        for s in SENSITIVE:
            bound = bounds[s]
            lines.append(
                f"| {r['engine']} | {r['profile']} | {s} | "
                f"{100 * res.metric('transformation_ratio', s):.1f} % | "
                f"{res.metric('utility_gain', s):.3f} | {res.metric('privacy_gain', s):.3f} | "
                f"{res.metric('adversary_confidence', s):.3f} | "
                f"{res.metric('adversary_confidence_links', s):.3f} | "
                f"{r['independent'][s]:.3f} | "
                f"{'none' if bound is None else f'{bound:.3f}'} |"
            )
    return lines


def ldiversity_runs(engine: Engine, table: pa.Table, k: int, l: int, tmp: Path) -> list[str]:
    """anonsql's Mondrian with k-anonymity and distinct l-diversity on the consenting rows:
    all three sensitive attributes at once, then one at a time."""
    consenting = table.filter(table.column("consent"))
    hours_term, _ = fuzzify(
        consenting.column("hours_per_week").to_numpy().astype(float), HOURS_SAFE
    )
    labels = np.asarray(HOURS_SAFE.labels, dtype=object)[hours_term]
    data = consenting.append_column("hours_term", pa.array(labels.tolist(), pa.string()))
    source = TableName("adult_consenting", "main")
    engine.drop(source)
    engine.load_arrow(source, data)
    hier = ROOT / "hierarchies" / "adult"
    columns: dict[str, Any] = {"age": {"role": "quasi_identifier", "type": "numeric"}}
    for q in (q for q in QIDS if q != "age"):
        columns[q] = {"role": "quasi_identifier", "hierarchy": str(hier / f"{q}.txt")}
    sensitive = ["occupation", "education", "hours_term"]
    lines = [
        "| l-diversity on | classes | QID NCP | confidence occupation / education / hours term "
        "| s |",
        "|---|---|---|---|---|",
    ]
    for chosen in (sensitive, *([s] for s in sensitive)):
        spec_columns = dict(columns)
        spec_columns.update({s: {"role": "sensitive"} for s in chosen})
        spec = {
            "engine": "duckdb",
            "database": str(tmp / "personalized.duckdb"),
            "source": "main.adult_consenting",
            "output": {"schema": "anon", "name": "adult_ldiv", "materialize": "table"},
            "columns": spec_columns,
            "privacy": [{"k_anonymity": {"k": k}}]
            + [{"distinct_l_diversity": {"column": s, "l": l}} for s in chosen],
            "algorithm": "mondrian",
            "suppression_limit": 0.0,
        }
        start = time.perf_counter()
        result = api.run(spec, engine=engine)
        seconds = time.perf_counter() - start
        published = frame(engine, TableName("adult_ldiv", "anon"))
        # the adversary's largest share of one value in a class (rows of equal QIDs); an
        # attribute left out of the release is not published at all
        classes = published[list(QIDS)].astype(str).agg("|".join, axis=1).to_numpy()
        sizes = pd.Series(classes).value_counts()
        confidences = []
        for s in sensitive:
            if s not in published.columns:
                confidences.append("-")
                continue
            counts = pd.DataFrame({"c": classes, "v": published[s].to_numpy()}).value_counts()
            share = counts / sizes.reindex(counts.index.get_level_values("c")).to_numpy()
            confidences.append(f"{float(share.max()):.3f}")
        lines.append(
            f"| {', '.join(chosen)} | {int(result.metric('classes'))} | "
            f"{result.metric('ncp') / 100:.4f} | {' / '.join(confidences)} | "
            f"{seconds:.2f} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engines", nargs="+", default=["duckdb", "postgres"])
    parser.add_argument("--consent", type=float, default=0.8)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--l", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    import tempfile

    lines: list[str] = [
        f"Adult, {args.consent:.0%} consent (seed {args.seed}), k = {args.k}, l = {args.l} "
        "(capital_gain l = 1 in safe)",
        "",
    ]
    results = []
    sweep: list[str] = [
        "| engine | consent | profile | consenting rows | groups | run s (no query workload) |",
        "|---|---|---|---|---|---|",
    ]
    ldiv: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.engines:
            with open_engine(kind, Path(tmp)) as engine:
                table = load(engine, args.consent, args.seed)
                for profile in ("paper_compat", "safe"):
                    r = run_profile(engine, profile, args.k, args.l, args.seed)
                    r["engine"] = kind
                    r["independent"] = independent_adversary(engine, r["result"], profile)
                    results.append(r)
                    print(kind, profile, f"{r['seconds']:.2f} s", flush=True)
                for rate in (0.2, 0.5, 1.0):
                    # a table per rate: the releases' private source views depend on theirs
                    source = TableName(f"adult_pd_{round(100 * rate)}", "main")
                    load(engine, rate, args.seed, source)
                    for profile in ("paper_compat", "safe"):
                        r = run_profile(
                            engine, profile, args.k, args.l, args.seed, queries=0, source=source
                        )
                        res = r["result"]
                        sweep.append(
                            f"| {kind} | {rate:.0%} | {profile} | "
                            f"{res.certificate['published_rows']} | "
                            f"{int(res.metric('groups'))} | {r['seconds']:.2f} |"
                        )
                if kind == "duckdb":
                    ldiv = ldiversity_runs(engine, table, args.k, args.l, Path(tmp))
    lines += ["### Profiles", "", *profile_table(results), "", "### Per sensitive attribute", ""]
    lines += [*attribute_table(results), "", "### Consent sweep (time)", "", *sweep, ""]
    if ldiv:
        lines += ["### anonsql Mondrian, k-anonymity + distinct l-diversity (DuckDB)", "", *ldiv]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
