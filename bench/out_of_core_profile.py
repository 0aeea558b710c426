"""Where an out-of-core DuckDB run spends its time and its disk, statement by statement.

    python bench/out_of_core_profile.py --rows 1e8            # generates the input once
    python bench/out_of_core_profile.py --rows 1e8 --input /work/big/src1e8.duckdb

The input (``bench/synthetic.py``'s Adult-like rows, 8 QIDs) is generated once into
``--input`` (kept for later runs: generating 1e8 rows takes ~2.5 min on one core) and copied
for each run; the run is ``anonsql.run`` in this process on the scale spec (``bench/scale.py``:
k = 10, ``memory_limit`` 3GB, a temp folder beside the database). Every statement is labelled
by the template it was rendered from; a sampler thread records, every 0.25 s, how far the
database file, its WAL and the temp folder grew beyond the input while each label ran; a
statement that names the source, the batch or the version's rows counts as a pass over the
data. Prints one JSON line (wall seconds, peak disk growth, peak RSS, passes), then the labels
by engine seconds.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import resource
import shutil
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run_one import bench_spec  # noqa: E402
from synthetic import make_synthetic_adult  # noqa: E402
from template_profile import LABELS, labelled  # noqa: E402

import anonsql  # noqa: E402
from anonsql.engines import DuckDBEngine  # noqa: E402
from anonsql.engines.base import Engine  # noqa: E402
from anonsql.sql.render import SqlRenderer  # noqa: E402

#: Label (template_profile's) -> [calls, seconds, peak disk bytes while it ran].
TIMES: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0, 0])
CURRENT = ["start"]
#: Relations of the whole table's size: a statement naming one is counted as a pass over it.
BIG = ('"adult_synth"', '"v_batch"', '__version_rows"', '"adult__released"', '"anon"."adult"')
PASSES: collections.Counter[str] = collections.Counter()
#: Statements that name a relation without reading its rows.
NOT_A_PASS = re.compile(r"(CREATE\s+(TEMP\s+|TEMPORARY\s+)?VIEW|DROP|DESCRIBE|ANALYZE)\b", re.I)


def _usage(paths: list[Path]) -> int:
    total = 0
    for path in paths:
        try:
            if path.is_file():
                total += path.stat().st_size
            elif path.is_dir():
                total += sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
        except OSError:  # a spill file removed while the folder was walked
            continue
    return total


def _timed(method: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(self: Engine, sql: str, *args: Any, **kwargs: Any) -> Any:
        label = LABELS.get(sql, " ".join(sql.split())[:50])
        CURRENT[0] = label
        if any(name in sql for name in BIG) and not NOT_A_PASS.match(sql.lstrip()):
            PASSES[label] += 1
        start = time.perf_counter()
        try:
            return method(self, sql, *args, **kwargs)
        finally:
            entry = TIMES[label]
            entry[0] += 1
            entry[1] += time.perf_counter() - start

    return wrapper


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=float, default=1e8)
    parser.add_argument("--input", type=Path, default=Path("/tmp/anonsql-ooc/input.duckdb"))
    parser.add_argument("--memory-limit", default="3GB")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    rows = int(args.rows)
    args.input.parent.mkdir(parents=True, exist_ok=True)
    if not args.input.exists():
        started = time.perf_counter()
        with DuckDBEngine(args.input) as engine:
            make_synthetic_adult(engine, rows)
            engine.execute("CHECKPOINT")
        print(f"generated {rows:,} rows in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    work = args.input.with_name("run.duckdb")
    temp = args.input.with_name("run.tmp")
    watched = [work, Path(f"{work}.wal"), temp]
    for path in watched:
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    shutil.copyfile(args.input, work)
    base = _usage(watched)
    SqlRenderer.render_many = labelled(SqlRenderer.render_many)  # type: ignore[method-assign]
    SqlRenderer.render = labelled(SqlRenderer.render)  # type: ignore[method-assign]
    for name in ("execute", "fetchall", "fetch_arrow"):
        setattr(Engine, name, _timed(getattr(Engine, name)))
    peak = [0, 0]  # growth of database + WAL + temp folder; the temp folder alone
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.25):
            grown = _usage(watched) - base
            peak[0] = max(peak[0], grown)
            peak[1] = max(peak[1], _usage([temp]))
            entry = TIMES[CURRENT[0]]
            entry[2] = max(entry[2], grown)

    threading.Thread(target=sample, daemon=True).start()
    spec = bench_spec(str(work), source="main.adult_synth", synthetic=True, k=10)
    if rows > 317_238_626:
        # the risk estimates assume ARX's default population (the USA) unless told: a larger
        # synthetic table needs a population at least its size (else refused when profiled)
        spec["risk"] = {"population_size": 10 * rows}
    spec["engine_settings"] = {
        "memory_limit": args.memory_limit,
        "temp_directory": str(temp),
        "preserve_insertion_order": False,
    }
    started = time.perf_counter()
    result = anonsql.run(spec)
    wall = time.perf_counter() - started
    done.set()
    print(
        json.dumps(
            {
                "rows": rows,
                "input_gib": round(args.input.stat().st_size / 2**30, 2),
                "wall_s": round(wall, 1),
                "peak_disk_growth_gib": round(peak[0] / 2**30, 2),
                "peak_temp_folder_gib": round(peak[1] / 2**30, 2),
                "database_gib": round(work.stat().st_size / 2**30, 2),
                "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
                "verified": result.check.holds,
                "passes": sum(PASSES.values()),
                "passes_by_template": dict(PASSES),
            }
        )
    )
    ranked = sorted(TIMES.items(), key=lambda kv: -kv[1][1])[: args.top]
    for label, (calls, seconds, disk) in ranked:
        print(f"{seconds:8.1f} s {int(calls):4d} calls  disk {disk / 2**30:6.2f} GiB  {label}")


if __name__ == "__main__":
    main()
