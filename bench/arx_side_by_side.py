"""anonsql beside ARX 3.9.2 on identical data: whole processes, one at a time, alternating.

    ARX_HOME=~/.cache/anonsql-arx python bench/arx_side_by_side.py --rows 0 1e6 --repeat 3

ARX is built from its source by ``../shared/arx-bench/build.sh`` (nothing of it ships with the
project; without a build the ARX columns are skipped). For each size the data is generated
once (``0`` is the real Adult, otherwise ``bench/synthetic.py``'s Adult-like table), exported
as the ';'-separated CSV ARX reads, and then, in each repetition, every configuration runs as
its own process in the same order:

* ``anonsql mondrian``: ``anonsql run --quiet --json`` on the benchmark spec (8 QIDs, k = 10,
  age and education_num numeric, the other six with the shipped hierarchies), on a fresh copy
  of the pristine database file;
* ``anonsql full_domain 0 %`` and ``5 %``: the same QIDs, every one with the
  ``hierarchies/adult-scale`` level table ARX reads, ``objective: loss`` (ARX's loss metric);
* ``ARX 0 %`` and ``5 %``: ``ArxRun`` (Flash, ``Metric.createLossMetric()``), reading the CSV.

Wall seconds are the process's (start-up, reading the input and writing the output included:
ARX writes its CSV, anonsql its release in the database); peak RSS from ``wait4``. Prints one
line per process and a table of medians with the ratio of each anonsql row to ARX 0 %.
anonsql runs with its bytecode written and reused (``PYTHONDONTWRITEBYTECODE`` is dropped from
its environment), as an installed package's is: compiling anonsql's modules afresh in every
process would add about 0.2 s.

    python bench/arx_side_by_side.py --rows 0 --profile [--only mondrian]

profiles one process of each anonsql configuration instead: the imports (``-X importtime``,
summed per top-level package) and the run's steps (cProfile, cumulative milliseconds of the
pipeline's step functions and of the statements), the start-up profile of issue 33. cProfile
slows Python-heavy steps: read the step figures as shares, the timed runs as the totals.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import duckdb
import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from run_one import bench_spec
from scale import prepare_duckdb

from anonsql.demo import ADULT_QIDS

K = 10
ARX_HOME = Path(os.environ.get("ARX_HOME", Path.home() / ".cache" / "anonsql-arx"))


def child_env() -> dict[str, str]:
    """The environment of a measured process: bytecode written and reused."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(argv: list[str], cwd: Path) -> tuple[float, float, str]:
    """Wall seconds, peak RSS (MiB) and stdout of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_env()
    )
    out, err = proc.communicate()
    wall = time.perf_counter() - start
    # the child has been reaped by communicate(); its rusage is in RUSAGE_CHILDREN only as a
    # maximum over children, so each run is measured in a fresh interpreter (see --child)
    if proc.returncode != 0:
        raise SystemExit(f"{argv[0]} failed ({proc.returncode}):\n{err.decode()[-2000:]}")
    return wall, _child_peak_mib(), out.decode()


def _child_peak_mib() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def arx_argv(csv: Path, supp: float, out: Path) -> list[str] | None:
    run = ARX_HOME / "run"
    if not (run / "ArxRun.class").is_file():
        return None
    classpath = f"{run}:{(run / 'classpath.txt').read_text().strip()}"
    hier = ROOT / "hierarchies" / "adult-scale"
    return [
        "java",
        "-Xmx12g",
        "-cp",
        classpath,
        "ArxRun",
        str(csv),
        str(hier),
        str(K),
        str(supp),
        str(out),
        "--hier-pattern",
        "%s.csv",
    ]


def specs(db: Path, source: str, synthetic: bool) -> dict[str, dict[str, Any]]:
    mondrian = bench_spec(str(db), source=source, synthetic=synthetic, k=K)
    full = bench_spec(str(db), source=source, synthetic=synthetic, k=K, algorithm="full_domain")
    for column in ADULT_QIDS:
        full["columns"][column] = {
            "role": "quasi_identifier",
            "hierarchy": f"adult-scale/{column}.csv",
        }
    full["algorithm"] = {"full_domain": {"objective": "loss"}}
    out = {"anonsql mondrian": mondrian, "anonsql full_domain 0 %": full}
    five = json.loads(json.dumps(full))
    five["suppression_limit"] = 0.05
    out["anonsql full_domain 5 %"] = five
    return out


def child(argv: list[str], cwd: str) -> None:
    """One measured process (a fresh interpreter, so its children's peak RSS is this one's)."""
    wall, peak, out = timed(argv, Path(cwd))
    last = out.strip().splitlines()[-1] if out.strip() else ""
    print(json.dumps({"seconds": wall, "peak_rss_mib": peak, "stdout": last}))


def measure(argv: list[str], cwd: Path) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, __file__, "--child", json.dumps(argv), str(cwd)],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(proc.stderr[-3000:])
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def _arx_fields(stdout: str) -> dict[str, str]:
    for line in stdout.splitlines():
        if line.startswith("ARXRESULT"):
            return dict(f.split("=", 1) for f in line.split("\t")[1:] if "=" in f)
    return {}


#: The pipeline's steps (function name, the file it is defined in) the profile reports.
STEPS = (
    ("load_spec", "spec/load.py"),
    ("_engine_for", "api.py"),
    ("resolve", "resolve/resolve.py"),
    ("load_hierarchies", "hierarchies/load.py"),
    ("versioning", "versions/delta.py"),
    ("prepared", "prepare/prepare.py"),
    ("partition", "versions/delta.py"),
    ("stage", "stage/stage.py"),
    ("open", "publish/swap.py"),
    ("publish", "publish/publish.py"),
    ("verify", "verify/verify.py"),
    ("attack", "attacks/step.py"),
    ("measure", "measure/measure.py"),
    ("certify", "certify/certificate.py"),
    ("report", "report/report.py"),
    ("close", "engines/duckdb/engine.py"),
    ("execute", "engines/base.py"),
    ("fetchall", "engines/base.py"),
    ("fetch_arrow", "engines/base.py"),
    ("render_many", "sql/render.py"),
)


def import_profile(argv: list[str], cwd: Path) -> tuple[int, Counter[str]]:
    """One process under ``-X importtime``: the modules imported, and the import time (self,
    microseconds) summed per top-level package."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "anonsql", *argv[1:]],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=child_env(),
        check=True,
    )
    packages: Counter[str] = Counter()
    modules = 0
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, _, name = line.removeprefix("import time:").split("|")
        packages[name.strip().split(".")[0]] += int(own)
        modules += 1
    return modules, packages


