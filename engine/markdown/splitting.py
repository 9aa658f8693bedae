"""Cutting a span of markdown into units, packing units into pieces, and the overlap prefix.

A unit is a span the packer never cuts; its ``strength`` says how good a place to cut the
boundary in front of it is (a blank line between blocks beats a line end, which beats a
sentence end, a gap between words and, last, a hard cut inside a word). Every pattern here
is a single character class repeated, so matching is linear in the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SENTENCE_END = re.compile(r"[.!?]\s+")
_WORD = re.compile(r"\S+")
_LINE = re.compile(r"[^\n]+")
_OVERLAP_START = re.compile(r"\n|[.!?]\s+")
_BACKTICKS = re.compile(r"`+")
_FENCE_LINE = re.compile(r"^[ \t>]*(?:`{3,}|~{3,})", re.MULTILINE)

# Strength of the boundary in front of a unit: the packer prefers to cut at the strongest.
BLOCK, _LINE_END, _SENTENCE, _WORD_GAP, _HARD = 4, 3, 2, 1, 0


@dataclass(frozen=True, slots=True)
class Unit:
    """A span of the input the packer never cuts; ``strength`` is the boundary before it."""

    start: int
    end: int
    strength: int


def best_cut(units: list[Unit], index: int, stop: int, size: int) -> int:
    """Choose where to end a piece that cannot take ``units[stop]``.

    Prefer the strongest boundary, later over earlier, among cuts that leave the piece at
    least half full; a piece that can never be half full ends as late as possible.
    """
    best = stop
    for cut in range(index + 1, stop + 1):
        if units[cut - 1].end - units[index].start < size // 2:
            continue
        if units[cut].strength >= units[best].strength:
            best = cut
    return best


def _lines(text: str, start: int, end: int, size: int) -> list[tuple[int, int]]:
    spans = []
    for match in _LINE.finditer(text[start:end]):
        stripped = match[0].rstrip()
        if stripped.strip():
            spans.append((start + match.start(), start + match.start() + len(stripped)))
    return spans


def _sentences(text: str, start: int, end: int, size: int) -> list[tuple[int, int]]:
    spans = []
    for match in _SENTENCE_END.finditer(text, start, end):
        spans.append((start, match.start() + 1))
        start = match.end()
    spans.append((start, end))
    return spans


def _words(text: str, start: int, end: int, size: int) -> list[tuple[int, int]]:
    return [match.span() for match in _WORD.finditer(text, start, end)]


def _hard_cuts(text: str, start: int, end: int, size: int) -> list[tuple[int, int]]:
    return [(offset, min(offset + size, end)) for offset in range(start, end, size)]


SPLITTERS = (_lines, _sentences, _words, _hard_cuts)
SPLIT_STRENGTH = (_LINE_END, _SENTENCE, _WORD_GAP, _HARD)


def overlap(previous: str, percent: int) -> str:
    """The tail of ``previous`` to repeat in front of the next chunk, or ``""``.

    At most ``percent`` % of ``previous``, starting at a line or sentence start so the prefix
    never opens mid-word; it never contains a fence line, which would unbalance the code
    blocks of the chunk it is prepended to.
    """
    budget = len(previous) * percent // 100
    if budget == 0:
        return ""
    cut = len(previous) - budget
    start = next(
        (
            m.end()
            for m in _OVERLAP_START.finditer(previous)
            if m.end() >= cut and not _in_code_span(previous, m.end())
        ),
        None,
    )
    if start is None:
        return ""
    tail = previous[start:]
    fences = list(_FENCE_LINE.finditer(tail))
    if fences:
        after = tail.find("\n", fences[-1].end())
        tail = "" if after == -1 else tail[after:]
    return tail.strip()


def _in_code_span(text: str, at: int) -> bool:
    """Whether ``at`` falls inside an inline code span of its paragraph (a backtick run
    before it, in the same paragraph, that no run of its length has closed yet): a prefix
    starting there would open with the span's end, and pair the backticks after it wrongly
    (``git+<URL>`; `init` writes`` renders as code ``; ``)."""
    opened = 0
    for run in _BACKTICKS.finditer(text, text.rfind("\n\n", 0, at) + 1, at):
        if not opened:
            opened = len(run[0])
        elif len(run[0]) == opened:
            opened = 0
    return bool(opened)


def single_blank_lines(text: str) -> str:
    """``text`` with each run of blank lines outside fenced code made one blank line (markup
    blanked in place, a label or a directive's options, leaves runs of them)."""
    if "\n\n\n" not in text and "\n \n" not in text and "\n\t" not in text:
        return text
    kept: list[str] = []
    fenced = False
    for line in text.split("\n"):
        if _FENCE_LINE.match(line):
            fenced = not fenced
        elif not fenced and not line.strip() and kept and not kept[-1].strip():
            continue
        kept.append(line)
    return "\n".join(kept)
