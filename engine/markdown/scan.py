"""Linear-time scanners for the inline pieces of markdown the parser looks at.

Code spans, HTML comments, ``<!-- name: value -->`` directives and MDX's import, export and
JSX lines. Each scanner moves forward through the text with ``str.find`` and never comes
back, so hostile input (thousands of unclosed ``<!--`` or backtick runs) costs time in
proportion to its length; the regular expressions these replace backtracked quadratically.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

COMMENT_OPEN, COMMENT_CLOSE = "<!--", "-->"
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


@dataclass(frozen=True, slots=True)
class Directive:
    """A comment shaped like ``<!-- name -->`` or ``<!-- name: value -->``."""

    start: int
    end: int
    name: str
    value: str | None


def blank_code_spans(line: str) -> str:
    """``line`` with every inline code span replaced by spaces of the same length.

    A span opens with a run of backticks and closes at the next run of exactly the same
    length (CommonMark); a run that is never closed stays as written.
    """
    runs: list[tuple[int, int]] = []
    index = line.find("`")
    while index != -1:
        end = index
        while end < len(line) and line[end] == "`":
            end += 1
        runs.append((index, end))
        index = line.find("`", end)
    # For each run, the next run of the same length, found in one backward pass.
    following: list[int | None] = [None] * len(runs)
    seen: dict[int, int] = {}
    for position in range(len(runs) - 1, -1, -1):
        length = runs[position][1] - runs[position][0]
        following[position] = seen.get(length)
        seen[length] = position
    pieces: list[str] = []
    done, position = 0, 0
    while position < len(runs):
        partner = following[position]
        if partner is None:
            position += 1
            continue
        start, end = runs[position][0], runs[partner][1]
        pieces += [line[done:start], " " * (end - start)]
        done, position = end, partner + 1
    pieces.append(line[done:])
    return "".join(pieces)


def directives(line: str) -> list[Directive]:
    """The comments in ``line`` whose text is a name, optionally followed by ``: value``."""
    found: list[Directive] = []
    start = line.find(COMMENT_OPEN)
    while start != -1:
        close = line.find(COMMENT_CLOSE, start + len(COMMENT_OPEN))
        if close == -1:
            break  # nothing after this point can close a comment
        end = close + len(COMMENT_CLOSE)
        directive = _directive(line[start + len(COMMENT_OPEN) : close], start, end)
        if directive is not None:
            found.append(directive)
        start = line.find(COMMENT_OPEN, end)
    return found


def _directive(inner: str, start: int, end: int) -> Directive | None:
    text = inner.strip()
    if not text or not text[0].isascii() or not text[0].isalpha():
        return None
    length = 1
    while length < len(text) and text[length] in _NAME_CHARS:
        length += 1
    name, rest = text[:length], text[length:].lstrip()
    if not rest:
        return Directive(start, end, name, None)
    if rest[0] != ":":
        return None  # prose such as ``<!-- keywords are nice -->``
    return Directive(start, end, name, rest[1:].strip())


def comment_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every closed HTML comment in ``text``, in order."""
    spans: list[tuple[int, int]] = []
    start = text.find(COMMENT_OPEN)
    while start != -1:
        close = text.find(COMMENT_CLOSE, start + len(COMMENT_OPEN))
        if close == -1:
            break
        end = close + len(COMMENT_CLOSE)
        spans.append((start, end))
        start = text.find(COMMENT_OPEN, end)
    return spans


def blank_mdx(lines: Sequence[str], code: Sequence[bool]) -> list[str]:
    """MDX lines that are not markdown blanked: ESM ``import``/``export`` blocks (up to the
    next blank line), lines holding only JSX tags or ``{/* comments */}``; code is kept."""
    result = list(lines)
    in_esm = in_tag = False
    for index, line in enumerate(lines):
        stripped = line.strip()
        if code[index] or not stripped:
            in_esm = in_tag = False
            continue
        if in_esm or (not line[0].isspace() and stripped.startswith(("import ", "export "))):
            in_esm, result[index] = True, ""
        elif in_tag or _only_tags(stripped):
            in_tag = _opens_unclosed_tag(stripped, in_tag)
            result[index] = ""
    return result


def _only_tags(text: str) -> bool:
    """Whether ``text`` is nothing but JSX tags and ``{…}`` expressions (a tag may be unclosed)."""
    if not text.startswith(("<", "{")):
        return False
    if text[0] == "<" and not (text[1:2].isalpha() or text[1:2] in ("/", ">")):
        return False
    depth_angle = depth_brace = 0
    for char in text:
        if char == "<" and not depth_brace:
            depth_angle += 1
        elif char == ">" and depth_angle and not depth_brace:
            depth_angle -= 1
        elif char == "{":
            depth_brace += 1
        elif char == "}" and depth_brace:
            depth_brace -= 1
        elif not (depth_angle or depth_brace or char.isspace()):
            return False
    return True


def _opens_unclosed_tag(text: str, inside: bool) -> bool:
    """Whether a multi-line JSX tag is still open after the line ``text``."""
    opened = text.rfind("<")
    closed = text.rfind(">")
    if inside and closed == -1:
        return True
    return opened > closed
