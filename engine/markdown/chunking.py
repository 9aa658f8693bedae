"""Splitting a markdown body into chunks for embedding and keyword search.

Every ATX heading (outside code fences) starts a new section, titled by its heading path
(``Install > Linux``). A section longer than ``chunk_size`` is cut into pieces, preferring
paragraph boundaries, then line ends, then sentence ends, then whitespace, and only as a last
resort a hard cut inside a word. Small sections are never merged, so a chunk always belongs to
exactly one heading.

Fenced code blocks and tables are atomic: they are never cut, so a piece is at most
``chunk_size`` characters *except* a single atomic block larger than that, which becomes a chunk
of its own. Only a block larger than ``ATOMIC_LIMIT_FACTOR * chunk_size`` is split, between
lines, into pieces of at most ``chunk_size``, each re-wrapped in the block's opening and closing
fence (or, for a table, its header rows) so every piece still renders as code (or as a table).
A single line longer than the budget is the only thing ever cut mid-line. So no chunk's own
text exceeds ``ATOMIC_LIMIT_FACTOR * chunk_size``.

Each chunk after the first of its section may start with a copy of the tail of the previous
chunk (overlap), snapped to a sentence or line start; ``Chunk.overlap_chars`` says how long
that prefix is. Overlap never crosses a heading: a section's first chunk starts clean.
Oversized atomic chunks get no overlap, so overlap never pushes content past that bound.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass

from engine.markdown.parse import FenceRole, fence_roles, normalise_newlines

MIN_CHUNK_SIZE = 100
"""Smallest accepted ``chunk_size``."""

MAX_OVERLAP_PERCENT = 50
"""Largest accepted ``overlap_percent``."""

ATOMIC_LIMIT_FACTOR = 4
"""Code blocks and tables up to this many times ``chunk_size`` are kept whole."""

OVERLAP_SEPARATOR = "\n\n"
"""Joins the overlap prefix to a chunk's own text."""

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_TABLE_DELIMITER_CELL = re.compile(r"^\s*:?-+:?\s*$")
_SENTENCE_END = re.compile(r"[.!?]\s+")
_WORD = re.compile(r"\S+")
_OVERLAP_START = re.compile(r"\n|[.!?]\s+")
_FENCE_LINE = re.compile(r"^[ \t>]*(?:`{3,}|~{3,})", re.MULTILINE)

# Strength of the boundary in front of a unit: the packer prefers to cut at the strongest.
_BLOCK, _LINE, _SENTENCE, _WORD_GAP, _HARD = 4, 3, 2, 1, 0


@dataclass(frozen=True, slots=True)
class Chunk:
    """One piece of a markdown file, ready to embed and store."""

    title: str
    """Heading path such as ``Install > Linux``; empty for text before the first heading."""
    content: str
    """Text to embed and store: the overlap prefix (if any) followed by the chunk's own text."""
    line_start: int
    """1-based line of the input where the chunk's own text starts."""
    line_end: int
    """1-based line of the input where the chunk's own text ends (inclusive)."""
    overlap_chars: int = 0
    """Length of the overlap prefix in ``content``, separator included; 0 without overlap."""

    @property
    def own_text(self) -> str:
        """The chunk's text without the overlap copied from the previous chunk."""
        return self.content[self.overlap_chars :]


@dataclass(frozen=True, slots=True)
class _Unit:
    """A span of the input the packer never cuts; ``strength`` is the boundary before it."""

    start: int
    end: int
    strength: int


@dataclass(frozen=True, slots=True)
class _Block:
    """Consecutive input lines forming a paragraph, heading, fenced block or table."""

    first: int
    last: int
    atomic: bool
    head: int = 0
    """Leading lines repeated on each piece if the block is too big (fence opener, table header)."""
    tail: int = 0
    """Trailing lines repeated on each piece (fence closer)."""


def chunk_markdown(text: str, chunk_size: int = 2000, overlap_percent: int = 15) -> list[Chunk]:
    """Split markdown into heading-titled chunks of at most ``chunk_size`` characters.

    Raises ``ValueError`` when ``chunk_size`` is below 100 or ``overlap_percent`` is outside
    0..50. See the module docstring for how sections, atomic blocks and overlap behave.
    """
    if chunk_size < MIN_CHUNK_SIZE:
        raise ValueError(f"chunk_size must be at least {MIN_CHUNK_SIZE}, got {chunk_size}")
    if not 0 <= overlap_percent <= MAX_OVERLAP_PERCENT:
        raise ValueError(
            f"overlap_percent must be between 0 and {MAX_OVERLAP_PERCENT}, got {overlap_percent}"
        )
    document = _Document(normalise_newlines(text), chunk_size)
    chunks: list[Chunk] = []
    previous = ""
    for title, first, last in document.sections():
        previous = ""  # overlap stays inside a section
        for own, line_start, line_end in document.pieces(first, last):
            # An oversized atomic block is big enough already; it gets no overlap on top.
            fits = len(own) <= chunk_size
            prefix = _overlap(previous[-chunk_size:], overlap_percent) if fits else ""
            separator = OVERLAP_SEPARATOR if prefix else ""
            chunks.append(
                Chunk(
                    title=title,
                    content=prefix + separator + own,
                    line_start=line_start,
                    line_end=line_end,
                    overlap_chars=len(prefix) + len(separator),
                )
            )
            previous = own
    return chunks


