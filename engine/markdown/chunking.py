"""Splitting a markdown body into chunks for embedding and keyword search.

The page is first read as rendered (:mod:`.markup`: MyST/Sphinx markup, HTML headings).
Every heading (ATX ``## Title``, setext ``Title`` over ``===``/``---`` as CommonMark finds
them, :mod:`.blocks`, or HTML) starts a section titled by its heading path (``Install >
Linux``); a bare heading joins the next section, and with ``min_prose`` so does a section of
fewer characters of words (:mod:`.sections`), so no chunk is headings only. A section longer
than ``chunk_size`` is cut into pieces, preferring paragraph boundaries, then line ends,
then sentence ends, then whitespace, and only as a last resort a hard cut inside a word;
runs of blank lines outside fenced code become one.

Each chunk's ``content`` opens with its heading path on a line of its own wherever its own
text does not show every heading of that path (a subsection, or the second piece of a long
section), so keyword search and the embedder both see where the text sits; the path counts
against ``chunk_size``. The ``title`` (stored as the section title) is that same path.

Fenced code blocks and tables are atomic: they are never cut, so a piece is at most
``chunk_size`` characters *except* a single atomic block larger than that, which becomes a chunk
of its own. Only a block larger than ``ATOMIC_LIMIT_FACTOR * chunk_size`` is split, between
lines, into pieces of at most ``chunk_size``, each re-wrapped in the block's opening and closing
fence (or, for a table, its header rows) so every piece still renders as code (or as a table).
A fence of plain text (``txt``, ``text``, ``output``: a program's output shown verbatim, such
as a full ``--help`` page) is split into pieces of the atomic limit instead, read like a page:
one piece per option of a help page would outrank the prose and code explaining each.
A single line longer than the budget is the only thing ever cut mid-line. So no chunk's own
text exceeds ``ATOMIC_LIMIT_FACTOR * chunk_size``.

Each chunk after the first of a section may start with a copy of the tail of the previous
chunk (overlap), snapped to a sentence or line start; ``Chunk.overlap_chars`` says how long
that prefix is. Overlap never crosses a section boundary.
Oversized atomic chunks get no overlap, so overlap never pushes content past that bound.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass

from engine.markdown.blocks import FenceRole, block_map, plain_text_fence
from engine.markdown.contents import blank_contents
from engine.markdown.markup import strip_markup
from engine.markdown.parse import normalise_newlines
from engine.markdown.sections import MIN_PROSE_CHARS, Outline, path_line
from engine.markdown.splitting import (
    BLOCK,
    SPLIT_STRENGTH,
    SPLITTERS,
    Unit,
    best_cut,
    overlap,
    single_blank_lines,
)

__all__ = ["MIN_PROSE_CHARS", "Chunk", "chunk_markdown"]

MIN_CHUNK_SIZE = 100
"""Smallest accepted ``chunk_size``."""

MAX_OVERLAP_PERCENT = 50
"""Largest accepted ``overlap_percent``."""

ATOMIC_LIMIT_FACTOR = 4
"""Code blocks and tables up to this many times ``chunk_size`` are kept whole."""

OVERLAP_SEPARATOR = "\n\n"
"""Joins the overlap prefix to a chunk's own text."""


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
    path_chars: int = 0
    """Length of the heading-path line that opens ``content``, separator included; 0 when the
    chunk's own text already shows its whole path (a top-level section's first chunk)."""

    @property
    def own_text(self) -> str:
        """The chunk's text without its heading path and the overlap from the previous chunk."""
        return self.content[self.path_chars + self.overlap_chars :]


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


