"""The fenced code blocks of the documentation, as tests/docs runs them.

Pages: README.md, CONTRIBUTING.md and docs/**/*.md. A fenced block's info string is its
language, then optional words that tell the docs test how to run it (GitHub shows only the
language)::

    ```sh                          run in the page's working folder
    ```sh exit=6                   ... and expect exit code 6
    ```yaml                        a spec: written to a file and run (`anonsql run`)
    ```yaml file=adult.yaml        ... written to that file (relative to the working folder)
    ```yaml merge=adult.yaml       a fragment: merged into that spec, and the result run
    ```yaml dry-run                a spec checked against its database (`anonsql run --dry-run`)
    ```yaml validate               a spec validated without a database (needs a server)
    ```yaml write                  only written (a later block runs it)
    ```yaml from=examples/x.yaml   quoted from a repository file (its lines, in order); any language
    ```sql db=adult.duckdb         run on that DuckDB file (default: the working folder's newest)
    ```sql engine=postgres         run on the page's PostgreSQL database
    ```sql exit=1 expect=denied    must fail (SQL: exit 1), its output holding "denied"
    ```sh no-run: REASON           not run, and listed by the test (keep these rare)
    ```sh xfail: REASON            a known failure: must fail (a bug, reported), strict

A spec block whose first line is a comment naming a YAML file (``# adult.yaml``) is written
to that file. A page may start with ``<!-- docs-test: slow postgres dbt -->``: ``slow`` marks
its test slow, ``postgres`` gives it a fresh database on the tests' PostgreSQL server (through
the PG* environment variables), ``dbt`` skips it where dbt is not installed (a failure where
``make test`` installed it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from paths import ROOT

#: Languages and what runs them.
SHELL = frozenset({"sh", "bash", "shell"})
LANGUAGES = SHELL | {"console", "python", "yaml", "sql", "toml", "text"}
#: Words of an info string without a value.
FLAGS = frozenset({"dry-run", "validate", "write"})
#: Words of an info string with a value (``key=value``).
KEYS = frozenset({"file", "merge", "from", "db", "engine", "exit", "expect"})
#: Words a page's ``docs-test`` comment may hold.
PAGE_WORDS = frozenset({"slow", "postgres", "dbt"})

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_DIRECTIVE = re.compile(r"<!--\s*docs-test:(?P<words>[^>]*)-->")
_FILE_COMMENT = re.compile(r"^#\s*(?P<path>[\w./-]+\.ya?ml)\s*$")


def pages() -> list[Path]:
    """Every documentation page, README first, as paths relative to the checkout."""
    found = [Path("README.md"), Path("CONTRIBUTING.md")]
    found += sorted(p.relative_to(ROOT) for p in (ROOT / "docs").rglob("*.md"))
    return [p for p in found if (ROOT / p).is_file()]


@dataclass
class Block:
    page: Path
    #: Line of the opening fence (1-based).
    line: int
    language: str
    text: str
    options: dict[str, str] = field(default_factory=dict)
    flags: frozenset[str] = frozenset()
    #: ``no-run`` or ``xfail`` with its reason, if any.
    opt_out: tuple[str, str] | None = None

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def first_line(self) -> str:
        return next((line.strip() for line in self.text.splitlines() if line.strip()), "")

    @property
    def skipped(self) -> bool:
        return self.opt_out is not None and self.opt_out[0] == "no-run"

    @property
    def expected_failure(self) -> str | None:
        return self.opt_out[1] if self.opt_out and self.opt_out[0] == "xfail" else None

    def file_comment(self) -> str | None:
        """``adult.yaml`` when the block starts with the comment ``# adult.yaml``."""
        lines = self.text.splitlines()
        match = _FILE_COMMENT.match(lines[0].strip()) if lines else None
        return match["path"] if match else None


class BadBlock(ValueError):
    """A block the docs test cannot run as declared."""


def parse_info(
    info: str, where: str
) -> tuple[str, dict[str, str], frozenset[str], tuple[str, str] | None]:
    """(language, options, flags, opt-out) of an info string."""
    words = info.strip()
    opt_out: tuple[str, str] | None = None
    for marker in ("no-run:", "xfail:"):
        head, sep, reason = words.partition(marker)
        if sep:
            if not reason.strip():
                raise BadBlock(f"{where}: `{marker}` needs a reason")
            opt_out = (marker[:-1], reason.strip())
            words = head.strip()
            break
    tokens = words.split()
    if not tokens:
        raise BadBlock(f"{where}: a fenced block names its language (one of {sorted(LANGUAGES)})")
    language, rest = tokens[0], tokens[1:]
    if language not in LANGUAGES:
        raise BadBlock(f"{where}: unknown language {language!r} (one of {sorted(LANGUAGES)})")
    options: dict[str, str] = {}
    flags: set[str] = set()
    for token in rest:
        key, sep, value = token.partition("=")
        if sep and key in KEYS and value:
            options[key] = value
        elif not sep and token in FLAGS:
            flags.add(token)
        else:
            raise BadBlock(f"{where}: unknown word {token!r} in the info string")
    return language, options, frozenset(flags), opt_out


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of a page (relative to the checkout), in order."""
    lines = (ROOT / page).read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence, info = match["indent"], match["fence"], match["info"]
        where = f"{page}:{i + 1}"
        body: list[str] = []
        j = i + 1
        while j < len(lines):
            closing = lines[j].strip()
            if closing.startswith(fence[0] * len(fence)) and not closing.strip(fence[0]):
                break
            body.append(lines[j][len(indent) :] if lines[j].startswith(indent) else lines[j])
            j += 1
        else:
            raise BadBlock(f"{where}: the fenced block is not closed")
        language, options, flags, opt_out = parse_info(info, where)
        text = "\n".join(body) + "\n"
        found.append(Block(page, i + 1, language, text, options, flags, opt_out))
        i = j + 1
    return found


def page_words(page: Path) -> frozenset[str]:
    """The words of the page's ``<!-- docs-test: ... -->`` comment."""
    match = _DIRECTIVE.search((ROOT / page).read_text(encoding="utf-8"))
    words = frozenset(match["words"].split()) if match else frozenset()
    unknown = words - PAGE_WORDS
    if unknown:
        raise BadBlock(f"{page}: unknown docs-test words {sorted(unknown)}")
    return words


def all_blocks() -> list[Block]:
    return [b for page in pages() for b in blocks(page)]
