"""Identity-reserved publishing on INFORMS 2005 (Wang, Du, Luo, Li, KAIS 2019, §5).

Individuals: the 26,854 persons of the conditions table, one record per distinct (person,
ICD9CODX) pair (98,703 records, 601 codes); QIDs DOBMM, DOBYY, EDUCYEAR, income (numeric) and
RACEX, marry (categorical), with the shipped INFORMS hierarchies (marry: a flat one over its
values) for GeneIR; the domains are the hierarchies' leaf ranges / leaves for both algorithms.

Sections (each run is printed as it finishes):

* ``default``: k = l = 6, α = 0.6, β = 0.4, |QI| = 6 on all individuals: GeneIR_kl,
  DAnonyIR_kl, DAnonyIR_El, GeneIR_αβ, DAnonyIR_αβ, DAnonyIR_Eαβ, and the person-level
  Mondrian with the IR and EIR models as its split condition; NLoss (Python and SQL), the
  relative error of 1,000 seeded count queries (λ = 1), the vulnerable share of the IR releases,
  the SQL check of every release, and time;
* ``sweeps``: l, α, β and |QI| on a seeded subsample (``--sweep-individuals``), vulnerable share
  by the predicates (the SQL agrees, see the tests);
* ``scale``: DAnonyIR_kl and _El time on growing subsamples, then on INFORMS replicated with
  perturbed quasi-identifiers, until a run exceeds ``--budget`` seconds;
* ``pipeline``: ``anonsql.api.run`` end to end on ``--pipeline-individuals`` sampled
  individuals: danonyir, geneir and one_to_many (the SQL person-level Mondrian with the models
  as split condition), IR (6,6) and EIR l = 6, QID-NCP and time side by side.

Run: ``python bench/identity_reserved.py [--sections default,sweeps,scale,pipeline]
[--algorithms geneir,danonyir,mondrian]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from anonsql import api
from anonsql.algorithms.identity_reserved.danonyir import DAnonyIROptions, danonyir
from anonsql.algorithms.identity_reserved.encoding import (
    Individuals,
    fetch_individuals,
    individual_part_stats,
)
from anonsql.algorithms.identity_reserved.geneir import GeneIROptions, geneir, hierarchy_domains
from anonsql.algorithms.identity_reserved.generalization import Clustering
from anonsql.algorithms.identity_reserved.mondrian import person_mondrian
from anonsql.engines import DuckDBEngine, Engine
from anonsql.hierarchies import Hierarchy, read_hierarchy
from anonsql.metrics.identity_reserved import (
    count_query_workload,
    information_loss,
    publish_clustering,
    query_error,
    vulnerable_share,
)
from anonsql.privacy.identity_reserved import (
    EIRAlphaBetaAnonymity,
    EIRLDiversity,
    IdentityReservedModel,
    IRAlphaBetaAnonymity,
    IRKLAnonymity,
)
from anonsql.resources import resource_dir
from anonsql.samples import informs_tables, load_informs
from anonsql.sql import TableName

#: The issue's order of the quasi-identifiers (|QI| = d takes the first d).
QIDS = ("DOBMM", "DOBYY", "RACEX", "EDUCYEAR", "marry", "income")
NUMERIC = {"DOBMM", "DOBYY", "EDUCYEAR", "income"}
HIERARCHY_FILES = {
    "DOBMM": "DOBMM.txt",
    "DOBYY": "DOBYY.txt",
    "RACEX": "RACEX.txt",
    "EDUCYEAR": "EDUCYEAR.txt",
    "income": "income.txt.gz",
}
RELATION = TableName("informs_ir", "main")
SA = "diagnosis"


@dataclass(frozen=True)
class Data:
    engine: Engine
    individuals: Individuals
    hierarchies: dict[str, Hierarchy]


def prepare() -> Data:
    engine = DuckDBEngine(":memory:", threads=2)
    load_informs(engine)
    tables = informs_tables()
    engine.run(
        "bench/identity_reserved_informs",
        target=RELATION,
        conditions=tables["conditions"],
        demographics=tables["demographics"],
    )
    folder = resource_dir("hierarchies") / "informs"
    hierarchies = {q: read_hierarchy(folder / f, name=q) for q, f in HIERARCHY_FILES.items()}
    marry = sorted(
        str(v[0]) for v in engine.query("bench/distinct_values", relation=RELATION, column="marry")
    )
    hierarchies["marry"] = Hierarchy([[v, "*"] for v in marry], name="marry")
    numeric = [q for q in QIDS if q in NUMERIC]
    categorical = [q for q in QIDS if q not in NUMERIC]
    domains, categories = hierarchy_domains(hierarchies, numeric, categorical)
    individuals = fetch_individuals(
        engine,
        RELATION,
        person="person",
        sensitive=SA,
        numeric=numeric,
        categorical=categorical,
        domains=domains,
        categories=categories,
    )
    return Data(engine, individuals, hierarchies)


def front(individuals: Individuals, d: int) -> Individuals:
    chosen = QIDS[:d]
    return individuals.subset(
        [q for q in chosen if q in NUMERIC], [q for q in chosen if q not in NUMERIC]
    )


def sample(individuals: Individuals, n: int, seed: int) -> Individuals:
    if n >= len(individuals):
        return individuals
    rows = np.sort(np.random.default_rng(seed).choice(len(individuals), n, replace=False))
    return individuals.take(rows)


def kl_models(ell: int) -> tuple[IdentityReservedModel, IdentityReservedModel]:
    ir = IRKLAnonymity.from_spec({"column": SA, "k": ell, "l": ell}, key="kl")
    eir = EIRLDiversity.from_spec({"column": SA, "l": ell}, key="el")
    assert isinstance(ir, IdentityReservedModel) and isinstance(eir, IdentityReservedModel)
    return ir, eir


def ab_models(alpha: float, beta: float) -> tuple[IdentityReservedModel, IdentityReservedModel]:
    params = {"column": SA, "alpha": alpha, "beta": beta}
    ir = IRAlphaBetaAnonymity.from_spec(params, key="ab")
    eir = EIRAlphaBetaAnonymity.from_spec(params, key="eab")
    assert isinstance(ir, IdentityReservedModel) and isinstance(eir, IdentityReservedModel)
    return ir, eir


def vulnerable_by_predicate(
    individuals: Individuals, release: Clustering, eir: IdentityReservedModel
) -> float:
    """Share of the release's classes failing the EIR model (IR releases: all satisfy IR)."""
    if release.classes == 0:
        return 0.0
    stats = individual_part_stats(individuals, release.cluster, release.classes, SA)
    return float((~eir.holds(stats)).mean())


