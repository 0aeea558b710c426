"""The docs tests' terminal summary (called by tests/conftest.py): how many code blocks the
pages hold, how each kind runs, and every block that does not run (``no-run``), is only
validated, or is a known failure (``xfail``), so that none goes unseen."""

from __future__ import annotations

from collections import Counter

import pytest
from doc_blocks import all_blocks


def docs_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not any("tests/docs/" in key for key in _reported(terminalreporter)):
        return
    found = all_blocks()
    kinds = Counter(b.language for b in found)
    write = terminalreporter.write_line
    terminalreporter.section("documentation code blocks")
    write(
        f"{len(found)} blocks in {len({b.page for b in found})} pages: "
        + ", ".join(f"{n} {kind}" for kind, n in kinds.most_common())
        + " (text blocks are output shown to the reader, not run)"
    )
    quoted = [b for b in found if "from" in b.options]
    write(f"{len(quoted)} quote a repository file (checked line by line; the file runs elsewhere)")
    for block in found:
        if block.skipped and block.opt_out:
            write(f"not run: {block.where} `{block.first_line}`: {block.opt_out[1]}")
        elif block.expected_failure:
            write(f"known failure: {block.where} `{block.first_line}`: {block.expected_failure}")
        elif "validate" in block.flags or "dry-run" in block.flags:
            how = "validated only" if "validate" in block.flags else "dry run"
            write(f"{how}: {block.where} `{block.first_line}`")


def _reported(reporter: pytest.TerminalReporter) -> list[str]:
    return [
        report.nodeid
        for reports in reporter.stats.values()
        for report in reports
        if hasattr(report, "nodeid")
    ]
