"""Independent re-verification of published outputs: pandas recomputation and pycanon.

pycanon pins exact versions of numpy, pandas and typing_extensions that conflict with
anonsql's own dependencies, so it runs in its own virtual environment: the interpreter named
by ``ANONSQL_PYCANON_PYTHON``, else ``.venv-pycanon/bin/python`` at the repository root (the
README's test command and ``.ci/run`` create it).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pandas as pd
from paths import ROOT

_PYCANON_SCRIPT = """
import json, sys
import pandas as pd
from pycanon import anonymity
args = json.loads(sys.argv[1])
df = pd.read_parquet(args["path"])
out = {"k": int(anonymity.k_anonymity(df, args["qids"]))}
if args.get("sa"):
    out["l"] = int(anonymity.l_diversity(df, args["qids"], [args["sa"]]))
    if args.get("alpha"):
        out["alpha"] = float(anonymity.alpha_k_anonymity(df, args["qids"], [args["sa"]])[0])
print(json.dumps(out))
"""


def pycanon_python() -> str:
    configured = os.environ.get("ANONSQL_PYCANON_PYTHON")
    if configured:
        return configured
    local = ROOT / ".venv-pycanon" / "bin" / "python"
    if local.exists():
        return str(local)
    raise RuntimeError(
        "pycanon's environment is missing: run `python3 -m venv .venv-pycanon && "
        ".venv-pycanon/bin/pip install pycanon` or set ANONSQL_PYCANON_PYTHON"
    )


def pycanon_measure(
    frame: pd.DataFrame, qids: list[str], sa: str | None, tmp: Path
) -> dict[str, int]:
    """k (and l for ``sa``) of a published relation, as pycanon computes them."""
    path = tmp / "published.parquet"
    frame.astype(str).to_parquet(path)
    args = json.dumps({"path": str(path), "qids": qids, "sa": sa})
    done = subprocess.run(
        [pycanon_python(), "-c", _PYCANON_SCRIPT, args], capture_output=True, text=True, check=True
    )
    return {k: int(v) for k, v in json.loads(done.stdout.strip().splitlines()[-1]).items()}


def pycanon_alpha(frame: pd.DataFrame, qids: list[str], sa: str, tmp: Path) -> float:
    """The largest share of one value of ``sa`` in a class (the alpha of pycanon's
    (alpha, k)-anonymity): frequency l-diversity holds iff it is at most ``1/l``."""
    path = tmp / "published.parquet"
    frame.astype(str).to_parquet(path)
    args = json.dumps({"path": str(path), "qids": qids, "sa": sa, "alpha": True})
    done = subprocess.run(
        [pycanon_python(), "-c", _PYCANON_SCRIPT, args], capture_output=True, text=True, check=True
    )
    return float(json.loads(done.stdout.strip().splitlines()[-1])["alpha"])


def class_sizes(frame: pd.DataFrame, qids: list[str]) -> pd.Series:
    return frame.groupby(qids, dropna=False).size()


def distinct_sensitive(frame: pd.DataFrame, qids: list[str], sa: str) -> pd.Series:
    return frame.groupby(qids, dropna=False)[sa].nunique(dropna=False)


def top_share(frame: pd.DataFrame, qids: list[str], sa: str) -> pd.Series:
    """Per class, the share of its most frequent value of ``sa`` (NULL counts as a value)."""
    counts = frame.groupby([*qids, sa], dropna=False).size()
    top = counts.groupby(level=list(range(len(qids))), dropna=False).max()
    return top / class_sizes(frame, qids)