@dataclass(frozen=True)
class Triple:
    """GeneIR_IR, DAnonyIR_IR, DAnonyIR_EIR on one configuration."""

    gene: Clustering
    ir: Clustering
    eir: Clustering


def run_triple(
    data: Data,
    individuals: Individuals,
    ir: IdentityReservedModel,
    eir: IdentityReservedModel,
    seed: int,
) -> Triple:
    hierarchies = {q: data.hierarchies[q] for q in individuals.qid_names}
    gene = geneir(individuals, ir, hierarchies, GeneIROptions(seed=seed))
    dan_ir = danonyir(individuals, ir, DAnonyIROptions(seed=seed))
    dan_eir = danonyir(individuals, eir, DAnonyIROptions(seed=seed))
    return Triple(gene, dan_ir, dan_eir)


def ratio(a: float, b: float) -> str:
    return f"{a / b:.3f}" if b > 0 else "n/a"


def releases(
    data: Data,
    individuals: Individuals,
    family: str,
    ir: IdentityReservedModel,
    eir: IdentityReservedModel,
    seed: int,
    algorithms: Sequence[str],
) -> list[tuple[str, Clustering, IdentityReservedModel]]:
    """The releases of one model family by the chosen algorithms."""
    out: list[tuple[str, Clustering, IdentityReservedModel]] = []
    hierarchies = {q: data.hierarchies[q] for q in individuals.qid_names}
    if "geneir" in algorithms:
        out.append(
            (f"GeneIR_{family}", geneir(individuals, ir, hierarchies, GeneIROptions(seed=seed)), ir)
        )
    if "danonyir" in algorithms:
        for prefix, model in (("", ir), ("E", eir)):
            release = danonyir(individuals, model, DAnonyIROptions(seed=seed))
            out.append((f"DAnonyIR_{prefix}{family}", release, model))
    if "mondrian" in algorithms:
        for prefix, model in (("", ir), ("E", eir)):
            out.append((f"Mondrian_{prefix}{family}", person_mondrian(individuals, model), model))
    return out


