"""Runs of a source file's lines that become definition chunks: merged while small,
split while long, and rendered as entry texts with a header naming what they hold."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache

from engine.analyzer.comments import unmarked
from engine.analyzer.model import DiscoveryDraft
from engine.core.fences import fence_for

MIN_WORDS = 3
"""A chunk with fewer words than this (``}\\n}``) is merged with its neighbour or dropped."""
MAX_TITLE_NAMES = 6
"""Most names shown in a merged chunk's title (past it, five and a count); the header
names them all."""
TEXT_SHARE = 0.5
"""A definition with at least this share of its characters in comments and string
literals is text (:attr:`Piece.text`): most of it says what the program tells its users."""
TEXT_CHUNK_CHARS = 8_000
"""Parts of a text definition: read whole like a page, so that one declaration of many
documented options (or one long help text) is a few entries, not one per option that each
outranks the code implementing it (the largest size :mod:`engine.analyzer.definitions`
cuts a file to)."""
_WORD = re.compile(r"[^\W\d_]{2,}")
_PATHS = re.compile(r"[A-Za-z_$][\w$]*(?:::[A-Za-z_$][\w$]*)*")
"""An identifier, or a path of them (``std::fmt::Debug``)."""
_IDENTIFIER_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
"""The words of an identifier: ``parseHTTPHeader`` → parse, HTTP, Header."""
_HUMP = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]")
"""Where an identifier's case starts a new word."""
MAX_KEYWORDS = 10
_DOCSTRING_QUOTES = re.compile(r'\A\s*[rRuU]?(?:"""|\'\'\')|(?:"""|\'\'\')\s*\Z')
"""A Python docstring's opening and closing quotes (``r\"\"\"``), around a module's
documentation."""


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of lines of one file that belongs to one definition (or a merged few)."""

    names: tuple[str, ...]
    start: int
    """1-based first line."""
    end: int
    """1-based last line, inclusive."""
    alone: bool = False
    """Never merged with its neighbours (a file's documentation)."""
    after_break: bool = False
    """Never merged with the piece before it (code left out lies between them)."""
    text: bool = False
    """Mostly text for people (a struct of documented options, a function returning a
    help page): cut into parts of :data:`TEXT_CHUNK_CHARS`, not along its members."""
    doc: bool = False
    """The file's documentation written in comments (a module's doc comment, a run of
    them between definitions): read as the markdown doc comments are written in, cut
    along its headings, each part titled by them (:func:`render`)."""
    docstring: bool = False
    """The documentation is a string literal (a Python module's docstring): its lines as
    written, its quotes removed; else comments, their markers removed."""


def size(lines: list[str], start: int, end: int) -> int:
    """Characters of lines ``start``..``end`` (1-based, inclusive), line breaks counted."""
    return sum(len(line) + 1 for line in lines[start - 1 : end])


def words(lines: list[str], start: int, end: int) -> int:
    """Words (two letters or more) in lines ``start``..``end``."""
    return sum(_line_words(line) for line in lines[start - 1 : end])


@lru_cache(maxsize=65_536)
def _line_words(line: str) -> int:
    return len(_WORD.findall(line))


def reaches(lines: list[str], start: int, end: int, chars: int) -> bool:
    """Whether lines ``start``..``end`` hold at least ``chars`` characters (line breaks
    counted): :func:`size` read only as far as it takes, for a merge's many questions about
    a growing run of lines."""
    total = 0
    for index in range(start - 1, min(end, len(lines))):
        total += len(lines[index]) + 1
        if total >= chars:
            return True
    return total >= chars


def has_words(lines: list[str], start: int, end: int, count: int = MIN_WORDS) -> bool:
    """Whether lines ``start``..``end`` say at least ``count`` words: :func:`words` read
    only as far as it takes."""
    total = 0
    for index in range(start - 1, min(end, len(lines))):
        total += _line_words(lines[index])
        if total >= count:
            return True
    return total >= count


def merge(pieces: list[Piece], lines: list[str], low: int, high: int) -> Iterator[Piece]:
    """Consecutive pieces joined while one of them is under ``low`` characters (or has
    fewer than :data:`MIN_WORDS` words) and together they fit in ``high``."""
    pending: Piece | None = None
    for piece in pieces:
        if pending is None:
            pending = piece
            continue
        small = _small(pending, lines, low) or _small(piece, lines, low)
        apart = pending.alone or piece.alone or piece.after_break
        if small and not apart and not reaches(lines, pending.start, piece.end, high + 1):
            pending = Piece(pending.names + piece.names, pending.start, piece.end)
        else:
            yield pending
            pending = piece
    if pending is not None:
        yield pending


def _small(piece: Piece, lines: list[str], low: int) -> bool:
    return not reaches(lines, piece.start, piece.end, low) or not has_words(
        lines, piece.start, piece.end
    )


def wordful(pieces: list[Piece], lines: list[str]) -> list[Piece]:
    """The pieces with words: one with fewer than :data:`MIN_WORDS` joins the piece just
    before it when nothing but blank lines lies between, else it is dropped."""
    out: list[Piece] = []
    for piece in pieces:
        if has_words(lines, piece.start, piece.end):
            out.append(piece)
        elif out and not any(line.strip() for line in lines[out[-1].end : piece.start - 1]):
            out[-1] = replace(out[-1], end=piece.end)
    return out


def render(
    rel: str, language: str, piece: Piece, lines: list[str], high: int
) -> list[DiscoveryDraft]:
    """One draft per piece, or numbered parts of a long body (each under ``high``
    characters; a last part without words stays with the one before)."""
    names = list(dict.fromkeys(n for n in piece.names if n))
    if piece.doc:
        return _documentation(rel, language, piece, lines, ", ".join(names), high)
    shown = ", ".join(names) or f"lines {piece.start}-{piece.end}"
    if len(names) > MAX_TITLE_NAMES:
        first = names[: MAX_TITLE_NAMES - 1]
        shown = ", ".join(first) + f" and {len(names) - len(first)} more"
    listed = ", ".join(names) or shown
    parts = _parts(piece, lines, max(high, TEXT_CHUNK_CHARS) if piece.text else high)
    drafts = []
    for i, (a, b) in enumerate(parts, start=1):
        body = "\n".join(line[:400] for line in lines[a - 1 : b]).strip("\n")
        if not body.strip():
            continue
        part = f" (part {i} of {len(parts)})" if len(parts) > 1 else ""
        header = f"{language} code: {listed}{part} in {rel}, lines {a}-{b}"
        fence = fence_for(body)
        drafts.append(
            DiscoveryDraft(
                content=f"{header}\n{fence}{_fence_language(language)}\n{body}\n{fence}",
                section_title=f"{shown}{part}",
                file_path=rel,
                keywords=_keywords(names),
                line_start=a,
                line_end=b,
            )
        )
    return drafts


def _documentation(
    rel: str, language: str, piece: Piece, lines: list[str], named: str, high: int
) -> list[DiscoveryDraft]:
    """A piece of documentation comments read as documentation: the comments' markers
    removed, the markdown they hold cut by the documentation chunker along its headings
    (:func:`engine.markdown.chunking.chunk_markdown`), each part titled by its heading
    path under the piece's name (or ``Documentation of <file>``), not fenced as code."""
    # Imported here: the prompt hook's classify_path needs no markdown reader.
    from engine.markdown.chunking import MIN_PROSE_CHARS, chunk_markdown

    region = lines[piece.start - 1 : piece.end]
    if piece.docstring:
        text = _DOCSTRING_QUOTES.sub("", "\n".join(region))
    else:
        text = "\n".join(unmarked(line) for line in region)
    title = named or f"Documentation of {rel}"
    drafts = []
    for chunk in chunk_markdown(text, high, min_prose=MIN_PROSE_CHARS, page_title=title):
        a, b = piece.start + chunk.line_start - 1, piece.start + chunk.line_end - 1
        drafts.append(
            DiscoveryDraft(
                content=f"{language} documentation in {rel}, lines {a}-{b}\n{chunk.content}",
                section_title=chunk.title or title,
                file_path=rel,
                keywords=(),
                line_start=a,
                line_end=b,
            )
        )
    return drafts


def _parts(piece: Piece, lines: list[str], high: int) -> list[tuple[int, int]]:
    parts: list[tuple[int, int]] = []
    begin, total = piece.start, 0
    for number in range(piece.start, piece.end + 1):
        width = len(lines[number - 1]) + 1
        if total and total + width > high:
            parts.append((begin, number - 1))
            begin, total = number, 0
        total += width
    parts.append((begin, piece.end))
    joined: list[tuple[int, int]] = []
    for a, b in parts:  # a part without words (closing braces), or a last few lines,
        # joins the one before, as long as the two stay within a last part's slack (a
        # table of numbers is many parts without words: joined, one entry of them all)
        last = b == piece.end and size(lines, a, b) < high // 8
        fits = joined and size(lines, joined[-1][0], b) <= high + high // 8
        if fits and (last or words(lines, a, b) < MIN_WORDS):
            joined[-1] = (joined[-1][0], b)
        else:
            joined.append((a, b))
    return joined


def _keywords(names: list[str]) -> tuple[str, ...]:
    """The last part of each name (``Engine.run`` → ``run``; ``Hidden (Flag)`` → both; a
    trait's path by its last part, ``std::fmt::Debug`` → ``Debug``), then the words of
    those written as one identifier (``StateMachine`` → ``state machine``), which the
    keyword index reads as one word: a question asks for the words."""
    found: list[str] = []
    for name in names:
        head, _, trait = name.partition(" (")
        if " " not in head:  # not a title such as "Module documentation of x.rs"
            found.append(head.rpartition(".")[2])
            found += [t.rpartition("::")[2] for t in _PATHS.findall(trait)]
    named = list(dict.fromkeys(k for k in found if k))[:MAX_KEYWORDS]
    spelled = [w for w in map(identifier_words, named) if w and w not in named]
    return tuple(dict.fromkeys(named + spelled))[:MAX_KEYWORDS]


def identifier_words(identifier: str) -> str:
    """The words of an identifier that joins them by case (``StateMachine``,
    ``parseHTTPHeader``), lower-cased and spaced; "" for one word, or words the keyword
    index already reads apart (``read_config``)."""
    if not _HUMP.search(identifier):
        return ""
    return " ".join(p.lower() for p in _IDENTIFIER_PART.findall(identifier))


def _fence_language(language: str) -> str:
    """The info string of the code fence around a chunk, so previews render it as code."""
    return {"C++": "cpp", "C#": "csharp", "Shell": "sh"}.get(language, language.lower())
