"""The command line's log on stderr (``-v``, ``--log-level``): SQL with its values redacted,
through rich on a terminal, and as plain SQL when stderr is piped or redirected, each statement
whole and ended by ``;`` under a ``-- anonsql.sql`` comment, so that it can be pasted into a
SQL shell (rich would wrap it at the console's width, 80 columns off a terminal)."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

#: The logger of every statement an engine runs (:meth:`anonsql.engines.base.Engine.notify`).
SQL_LOGGER = "anonsql.sql"


class RedactValues(logging.Filter):
    """SQL reaches the log with its string and numeric literals hidden."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == SQL_LOGGER:
            from anonsql.engines.base import redact_values

            record.msg, record.args = redact_values(record.getMessage()), ()
        return True


class PlainFormatter(logging.Formatter):
    """A statement as pasteable SQL; any other record as ``LEVEL logger: message``."""

    def format(self, record: logging.LogRecord) -> str:
        if record.name == SQL_LOGGER:
            return f"-- {SQL_LOGGER}\n{record.getMessage().rstrip().rstrip(';')};"
        return f"{record.levelname} {record.name}: {record.getMessage()}"


class HandlerOnFirstRecord(logging.Handler):
    """The handler, made when the first record arrives (most runs log nothing): rich's on a
    terminal, plain lines otherwise."""

    def __init__(self, console: Callable[[], Console]) -> None:
        super().__init__()
        self.addFilter(RedactValues())
        self._console = console
        self._handler: logging.Handler | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if self._handler is None:
            self._handler = self._make()
        self._handler.emit(record)

    def _make(self) -> logging.Handler:
        console = self._console()
        if not console.is_terminal:
            plain = logging.StreamHandler(sys.stderr)
            plain.setFormatter(PlainFormatter())
            return plain
        from rich.logging import RichHandler

        rich = RichHandler(console=console, show_path=False, markup=False, rich_tracebacks=False)
        rich.setFormatter(logging.Formatter("%(name)s: %(message)s"))
        return rich


def configure_logging(level: str, console: Callable[[], Console]) -> None:
    """Send the records of the ``anonsql`` loggers at ``level`` and above to stderr
    (``console``: the stderr console, made on first use)."""
    root = logging.getLogger("anonsql")
    root.handlers = [HandlerOnFirstRecord(console)]
    root.setLevel(level.upper())
    root.propagate = False
