"""Split rendered SQL text into its statements, without a SQL parser.

An engine that speaks the template dialect runs each rendered statement as written, so the one
thing to know about the text is where a statement ends: at a ``;`` outside a quoted literal, a
quoted identifier and a comment. The lexical rules are the template dialect's as sqlglot's
tokenizer reads them (``'...'`` with ``''``, ``"..."`` with ``""``, ``--`` to the end of the
line, ``/* ... */`` nested); ``tests/engines/test_lexical.py`` holds this scanner to that
tokenizer on random texts built from hostile names and values. Templates use no dollar-quoted
or escape (``E'...'``) strings, and the quoting helper never writes them.
"""

from __future__ import annotations


class UnterminatedError(ValueError):
    """A quoted literal, quoted identifier or block comment runs to the end of the text."""


def split_statements(text: str) -> tuple[str, ...]:
    """The statements of ``text`` as written, each stripped; pieces holding only blanks and
    comments are not statements."""
    statements: list[str] = []
    start, has_token, i, n = 0, False, 0, len(text)
    while i < n:
        char = text[i]
        if char == "'" or char == '"':
            i, has_token = _after_quoted(text, i, char), True
        elif text.startswith("--", i):
            line_end = text.find("\n", i)
            i = n if line_end < 0 else line_end + 1
        elif text.startswith("/*", i):
            i = _after_comment(text, i)
        elif char == ";":
            if has_token:
                statements.append(text[start:i].strip())
            start, has_token, i = i + 1, False, i + 1
        else:
            has_token = has_token or not char.isspace()
            i += 1
    if has_token:
        statements.append(text[start:].strip())
    return tuple(statements)


def _after_quoted(text: str, i: int, quote: str) -> int:
    """The index after the quoted literal or identifier opening at ``i`` (doubled quotes stay
    inside it)."""
    j = i + 1
    while True:
        j = text.find(quote, j)
        if j < 0:
            raise UnterminatedError(f"a {quote}-quoted part opened at offset {i} is not closed")
        if text.startswith(quote, j + 1):
            j += 2
            continue
        return j + 1


def _after_comment(text: str, i: int) -> int:
    """The index after the (possibly nested) block comment opening at ``i``."""
    depth, j = 1, i + 2
    while depth:
        opening, closing = text.find("/*", j), text.find("*/", j)
        if closing < 0:
            raise UnterminatedError(f"a comment opened at offset {i} is not closed")
        if 0 <= opening < closing:
            depth, j = depth + 1, opening + 2
        else:
            depth, j = depth - 1, closing + 2
    return j
