"""k-map against a population table beside k-anonymity, both by ``algorithm: full_domain``.

The sample is every ``--every``-th row of ARX's Adult (ARX's hierarchies, ``--qids`` of its
columns), the population the whole of Adult (one row per person). The same k, suppression limit
and objective (entropy) are run through the whole pipeline (``anonsql.api.run``: prepare, search,
publish, verify, measure) on an in-memory DuckDB, alternating the two models ``--repeat`` times;
prints a Markdown table of the median seconds, their ratio, the chosen nodes, the loss and the
suppressed rows.

    python bench/full_domain_kmap.py [--k 5] [--limit 0.0] [--every 10] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ADULT = ROOT / "datasets" / "adult-arx" / "adult.csv.gz"
HIERARCHIES = ROOT / "hierarchies" / "adult-arx"
QIDS = ["age", "sex", "race", "marital-status", "education", "native-country"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--limit", type=float, default=0.0)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--qids", nargs="+", default=QIDS)
    args = parser.parse_args()

    import pyarrow as pa
    import pyarrow.csv as pa_csv

    from anonsql import api
    from anonsql.engines import DuckDBEngine
    from anonsql.sql import TableName

    data = pa_csv.read_csv(
        ADULT,
        parse_options=pa_csv.ParseOptions(delimiter=";"),
        convert_options=pa_csv.ConvertOptions(column_types={"age": "string"}),
    ).select(args.qids)
    sample = data.take(pa.array(range(0, data.num_rows, args.every)))
    engine = DuckDBEngine(":memory:", threads=2)
    engine.load_arrow(TableName("sample", "main"), sample)
    engine.load_arrow(TableName("population", "main"), data)

    def spec(model: dict[str, Any]) -> dict[str, Any]:
        return {
            "source": "main.sample",
            "output": {"schema": "anon", "name": "out"},
            "columns": {
                c: {"role": "quasi_identifier", "hierarchy": str(HIERARCHIES / f"{c}.csv")}
                for c in args.qids
            },
            "privacy": [model],
            "suppression_limit": args.limit,
            "algorithm": {"full_domain": {"objective": "entropy"}},
        }

    models = {
        "k_anonymity": {"k_anonymity": {"k": args.k}},
        "k_map": {"k_map": {"k": args.k, "population": "main.population"}},
    }
    seconds: dict[str, list[float]] = {name: [] for name in models}
    facts: dict[str, dict[str, Any]] = {}
    for _ in range(args.repeat):
        for name, model in models.items():
            start = time.perf_counter()
            result = api.run(spec(model), engine=engine)
            seconds[name].append(time.perf_counter() - start)
            assert result.certificate["verified"]
            search = json.loads(result.certificate["search"])
            facts[name] = {
                "node": tuple(search["node"].values()),
                "loss": search["objective"]["value"],
                "suppressed": result.certificate["suppressed_rows"],
                "checked": search["statistics"]["checked"],
            }
    engine.close()
    base = statistics.median(seconds["k_anonymity"])
    print(
        f"sample {sample.num_rows} rows (every {args.every}th of Adult), population "
        f"{data.num_rows} rows, QIDs {', '.join(args.qids)}, k = {args.k}, "
        f"suppression limit {args.limit}, median of {args.repeat}\n"
    )
    print("| model | node | loss (entropy) | suppressed rows | nodes checked | run (s) | ratio |")
    print("|---|---|---|---|---|---|---|")
    for name in models:
        f, median = facts[name], statistics.median(seconds[name])
        print(
            f"| {name} | {f['node']} | {f['loss']:.1f} | {f['suppressed']} | {f['checked']} | "
            f"{median:.2f} | {median / base:.2f} |"
        )


if __name__ == "__main__":
    main()