def step_profile(argv: list[str], cwd: Path, out: Path) -> dict[str, tuple[float, int]]:
    """One process under cProfile: per step of :data:`STEPS`, cumulative ms and calls."""
    import pstats

    subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(out), "-m", "anonsql", *argv[1:]],
        cwd=cwd,
        capture_output=True,
        env=child_env(),
        check=True,
    )
    stats: dict[Any, Any] = pstats.Stats(str(out)).stats  # type: ignore[attr-defined]
    found: dict[str, tuple[float, int]] = {}
    for (path, _, function), (_, calls, _, cumulative, _) in stats.items():
        for name, where in STEPS:
            if function == name and path.endswith(where):
                label = "partition (the algorithm)" if name == "partition" else name
                found[label] = (cumulative * 1000, calls)
    imports = [c for (path, _, f), (_, _, _, c, _) in stats.items() if f == "_find_and_load"]
    found["imports (_find_and_load)"] = (max(imports, default=0.0) * 1000, 1)
    found["whole process"] = (max(c for (_, _, _, c, _) in stats.values()) * 1000, 1)
    return found


def profile_size(rows: int, only: list[str] | None) -> None:
    """Print the start-up profile of each anonsql configuration (one process each)."""
    with tempfile.TemporaryDirectory(prefix="anonsql-arx-") as tmp:
        folder = Path(tmp)
        db, source = prepare_duckdb(folder, rows)
        pristine = folder / "pristine.duckdb"
        shutil.copy(db, pristine)
        for name, spec in specs(db, source, bool(rows)).items():
            if only and not any(o in name for o in only):
                continue
            path = folder / (name.replace(" ", "_").replace("%", "pct") + ".yaml")
            path.write_text(yaml.safe_dump(spec), encoding="utf-8")
            argv = ["anonsql", "run", "--quiet", "--json", str(path)]
            shutil.copy(pristine, db)
            subprocess.run(  # writes the bytecode the measured processes reuse
                [sys.executable, "-m", "anonsql", *argv[1:]],
                cwd=folder,
                env=child_env(),
                capture_output=True,
                check=True,
            )
            shutil.copy(pristine, db)
            modules, packages = import_profile(argv, folder)
            shutil.copy(pristine, db)
            steps = step_profile(argv, folder, folder / "run.prof")
            print(f"## {name} (rows={rows or 'adult'})")
            total = sum(packages.values()) / 1000
            print(f"imports: {modules} modules, {total:.0f} ms (-X importtime, self times)")
            for package, us in packages.most_common(12):
                print(f"  {package:20s} {us / 1000:7.1f} ms")
            print("steps (cProfile, cumulative ms, calls):")
            for label, (ms, calls) in sorted(steps.items(), key=lambda item: -item[1][0]):
                print(f"  {label:28s} {ms:8.1f} ms {calls:6d}")


