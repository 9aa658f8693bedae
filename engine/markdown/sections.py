"""A document's sections: the line ranges that become chunks, and their titles.

Every heading opens a section titled by its heading path (``Install > Linux``). A heading
with nothing under it joins the next section, and a section with fewer than ``min_prose``
characters of words (documentation: :data:`MIN_PROSE_CHARS`) joins the next one too, or the
one before it when it is the last. A section starts at its own heading: the bare parent
headings above it show in its heading path, so a chunk is cited at its heading's line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence

from engine.markdown.blocks import FenceRole, Heading

MIN_PROSE_CHARS = 60
"""A section with fewer characters of words than this joins a neighbour (a label, a lone
link, a heading over a directive is no chunk of its own)."""

_WORD = re.compile(r"\w+")
_TAG = re.compile(r"<[^<>]*>")


def path_line(title: str, chunk_size: int) -> str:
    """The heading path as the chunk's first line, cut from the left if it is very long."""
    limit = chunk_size // 4
    return title if len(title) <= limit else "…" + title[len(title) - limit + 1 :]


class Outline:
    """The sections of a document, from its lines and the headings the parser found."""

    def __init__(
        self,
        lines: Sequence[str],
        headings: Mapping[int, Heading],
        roles: Sequence[FenceRole],
        heading_lines: set[int],
        chunk_size: int,
    ) -> None:
        self.lines = lines
        self.headings = headings
        self.roles = roles
        self.heading_lines = heading_lines
        self.chunk_size = chunk_size
        self.blank = [not line.strip() for line in lines]

    def sections(self, min_prose: int) -> list[tuple[str, int, int]]:
        """``(title, first_line, last_line)`` of each section that has a body.

        A heading with nothing under it is not a section of its own: it joins the next
        section (``# Guide`` right above ``## Install`` opens the chunk titled ``Guide >
        Install``, which starts at the ``## Install`` line: the heading path shows the
        parent), and a bare heading at the end of the text is dropped. A section with less
        than ``min_prose`` characters of words under its heading joins the next section too,
        or the one before it when it is the last.
        """
        found: list[tuple[str, int, int]] = []
        carried: list[int] = []  # bare headings waiting for a section with a body
        # (title, first line, first line with the bare headings above it) of short text
        short: tuple[str, int, int] | None = None
        for title, first, last in self._raw_sections():
            heading = self.headings.get(first)
            body = heading.last + 1 if heading is not None else first
            if self._blank(body, last):
                if heading is not None and short is None:
                    carried.append(first)
                continue
            if short is None:
                start = self._start(title, carried, first)
            else:
                # The chunk takes this later title: the short text's parent headings stay
                # in its text unless this title's path shows them too.
                start = short[1] if _parents(short[0]) <= _parents(title) else short[2]
            if self._prose(body, last) < min_prose:
                # Short text joins the next section: the chunk takes the later title.
                whole = carried[0] if carried and short is None else start
                short, carried = (title, start, whole), []
                continue
            found.append((title, start, last))
            carried, short = [], None
        if short is not None:
            if found:
                title, start, _ = found.pop()
                short = (title, start, start)
            found.append((short[0], short[1], self._last_text_line()))
        return found

    def _start(self, title: str, carried: list[int], first: int) -> int:
        """Where a section opened by ``first`` starts, after the bare headings ``carried``
        above it: at the first that is not one of its parents (the heading path shows
        those, unless it is too long to show whole), else at its own heading."""
        if carried and len(path_line(title, self.chunk_size)) < len(title):
            return carried[0]  # the path is cut short: the parents stay in the text
        parents = set(title.split(" > ")[:-1])
        return next((i for i in carried if self.headings[i].text not in parents), first)

    def _prose(self, first: int, last: int) -> int:
        """Characters of words on lines ``first..last`` (fence lines and tags left out)."""
        total = 0
        for index in range(first, last + 1):
            if self.blank[index] or self.roles[index] in (FenceRole.OPEN, FenceRole.CLOSE):
                continue
            total += len(" ".join(_WORD.findall(_TAG.sub(" ", self.lines[index]))))
        return total

    def _last_text_line(self) -> int:
        index = len(self.lines) - 1
        while index > 0 and (self.blank[index] or index in self.heading_lines):
            index -= 1
        return index

    def _raw_sections(self) -> Iterator[tuple[str, int, int]]:
        path: list[tuple[int, str]] = []
        title, first = "", 0
        for index, heading in sorted(self.headings.items()):
            if index > first:
                yield title, first, index - 1
            # A heading closes every open heading at its own level or deeper.
            path = [(lvl, name) for lvl, name in path if lvl < heading.level]
            path.append((heading.level, heading.text))
            title = " > ".join(name for _, name in path if name)
            first = index
        yield title, first, len(self.lines) - 1

    def _blank(self, first: int, last: int) -> bool:
        return all(self.blank[first : last + 1])


def _parents(title: str) -> set[str]:
    """The headings a section's path shows above its own."""
    return set(title.split(" > ")[:-1])