class _Document:
    """The input split into lines, with the offsets and fence roles the splitter needs."""

    def __init__(self, text: str, chunk_size: int) -> None:
        self.text = text
        self.size = chunk_size
        self.lines = text.split("\n")
        self.roles = fence_roles(self.lines)
        self.starts: list[int] = []
        offset = 0
        for line in self.lines:
            self.starts.append(offset)
            offset += len(line) + 1

    def sections(self) -> Iterator[tuple[str, int, int]]:
        """Yield ``(title, first_line, last_line)`` for each heading-delimited section.

        A heading with nothing under it before the next heading is not a section of its
        own: its line goes with the next section, whose title is the deeper heading path.
        """
        path: list[tuple[int, str]] = []
        title, first = "", 0
        for index, line in enumerate(self.lines):
            match = _HEADING.match(line) if self.roles[index] is FenceRole.NONE else None
            if match is None:
                continue
            if index > first and self._has_body(first, index - 1):
                yield title, first, index - 1
            elif index > first:  # heading-only: keep its line for the next section
                level = len(match[1])
                path = [(lvl, name) for lvl, name in path if lvl < level]
                path.append((level, match[2].strip()))
                title = " > ".join(name for _, name in path if name)
                continue
            level = len(match[1])
            # A heading closes every open heading at its own level or deeper.
            path = [(lvl, name) for lvl, name in path if lvl < level]
            path.append((level, match[2].strip()))
            title = " > ".join(name for _, name in path if name)
            first = index
        yield title, first, len(self.lines) - 1

    def _has_body(self, first: int, last: int) -> bool:
        """Whether lines ``first..last`` hold anything besides headings and blank lines."""
        return any(
            self.lines[i].strip()
            and not (self.roles[i] is FenceRole.NONE and _HEADING.match(self.lines[i]))
            for i in range(first, last + 1)
        )

    def pieces(self, first: int, last: int) -> Iterator[tuple[str, int, int]]:
        """Yield ``(own_text, line_start, line_end)`` pieces of one section."""
        pending: list[_Unit] = []
        for block in self._blocks(first, last):
            start, end = self._span(block.first, block.last)
            wrapped = self._wrappable(block, end - start) if block.atomic else None
            if wrapped is not None:
                yield from self._pack(pending, self.size)
                pending = []
                yield from self._wrapped_pieces(wrapped)
            elif block.atomic:
                pending.append(_Unit(start, end, _BLOCK))
            else:
                pending.extend(self._split_span(start, end, _BLOCK, self.size, 0))
        yield from self._pack(pending, self.size)

    def _blocks(self, first: int, last: int) -> Iterator[_Block]:
        """Group a section's lines into blocks; blank lines only separate them."""
        index = first
        while index <= last:
            if not self.lines[index].strip():
                index += 1
                continue
            block = self._block_at(index, first, last)
            yield block
            index = block.last + 1

    def _block_at(self, index: int, first: int, last: int) -> _Block:
        """The block starting at non-blank line ``index`` of the section ``first..last``."""
        if self.roles[index] is FenceRole.OPEN:
            end = index + 1
            while end <= last and self.roles[end] is FenceRole.BODY:
                end += 1
            if end <= last and self.roles[end] is FenceRole.CLOSE:
                return _Block(index, end, atomic=True, head=1, tail=1)
            return _Block(index, self._trim_blank_end(index, end - 1), atomic=True, head=1)
        if self._starts_table(index, last):
            header = 2 if self._is_delimiter_row(index + 1, last) else 0
            end = index + max(header, 1)
            while end <= last and self._is_table_row(end):
                end += 1
            return _Block(index, end - 1, atomic=True, head=header)
        if index == first and _HEADING.match(self.lines[index]):
            # The heading is its own block so the packer may keep it with what follows.
            return _Block(index, index, atomic=False)
        end = index + 1
        while (
            end <= last
            and self.lines[end].strip()
            and self.roles[end] is FenceRole.NONE
            and not self._starts_table(end, last)
        ):
            end += 1
        return _Block(index, end - 1, atomic=False)

    def _trim_blank_end(self, first: int, last: int) -> int:
        while last > first and not self.lines[last].strip():
            last -= 1
        return last

    def _starts_table(self, index: int, last: int) -> bool:
        line = self.lines[index]
        if self.roles[index] is not FenceRole.NONE or "|" not in line:
            return False
        return line.lstrip().startswith("|") or self._is_delimiter_row(index + 1, last)

    def _is_table_row(self, index: int) -> bool:
        line = self.lines[index]
        return bool(line.strip()) and "|" in line and self.roles[index] is FenceRole.NONE

    def _is_delimiter_row(self, index: int, last: int) -> bool:
        if index > last or "|" not in self.lines[index]:
            return False
        cells = self.lines[index].strip().strip("|").split("|")
        return all(_TABLE_DELIMITER_CELL.match(cell) for cell in cells)

    def _span(self, first: int, last: int) -> tuple[int, int]:
        """Character range of lines ``first..last``, without trailing whitespace."""
        return self.starts[first], self.starts[last] + len(self.lines[last].rstrip())

    def _line_of(self, offset: int) -> int:
        """1-based line holding the character at ``offset``."""
        return bisect_right(self.starts, offset)

    def _split_span(
        self, start: int, end: int, strength: int, size: int, level: int
    ) -> Iterator[_Unit]:
        """Cut a span into units of at most ``size``, using ever finer boundaries."""
        if end - start <= size:
            yield _Unit(start, end, strength)
            return
        splits = _SPLITTERS[level](self.text, start, end, size)
        for position, (sub_start, sub_end) in enumerate(splits):
            sub_strength = strength if position == 0 else _LEVEL_STRENGTH[level]
            yield from self._split_span(sub_start, sub_end, sub_strength, size, level + 1)

    def _pack(self, units: list[_Unit], size: int) -> Iterator[tuple[str, int, int]]:
        """Greedily join units into pieces of at most ``size``, cutting at strong boundaries."""
        index = 0
        while index < len(units):
            stop = index + 1
            while stop < len(units) and units[stop].end - units[index].start <= size:
                stop += 1
            if stop < len(units):
                stop = _best_cut(units, index, stop, size)
            start, end = units[index].start, units[stop - 1].end
            yield self.text[start:end], self._line_of(start), self._line_of(end - 1)
            index = stop

    def _wrappable(self, block: _Block, length: int) -> _Block | None:
        """The block to split between lines if it is beyond the atomic limit, else ``None``.

        The frame repeated on every piece must leave most of each piece for content: a table
        whose (padded) header is too long is split without repeating it, and a fence whose
        opening line is that long stays whole.
        """
        if length <= ATOMIC_LIMIT_FACTOR * self.size:
            return None
        if self._frame_length(block) > self.size // 2:
            if self.roles[block.first] is FenceRole.OPEN:
                return None
            block = _Block(block.first, block.last, atomic=True)
        body_lines = block.last - block.first + 1 - block.head - block.tail
        return block if body_lines > 0 else None

    def _frame_length(self, block: _Block) -> int:
        framing = self._head_lines(block) + self._tail_lines(block)
        return sum(len(line) + 1 for line in framing)

    def _head_lines(self, block: _Block) -> list[str]:
        return [line.rstrip() for line in self.lines[block.first : block.first + block.head]]

    def _tail_lines(self, block: _Block) -> list[str]:
        return [line.rstrip() for line in self.lines[block.last - block.tail + 1 : block.last + 1]]

    def _wrapped_pieces(self, block: _Block) -> Iterator[tuple[str, int, int]]:
        """Split an oversized atomic block between lines, re-wrapping each piece in its frame."""
        head, tail = self._head_lines(block), self._tail_lines(block)
        budget = self.size - self._frame_length(block)
        start, end = self._span(block.first + block.head, block.last - block.tail)
        pieces = list(self._pack(list(self._split_span(start, end, _BLOCK, budget, 0)), budget))
        if not pieces:  # a body of blank lines: keep the frame so no text is lost
            yield "\n".join([*head, *tail]), block.first + 1, block.last + 1
        for number, (text, line_start, line_end) in enumerate(pieces):
            first_line = block.first + 1 if number == 0 else line_start
            last_line = block.last + 1 if number == len(pieces) - 1 else line_end
            yield "\n".join([*head, text, *tail]), first_line, last_line


def _best_cut(units: list[_Unit], index: int, stop: int, size: int) -> int:
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
    for match in re.finditer(r"[^\n]+", text[start:end]):
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


_SPLITTERS = (_lines, _sentences, _words, _hard_cuts)
_LEVEL_STRENGTH = (_LINE, _SENTENCE, _WORD_GAP, _HARD)


def _overlap(previous: str, percent: int) -> str:
    """The tail of ``previous`` to repeat in front of the next chunk, or ``""``.

    At most ``percent`` % of ``previous``, starting at a line or sentence start so the prefix
    never opens mid-word; it never contains a fence line, which would unbalance the code
    blocks of the chunk it is prepended to.
    """
    budget = len(previous) * percent // 100
    if budget == 0:
        return ""
    cut = len(previous) - budget
    start = next((m.end() for m in _OVERLAP_START.finditer(previous) if m.end() >= cut), None)
    if start is None:
        return ""
    tail = previous[start:]
    fences = list(_FENCE_LINE.finditer(tail))
    if fences:
        after = tail.find("\n", fences[-1].end())
        tail = "" if after == -1 else tail[after:]
    return tail.strip()
