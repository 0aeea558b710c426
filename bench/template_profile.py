"""Engine time per SQL template of one benchmark run, to see where a run spends its time.

    python bench/template_profile.py bench/run_one.py --rows 1000000

Runs the given script (with its arguments) in this process, with every statement the engine
executes labelled by the template it was rendered from (statements rendered without a template,
such as a counted violation query, by their first characters), and prints the script's own
output, then one JSON line to stderr: ``{"total": s, "engine": s, "templates": {label: [calls,
seconds]}}``. ``bench/post_partition.py`` runs it on two source trees side by side.
"""

from __future__ import annotations

import collections
import json
import runpy
import sys
import time
from collections.abc import Callable
from typing import Any

from anonsql.engines.base import Engine
from anonsql.sql.render import SqlRenderer

#: Statement text -> the template it was rendered from.
LABELS: dict[str, str] = {}
#: Label -> [calls, seconds].
TIMES: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0])

# the profiled script runs as __main__ (runpy): it finds these tables under this name
sys.modules.setdefault("template_profile", sys.modules[__name__])


def labelled(render: Callable[..., Any]) -> Callable[..., Any]:
    """A renderer method that records, in :data:`LABELS`, the template of each statement."""

    def wrapper(self: SqlRenderer, name: str, /, **params: Any) -> Any:
        out = render(self, name, **params)
        for statement in [out] if isinstance(out, str) else out:
            LABELS[statement] = name
        return out

    return wrapper


def _timed(method: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(self: Engine, sql: str, *args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return method(self, sql, *args, **kwargs)
        finally:
            entry = TIMES[LABELS.get(sql, " ".join(sql.split())[:60])]
            entry[0] += 1
            entry[1] += time.perf_counter() - start

    return wrapper


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit("usage: template_profile.py SCRIPT [ARGS...]")
    SqlRenderer.render_many = labelled(SqlRenderer.render_many)  # type: ignore[method-assign]
    SqlRenderer.render = labelled(SqlRenderer.render)  # type: ignore[method-assign]
    for name in ("execute", "fetchall", "fetch_arrow"):
        setattr(Engine, name, _timed(getattr(Engine, name)))
    started = time.perf_counter()
    sys.argv = sys.argv[1:]
    try:
        runpy.run_path(sys.argv[0], run_name="__main__")
    finally:
        templates = {k: [int(v[0]), round(v[1], 3)] for k, v in TIMES.items()}
        summary = {
            "total": round(time.perf_counter() - started, 2),
            "engine": round(sum(v[1] for v in TIMES.values()), 2),
            "templates": templates,
        }
        print(json.dumps(summary), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