def section_default(data: Data, seed: int, queries: int, algorithms: Sequence[str]) -> None:
    individuals = data.individuals
    engine = data.engine
    print(
        f"\n## Default: {len(individuals)} individuals, {individuals.total_records} records, "
        f"{individuals.value_count} codes, |QI| = 6, k = l = 6, alpha 0.6, beta 0.4\n"
    )
    workload = TableName("workload", "main")
    engine.load_arrow(
        workload, count_query_workload(individuals, queries=queries, lam=1, seed=seed)
    )
    print(
        "| release | classes | suppressed rec. | NLoss (py) | NLoss (SQL) | rel. error | "
        "vulnerable | check (viol. / s) | time s |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    results: dict[str, Clustering] = {}
    for family, (ir, eir) in (("kl", kl_models(6)), ("ab", ab_models(0.6, 0.4))):
        for name, release, model in releases(data, individuals, family, ir, eir, seed, algorithms):
            results[name] = release
            published = TableName(f"release_{name}".lower(), "main")
            publish_clustering(
                engine,
                target=published,
                source=RELATION,
                individuals=individuals,
                clustering=release,
                person="person",
                sensitive=SA,
            )
            loss = information_loss(
                engine,
                published,
                source_records=individuals.total_records,
                numeric=individuals.numeric,
                categorical=individuals.categorical,
            )
            error = query_error(
                engine,
                source=RELATION,
                published=published,
                workload=workload,
                person="person",
                sensitive=SA,
                numeric=[d.name for d in individuals.numeric],
                categorical=[d.name for d in individuals.categorical],
            )
            started = time.perf_counter()
            violations = engine.count_query_rows(
                model.violations_sql(
                    engine.sql, published, list(individuals.qid_names), person="person"
                )
            )
            check_seconds = time.perf_counter() - started
            vulnerable = "–"
            if model is ir:
                share = vulnerable_share(
                    engine,
                    published,
                    list(individuals.qid_names),
                    person="person",
                    sensitive=SA,
                    **({"k": 6, "ell": 6} if family == "kl" else {"alpha": 0.6, "beta": 0.4}),
                )
                vulnerable = f"{share.vulnerable}/{share.classes} = {share.share:.3f}"
            print(
                f"| {name} | {release.classes} | {release.suppressed_records} | "
                f"{release.nloss:.4f} | {loss.nloss:.4f} | {error.relative_error:.4f} | "
                f"{vulnerable} | {violations} / {check_seconds:.1f} | {release.seconds:.1f} |",
                flush=True,
            )
    print("\nLoss ratios (paper: GeneIR/DAnonyIR 1.86-3.04, EIR/IR 1.01-1.05):")
    for gene, dan in (
        ("GeneIR_kl", "DAnonyIR_kl"),
        ("GeneIR_kl", "DAnonyIR_Ekl"),
        ("GeneIR_ab", "DAnonyIR_ab"),
        ("GeneIR_ab", "DAnonyIR_Eab"),
        ("DAnonyIR_Ekl", "DAnonyIR_kl"),
        ("DAnonyIR_Eab", "DAnonyIR_ab"),
        ("Mondrian_Ekl", "DAnonyIR_Ekl"),
        ("Mondrian_Eab", "DAnonyIR_Eab"),
        ("Mondrian_Ekl", "Mondrian_kl"),
        ("Mondrian_Eab", "Mondrian_ab"),
    ):
        if gene in results and dan in results:
            print(f"- {gene} / {dan} = {ratio(results[gene].nloss, results[dan].nloss)}")


def sweep_row(
    label: str,
    data: Data,
    individuals: Individuals,
    ir: IdentityReservedModel,
    eir: IdentityReservedModel,
    seed: int,
) -> None:
    t = run_triple(data, individuals, ir, eir, seed)
    v_gene = vulnerable_by_predicate(individuals, t.gene, eir)
    v_ir = vulnerable_by_predicate(individuals, t.ir, eir)
    print(
        f"| {label} | {t.gene.nloss:.4f} | {t.ir.nloss:.4f} | {t.eir.nloss:.4f} | "
        f"{ratio(t.gene.nloss, t.ir.nloss)} | {ratio(t.gene.nloss, t.eir.nloss)} | "
        f"{ratio(t.eir.nloss, t.ir.nloss)} | {v_gene:.3f} | {v_ir:.3f} | "
        f"{t.eir.suppressed_individuals} | {t.gene.seconds:.1f} | "
        f"{t.ir.seconds:.1f} | {t.eir.seconds:.1f} |",
        flush=True,
    )


def section_sweeps(data: Data, seed: int, n: int) -> None:
    base = sample(data.individuals, n, seed)
    header = (
        "| {x} | GeneIR | DAnonyIR_IR | DAnonyIR_EIR | Gene/IR | Gene/EIR | EIR/IR | "
        "v GeneIR | v DAnonyIR | suppressed EIR | s GeneIR | s IR | s EIR |"
    )
    rule = "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    print(f"\n## Sweeps on {len(base)} sampled individuals ({base.total_records} records)\n")
    print("kl family (IR (l,l) vs EIR l), |QI| = 6:\n")
    print(header.format(x="l"))
    print(rule)
    for ell in (2, 4, 6, 8, 10):
        sweep_row(str(ell), data, base, *kl_models(ell), seed)
    print("\nkl family, l = 6:\n")
    print(header.format(x="|QI|"))
    print(rule)
    for d in (3, 4, 5, 6):
        sweep_row(str(d), data, front(base, d), *kl_models(6), seed)
    print("\n(α,β) family, β = 0.4:\n")
    print(header.format(x="α"))
    print(rule)
    for alpha in (0.4, 0.5, 0.6, 0.7, 0.8):
        sweep_row(str(alpha), data, base, *ab_models(alpha, 0.4), seed)
    print("\n(α,β) family, α = 0.6:\n")
    print(header.format(x="β"))
    print(rule)
    for beta in (0.2, 0.3, 0.4, 0.5, 0.6):
        sweep_row(str(beta), data, base, *ab_models(0.6, beta), seed)
    print("\n(α,β) family, α = 0.6, β = 0.4:\n")
    print(header.format(x="|QI|"))
    print(rule)
    for d in (3, 4, 5, 6):
        sweep_row(str(d), data, front(base, d), *ab_models(0.6, 0.4), seed)


def replicate(individuals: Individuals, copies: int, seed: int) -> Individuals:
    """INFORMS repeated ``copies`` times, each copy's numeric QIDs shifted by up to ±2 (within
    the domain) so copies are not duplicates."""
    rng = np.random.default_rng(seed)
    parts = []
    for copy in range(copies):
        low = individuals.low.copy()
        if copy:
            shift = rng.integers(-2, 3, size=low.shape).astype(np.float64)
            bounds_low = np.array([d.low for d in individuals.numeric])
            bounds_high = np.array([d.high for d in individuals.numeric])
            low = np.clip(low + shift, bounds_low, bounds_high)
        parts.append(low)
    n = len(individuals)
    sizes = np.tile(individuals.set_sizes(), copies)
    low = np.vstack(parts)
    return Individuals(
        ids=np.arange(n * copies),
        records=np.tile(individuals.records, copies),
        numeric=individuals.numeric,
        categorical=individuals.categorical,
        low=low,
        high=low.copy(),
        codes=np.tile(individuals.codes, (copies, 1)),
        sa_indptr=np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
        sa_codes=np.tile(individuals.sa_codes, copies),
        sa_records=np.tile(individuals.sa_records, copies),
        sa_values=individuals.sa_values,
    )


def section_scale(data: Data, seed: int, budget: float) -> None:
    print(f"\n## DAnonyIR scale (stops after a run over {budget:.0f} s)\n")
    print("| individuals | records | model | classes | NLoss | time s |")
    print("|---|---|---|---|---|---|")
    full = data.individuals
    sizes: list[tuple[str, Callable[[], Individuals]]] = [
        (str(n), lambda n=n: sample(full, n, seed)) for n in (2000, 4000, 8000, 16000)
    ]
    sizes.append(("all", lambda: full))
    sizes += [(f"x{c}", lambda c=c: replicate(full, c, seed)) for c in (2, 3)]
    ir, eir = kl_models(6)
    for _, build in sizes:
        individuals = build()
        slowest = 0.0
        for model in (ir, eir):
            release = danonyir(
                individuals, model, DAnonyIROptions(seed=seed, max_individuals=10**6)
            )
            slowest = max(slowest, release.seconds)
            print(
                f"| {len(individuals)} | {individuals.total_records} | {model.name} | "
                f"{release.classes} | {release.nloss:.4f} | {release.seconds:.1f} |",
                flush=True,
            )
        if slowest > budget:
            break


def section_pipeline(data: Data, seed: int, n: int) -> None:
    """``anonsql.api.run`` end to end (SQL Mondrian of ``one_to_many`` with the models as
    its split condition beside ``danonyir`` and ``geneir``) on ``n`` sampled individuals."""
    engine = data.engine
    chosen = sample(data.individuals, n, seed).ids
    persons = TableName("ir_persons", "main")
    engine.load_arrow(persons, pa.table({"person": pa.array(list(chosen))}))
    source = TableName("informs_ir_sample", "main")
    engine.run("bench/identity_reserved_sample", target=source, rows=RELATION, persons=persons)
    records = engine.count_rows(source)
    print(
        f"\n## Through the pipeline (api.run, DuckDB): {n} sampled individuals, {records} "
        "records, |QI| = 6, k = l = 6\n"
    )
    print("| algorithm | model | classes | suppressed rec. | QID-NCP % | NLoss | time s |")
    print("|---|---|---|---|---|---|---|")
    folder = Path(tempfile.mkdtemp())
    (folder / "marry.csv").write_text(
        "".join(
            f"{v[0]};*\n"
            for v in engine.query("bench/distinct_values", relation=source, column="marry")
        ),
        encoding="utf-8",
    )
    hierarchy_dir = resource_dir("hierarchies") / "informs"
    columns: dict[str, Any] = {q: {"role": "quasi_identifier", "type": "numeric"} for q in NUMERIC}
    columns["RACEX"] = {"role": "quasi_identifier", "hierarchy": str(hierarchy_dir / "RACEX.txt")}
    columns["marry"] = {"role": "quasi_identifier", "hierarchy": str(folder / "marry.csv")}
    columns[SA] = {"role": "sensitive"}
    models = {
        "ir_kl": {"ir_kl_anonymity": {"column": SA, "k": 6, "l": 6}},
        "eir_l": {"eir_l_diversity": {"column": SA, "l": 6}},
    }
    measured: dict[tuple[str, str], tuple[float, float]] = {}
    for algorithm in ("danonyir", "geneir", "one_to_many"):
        for label, model in models.items():
            spec = {
                "source": str(source),
                "person_id": "person",
                "output": {"schema": "anon", "name": f"{algorithm}_{label}"},
                "columns": columns,
                "privacy": [model],
                "algorithm": {algorithm: {"seed": seed}}
                if algorithm != "one_to_many"
                else algorithm,
                "suppression_limit": 0.0 if algorithm == "one_to_many" else 0.02,
            }
            started = time.perf_counter()
            result = api.run(spec, engine=engine)
            seconds = time.perf_counter() - started
            assert result.certificate["verified"]
            ncp = float(result.certificate["ncp_percent"])
            nloss = "–"
            if algorithm == "danonyir":
                loss = api.identity_reserved_metrics(engine, result.names.main).loss
                nloss = f"{loss.nloss:.4f}" if loss is not None else "–"
            measured[(algorithm, label)] = (ncp, seconds)
            print(
                f"| {algorithm} | {label} | {result.certificate['classes']} | "
                f"{result.certificate['suppressed_rows']} | {ncp:.2f} | {nloss} | {seconds:.1f} |",
                flush=True,
            )
    print("\nRatios to danonyir with the same model (QID-NCP, time):")
    for algorithm in ("geneir", "one_to_many"):
        for label in models:
            ncp, seconds = measured[(algorithm, label)]
            base_ncp, base_seconds = measured[("danonyir", label)]
            print(
                f"- {algorithm} / danonyir, {label}: QID-NCP {ratio(ncp, base_ncp)}, "
                f"time {ratio(seconds, base_seconds)}"
            )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sections", default="default,sweeps,scale")
    parser.add_argument("--algorithms", default="geneir,danonyir,mondrian")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--sweep-individuals", type=int, default=6000)
    parser.add_argument("--budget", type=float, default=150.0)
    parser.add_argument("--pipeline-individuals", type=int, default=6000)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    data = prepare()
    print(f"INFORMS prepared in {time.perf_counter() - started:.1f} s")
    sections = args.sections.split(",")
    if "default" in sections:
        section_default(data, args.seed, args.queries, args.algorithms.split(","))
    if "sweeps" in sections:
        section_sweeps(data, args.seed, args.sweep_individuals)
    if "scale" in sections:
        section_scale(data, args.seed, args.budget)
    if "pipeline" in sections:
        section_pipeline(data, args.seed, args.pipeline_individuals)


if __name__ == "__main__":
    main()