def chunk_markdown(
    text: str,
    chunk_size: int = 2000,
    overlap_percent: int = 15,
    min_prose: int = 0,
    *,
    page_title: str = "",
) -> list[Chunk]:
    """Split markdown into heading-titled chunks of at most ``chunk_size`` characters.

    ``page_title`` (front matter's, or the file's name) opens every section's heading path
    on a page without a level-1 heading. A section with fewer than ``min_prose``
    characters of words joins a neighbour (documentation uses :data:`MIN_PROSE_CHARS`).
    Raises ``ValueError`` when ``chunk_size`` is below 100 or ``overlap_percent`` is outside
    0..50. See the module docstring for how sections, atomic blocks and overlap behave.
    """
    _check_sizes(chunk_size, overlap_percent)
    document = _Document(normalise_newlines(text), chunk_size)
    chunks: list[Chunk] = []
    if any(h.level == 1 and h.text for h in document.headings.values()):
        page_title = ""  # the page shows its own title (a logo without alt text is none)
    for title, first, last in document.outline.sections(min_prose):
        if page_title:
            title = f"{page_title} > {title}" if title else page_title
        path = path_line(title, chunk_size)
        # The heading path takes room from the section's own text, so chunks stay near size.
        budget = max(chunk_size - len(path) - 2, chunk_size // 2) if path else chunk_size
        previous = ""  # overlap never crosses a section boundary
        for own, line_start, line_end in document.pieces(first, last, budget):
            own = single_blank_lines(own)
            # An oversized atomic block is big enough already; it gets no overlap on top.
            fits = len(own) <= budget
            prefix = overlap(previous[-budget:], overlap_percent) if fits else ""
            separator = OVERLAP_SEPARATOR if prefix else ""
            shown = path if path and not document.shows_path(title, line_start, line_end) else ""
            lead = shown + OVERLAP_SEPARATOR if shown else ""
            chunks.append(
                Chunk(
                    title=title,
                    content=lead + prefix + separator + own,
                    line_start=line_start,
                    line_end=line_end,
                    overlap_chars=len(prefix) + len(separator),
                    path_chars=len(lead),
                )
            )
            previous = own
    return chunks


def _check_sizes(chunk_size: int, overlap_percent: int) -> None:
    if chunk_size < MIN_CHUNK_SIZE:
        raise ValueError(f"chunk_size must be at least {MIN_CHUNK_SIZE}, got {chunk_size}")
    if not 0 <= overlap_percent <= MAX_OVERLAP_PERCENT:
        raise ValueError(
            f"overlap_percent must be between 0 and {MAX_OVERLAP_PERCENT}, got {overlap_percent}"
        )


def _is_delimiter_cell(cell: str) -> bool:
    """Whether a table cell is a delimiter such as ``---``, ``:--`` or ``:-:``."""
    dashes = cell.strip().removeprefix(":").removesuffix(":")
    return bool(dashes) and dashes == "-" * len(dashes)


class _Document:
    """The input split into lines, with the offsets, fence roles and headings the splitter needs."""

    def __init__(self, text: str, chunk_size: int) -> None:
        markup = strip_markup(text.split("\n"))
        self.lines = blank_contents(markup.lines)
        self.text = "\n".join(self.lines)
        self.size = chunk_size
        blocks = block_map(self.lines)
        self.roles = blocks.roles
        self.rules = blocks.rules
        self.headings = {**blocks.headings, **markup.headings}
        self.heading_lines = {
            i for start, h in self.headings.items() for i in range(start, h.last + 1)
        }
        self.outline = Outline(
            self.lines, self.headings, self.roles, self.heading_lines, chunk_size
        )
        # Computed once: a piece of a 1 MB line must not strip that line again.
        self.blank = self.outline.blank
        self.starts: list[int] = []
        offset = 0
        for line in self.lines:
            self.starts.append(offset)
            offset += len(line) + 1

    def shows_path(self, title: str, line_start: int, line_end: int) -> bool:
        """Whether lines ``line_start..line_end`` (1-based) hold every heading of ``title``."""
        shown = {h.text for i, h in self.headings.items() if line_start - 1 <= i < line_end}
        return all(name in shown for name in title.split(" > "))

    def pieces(self, first: int, last: int, size: int) -> Iterator[tuple[str, int, int]]:
        """Yield ``(own_text, line_start, line_end)`` pieces of one section, each near ``size``.

        A piece of nothing but headings (one followed by a block too big to join it) is
        joined to the front of the next piece, and so are the headings that end a piece (a
        short section that joined a long one), so every chunk has text under its headings.
        """
        held: tuple[str, int, int] | None = None
        for piece in self._packed(first, last, size):
            for text, line_start, line_end in self._heading_tail_apart(*piece):
                if held is not None:
                    text, line_start, held = held[0] + OVERLAP_SEPARATOR + text, held[1], None
                if self._only_headings(line_start, line_end):
                    held = (text, line_start, line_end)
                    continue
                yield text, line_start, line_end
        if held is not None:
            yield held

    def _only_headings(self, line_start: int, line_end: int) -> bool:
        """Whether lines ``line_start..line_end`` (1-based) hold nothing but headings, with
        blank lines and rules between them (a rule under a heading is no text of its own)."""
        return all(
            i in self.heading_lines or self.blank[i] or i in self.rules
            for i in range(line_start - 1, line_end)
        )

    def _heading_tail_apart(
        self, text: str, line_start: int, line_end: int
    ) -> list[tuple[str, int, int]]:
        """A piece ending in heading lines as two: its text, then those headings.

        ``text`` spans lines ``line_start..line_end`` (1-based) one for one; a piece of
        nothing but headings, or one that does not end in a heading, stays whole.
        """
        if line_end - 1 not in self.heading_lines or self._only_headings(line_start, line_end):
            return [(text, line_start, line_end)]
        cut = line_end - 1  # 0-based: walk up over the trailing headings and blank lines
        while cut >= line_start - 1 and (cut in self.heading_lines or self.blank[cut]):
            cut -= 1
        tail = cut + 1
        while self.blank[tail]:
            tail += 1
        lines = text.split("\n")
        before = "\n".join(lines[: tail - line_start + 1]).rstrip()
        after = "\n".join(lines[tail - line_start + 1 :])
        return [(before, line_start, cut + 1), (after, tail + 1, line_end)]

    def _packed(self, first: int, last: int, size: int) -> Iterator[tuple[str, int, int]]:
        self.size = size
        pending: list[Unit] = []
        for block in self._blocks(first, last):
            start, end = self._span(block.first, block.last)
            wrapped = self._wrappable(block, end - start) if block.atomic else None
            if wrapped is not None:
                yield from self._pack(pending, self.size)
                pending = []
                yield from self._wrapped_pieces(wrapped)
            elif block.atomic:
                pending.append(Unit(start, end, BLOCK))
            else:
                pending.extend(self._split_span(start, end, BLOCK, self.size, 0))
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
        if index in self.headings:
            # The heading is its own block so the packer may keep it with what follows.
            return _Block(index, self.headings[index].last, atomic=False)
        end = index + 1
        while (
            end <= last
            and self.lines[end].strip()
            and self.roles[end] is FenceRole.NONE
            and not self._starts_table(end, last)
            and end not in self.headings
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
        return all(_is_delimiter_cell(cell) for cell in cells)

    def _span(self, first: int, last: int) -> tuple[int, int]:
        """Character range of lines ``first..last``, without trailing whitespace."""
        return self.starts[first], self.starts[last] + len(self.lines[last].rstrip())

    def _line_of(self, offset: int) -> int:
        """1-based line holding the character at ``offset``."""
        return bisect_right(self.starts, offset)

    def _split_span(
        self, start: int, end: int, strength: int, size: int, level: int
    ) -> Iterator[Unit]:
        """Cut a span into units of at most ``size``, using ever finer boundaries."""
        if end - start <= size:
            yield Unit(start, end, strength)
            return
        splits = SPLITTERS[level](self.text, start, end, size)
        for position, (sub_start, sub_end) in enumerate(splits):
            sub_strength = strength if position == 0 else SPLIT_STRENGTH[level]
            yield from self._split_span(sub_start, sub_end, sub_strength, size, level + 1)

    def _pack(self, units: list[Unit], size: int) -> Iterator[tuple[str, int, int]]:
        """Greedily join units into pieces of at most ``size``, cutting at strong boundaries."""
        index = 0
        while index < len(units):
            stop = index + 1
            while stop < len(units) and units[stop].end - units[index].start <= size:
                stop += 1
            if stop < len(units):
                stop = best_cut(units, index, stop, size)
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
        size = self.size
        if self.roles[block.first] is FenceRole.OPEN and plain_text_fence(self.lines[block.first]):
            size = ATOMIC_LIMIT_FACTOR * self.size
        budget = size - self._frame_length(block)
        start, end = self._span(block.first + block.head, block.last - block.tail)
        pieces = list(self._pack(list(self._split_span(start, end, BLOCK, budget, 0)), budget))
        if not pieces:  # a body of blank lines: keep the frame so no text is lost
            yield "\n".join([*head, *tail]), block.first + 1, block.last + 1
        for number, (text, line_start, line_end) in enumerate(pieces):
            first_line = block.first + 1 if number == 0 else line_start
            last_line = block.last + 1 if number == len(pieces) - 1 else line_end
            yield "\n".join([*head, text, *tail]), first_line, last_line
