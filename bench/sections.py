"""Replace one generated section of BENCHMARKS.md, leaving every other section as it is.

Each benchmark script owns the text between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->``;
a section not in the file yet is appended under ``heading``.
"""

from __future__ import annotations

from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "BENCHMARKS.md"


def markers(name: str) -> tuple[str, str]:
    return f"<!-- {name}:begin -->", f"<!-- {name}:end -->"


def replace_section(name: str, text: str, heading: str, path: Path = BENCHMARKS) -> None:
    """Write ``text`` (without markers) as section ``name`` of ``path``."""
    begin, end = markers(name)
    block = f"{begin}\n{text.strip(chr(10))}\n{end}"
    current = path.read_text(encoding="utf-8") if path.exists() else ""
    if begin in current and end in current:
        head, rest = current.split(begin, 1)
        current = head + block + rest.split(end, 1)[1]
    else:
        current = current.rstrip("\n") + f"\n\n{heading}\n\n{block}\n"
    path.write_text(current if current.endswith("\n") else current + "\n", encoding="utf-8")