def run_size(rows: int, repeat: int, only: list[str] | None) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="anonsql-arx-") as tmp:
        folder = Path(tmp)
        db, source = prepare_duckdb(folder, rows)
        pristine = folder / "pristine.duckdb"
        shutil.copy(db, pristine)
        csv = folder / "data.csv"
        with duckdb.connect(str(pristine), read_only=True) as con:
            con.sql("SELECT " + ", ".join(ADULT_QIDS) + " FROM " + source).write_csv(
                str(csv), sep=";", header=True
            )
        configs: dict[str, list[str] | None] = {}
        anonsql = str(Path(sys.executable).with_name("anonsql"))
        for name, spec in specs(db, source, bool(rows)).items():
            path = folder / (name.replace(" ", "_").replace("%", "pct") + ".yaml")
            path.write_text(yaml.safe_dump(spec), encoding="utf-8")
            configs[name] = [anonsql, "run", "--quiet", "--json", str(path)]
        configs["ARX 0 %"] = arx_argv(csv, 0.0, folder / "arx0.csv")
        configs["ARX 5 %"] = arx_argv(csv, 0.05, folder / "arx5.csv")
        results: dict[str, list[dict[str, Any]]] = {name: [] for name in configs}
        for i in range(repeat):
            for name, argv in configs.items():
                if argv is None or (only and not any(o in name for o in only)):
                    continue
                if name.startswith("anonsql"):
                    shutil.copy(pristine, db)
                r = measure(argv, folder)
                results[name].append(r)
                print(
                    f"rows={rows or 'adult'} run {i + 1} {name}: {r['seconds']:.2f} s, "
                    f"{r['peak_rss_mib']:.0f} MiB",
                    file=sys.stderr,
                    flush=True,
                )
    table = []
    for name, runs in results.items():
        if not runs:
            continue
        last = runs[-1]["stdout"]
        quality: dict[str, Any] = {}
        if name.startswith("ARX"):
            quality = {f"arx_{k}": v for k, v in _arx_fields(last).items()}
        else:
            summary = json.loads(last.strip().splitlines()[-1])
            cert = summary.get("certificate", {})
            ncp = [
                m
                for m in summary.get("metrics", [])
                if m.get("metric") == "ncp" and m.get("attribute") is None
            ]
            quality = {
                "ncp": ncp[0].get("value") if ncp else None,
                "classes": cert.get("classes"),
                "suppressed": cert.get("suppressed_rows"),
                "verified": cert.get("verified"),
            }
        table.append(
            {
                "rows": rows or 30_162,
                "config": name,
                "median_s": statistics.median(r["seconds"] for r in runs),
                "runs_s": [round(r["seconds"], 2) for r in runs],
                "peak_rss_mib": max(r["peak_rss_mib"] for r in runs),
                **quality,
            }
        )
    arx = next((t["median_s"] for t in table if t["config"] == "ARX 0 %"), None)
    for t in table:
        t["vs_arx_0"] = round(t["median_s"] / arx, 2) if arx else None
    return table


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(json.loads(sys.argv[2]), sys.argv[3])
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=float, nargs="+", default=[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=None, help="configs whose name contains")
    parser.add_argument("--profile", action="store_true", help="the start-up profile instead")
    args = parser.parse_args()
    if args.profile:
        for rows in args.rows:
            profile_size(int(rows), args.only)
        return
    rows_all = []
    for rows in args.rows:
        rows_all.extend(run_size(int(rows), args.repeat, args.only))
    print("| rows | config | median s | runs s | peak RSS MiB | vs ARX 0 % | quality |")
    print("|---|---|---|---|---|---|---|")
    for t in rows_all:
        quality = {
            k: v
            for k, v in t.items()
            if k not in {"rows", "config", "median_s", "runs_s", "peak_rss_mib", "vs_arx_0"}
        }
        print(
            f"| {t['rows']:,} | {t['config']} | {t['median_s']:.2f} | {t['runs_s']} | "
            f"{t['peak_rss_mib']:.0f} | {t['vs_arx_0']} | {json.dumps(quality)} |"
        )


if __name__ == "__main__":
    main()
