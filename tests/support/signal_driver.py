"""Run the command line with a signal sent to itself at a chosen moment of a run (the tests of
tests/pipeline/test_signals.py)::

    python tests/support/signal_driver.py MOMENT SIGNAL [anonsql arguments...]

MOMENT is one of

* ``none``: no signal from inside (the test sends one from outside);
* ``before:<module>:<function>``: as ``<module>.<function>`` (a name the run looks up at call
  time, or ``Class.method``) is called, before it runs;
* ``after:<module>:<function>``: as it returns;
* ``statement:<regex>``: as the first statement matching ``regex`` is about to run;

optionally followed by ``+<seconds>``: the signal is then sent by a timer thread that many
seconds later (so that it lands while the database runs a statement), not at once.
"""

from __future__ import annotations

import functools
import importlib
import os
import re
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

# the anonsql of this checkout, as `python -m anonsql` run from its root imports it
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def send(signum: int, delay: float) -> None:
    if delay <= 0:
        signal.raise_signal(signum)
        return
    timer = threading.Timer(delay, os.kill, (os.getpid(), signum))
    timer.daemon = True  # a run that ends first is not held up by it
    timer.start()


def hook_function(where: str, target: str, signum: int, delay: float) -> None:
    module_name, path = target.split(":")
    owner: Any = importlib.import_module(module_name)
    *owners, name = path.split(".")
    for attribute in owners:  # a method: Class.method
        owner = getattr(owner, attribute)
    original: Callable[..., Any] = getattr(owner, name)
    fired = False

    @functools.wraps(original)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        nonlocal fired
        if where == "before" and not fired:
            fired = True
            send(signum, delay)
        found = original(*args, **kwargs)
        if where == "after" and not fired:
            fired = True
            send(signum, delay)
        return found

    setattr(owner, name, wrapped)


def hook_statement(pattern: str, signum: int, delay: float) -> None:
    from anonsql.engines.base import Engine

    wanted = re.compile(pattern, re.IGNORECASE)
    fired = False
    original_init = Engine.__init__

    def listen(sql: str) -> None:
        nonlocal fired
        if not fired and wanted.search(sql):
            fired = True
            send(signum, delay)

    def init(self: Engine) -> None:
        original_init(self)
        self.listeners.append(listen)

    Engine.__init__ = init  # type: ignore[method-assign]


def main() -> None:
    moment, signame, *args = sys.argv[1:]
    signum = int(signal.Signals[signame])
    delay = 0.0
    if "+" in moment:
        moment, after = moment.rsplit("+", 1)
        delay = float(after)
    kind, _, target = moment.partition(":")
    if kind in ("before", "after"):
        hook_function(kind, target, signum, delay)
    elif kind == "statement":
        hook_statement(target, signum, delay)
    from anonsql.cli import main as cli

    sys.argv = ["anonsql", *args]
    cli()


if __name__ == "__main__":
    main()
