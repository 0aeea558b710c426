"""SIGINT and SIGTERM: a run ends the way it says it ended.

While :func:`handled` is active (every command of the CLI; :func:`anonsql.pipeline.run` in the
main thread), both signals are handled here:

* **While an engine runs a statement**, the handler asks the database to stop it
  (:meth:`Engine.interrupt_running`: psycopg's cancel, DuckDB's ``interrupt()``) and returns;
  the engine raises ``KeyboardInterrupt`` once the statement has failed (or returned), with its
  connection in a known state. Raising inside the driver instead was swallowed when it landed in
  psycopg's notice callback (the run went on and published), left the connection in the middle
  of the protocol so that the rollback and the working schema's drop failed, and reached DuckDB
  while it scanned Python data, which reported it as a statement error (exit 5).
* **Inside a deferred section** (:meth:`Interrupts.deferred`: the swap's commit and the
  bookkeeping that records it, the cleanup after a failure) the signal waits until the section
  ends, so the release is committed and recorded as published, or neither.
* **Elsewhere** it raises ``KeyboardInterrupt`` at once, as Python's own handler does.
* **Once a command has settled its outcome** (:attr:`Interrupts.settled`), later signals are
  ignored: the exit code and message are the ones it reported.

The message then says what is true (:meth:`Interrupts.interrupted`): that the release was
published and certified (a signal after the commit), or that nothing was published.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import TYPE_CHECKING, TypeVar

from anonsql.errors import InterruptedRun

if TYPE_CHECKING:
    from anonsql.engines.base import Engine

#: The signals a run handles.
SIGNALS = (signal.SIGINT, signal.SIGTERM)

T = TypeVar("T")


@dataclass(frozen=True)
class Published:
    """A release whose swap committed during this run."""

    relation: str
    run_id: str


class Interrupts:
    """What the signals of this process did, and what was published when they came."""

    def __init__(self) -> None:
        #: The last signal received.
        self.signal: int | None = None
        #: The release this run committed (set inside the deferred commit).
        self.published: Published | None = None
        #: The outcome is reported: later signals are ignored.
        self.settled = False
        self._deferring = 0
        self._pending = False

    def handle(self, signum: int, frame: FrameType | None) -> None:
        """The signal handler (see the module's docstring)."""
        self.signal = signum
        if self.settled:
            return
        if self._deferring:
            self._pending = True
            return
        # the engines load with the first command that opens a database (`anonsql --version`
        # loads none): until then no statement runs
        engines = sys.modules.get("anonsql.engines.base")
        engine: type[Engine] | None = getattr(engines, "Engine", None)
        if engine is not None and engine.interrupt_running():
            return  # the engine raises KeyboardInterrupt when its statement ends
        raise KeyboardInterrupt

    @contextmanager
    def deferred(self) -> Iterator[None]:
        """Hold signals until the block ends; then, if one came and the block ended normally,
        raise ``KeyboardInterrupt``."""
        self._deferring += 1
        try:
            yield
        finally:
            self._deferring -= 1
        if self._pending and not self._deferring:
            self._pending = False
            raise KeyboardInterrupt

    @contextmanager
    def leaving_deferred(
        self, manager: AbstractContextManager[T], *, on_success: Callable[[], None] | None = None
    ) -> Iterator[T]:
        """Enter ``manager`` as ``with`` does, and leave it with signals deferred: its exit (a
        commit, a cleanup) runs to its end. ``on_success`` runs inside the same deferral when
        the exit succeeds after a normal block (recording a commit)."""
        value = manager.__enter__()
        try:
            yield value
        except BaseException:
            try:
                with self.deferred():
                    if not manager.__exit__(*sys.exc_info()):
                        raise
            finally:
                self._pending = False  # the run ends on the error already on its way
            return
        with self.deferred():
            manager.__exit__(None, None, None)
            if on_success is not None:
                on_success()

    def interrupted(self, unpublished: str = "nothing was published") -> InterruptedRun:
        """The error to end on after a ``KeyboardInterrupt``: it says whether this run's
        release was published (``unpublished`` says what is true otherwise)."""
        name = signal.Signals(self.signal).name if self.signal is not None else "an interrupt"
        if self.published is None:
            return InterruptedRun(f"interrupted by {name}; {unpublished}")
        return InterruptedRun(
            f"interrupted by {name} after the release was published: {self.published.relation} "
            f"is verified and certified (run {self.published.run_id}); only what follows "
            "publishing (the run's summary, a report) may be missing. `anonsql status` shows "
            "the release",
            published=True,
        )


_active: Interrupts | None = None


@contextmanager
def handled() -> Iterator[Interrupts]:
    """Handle SIGINT and SIGTERM as this module says while the block runs, and restore the
    previous handlers after it. Nested blocks share the outer one's :class:`Interrupts`. Outside
    the main thread (where Python allows no handler) nothing is installed."""
    global _active
    if _active is not None:
        yield _active
        return
    interrupts = Interrupts()
    if threading.current_thread() is not threading.main_thread():
        yield interrupts
        return
    previous = {s: signal.signal(s, interrupts.handle) for s in SIGNALS}
    _active = interrupts
    try:
        yield interrupts
    finally:
        _active = None
        for s, handler in previous.items():
            signal.signal(s, handler)


def handle_for_process() -> Interrupts:
    """Handle SIGINT and SIGTERM as this module says until the process exits (the command
    line's own process: a signal between a command's end and the exit is then ignored, not
    a traceback or a death by the signal after the outcome was reported)."""
    global _active
    if _active is None:
        _active = Interrupts()
        for s in SIGNALS:
            signal.signal(s, _active.handle)
    return _active


def ignore_signals() -> None:
    """Ignore SIGINT and SIGTERM from now on: the command line's outcome is reported and the
    process is exiting. (Python's finalization puts the default handlers back in place of any
    Python handler, and a signal then killed the process after it had reported its outcome;
    an ignored signal stays ignored.)"""
    for s in SIGNALS:
        signal.signal(s, signal.SIG_IGN)
