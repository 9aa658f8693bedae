"""Vim help files, a plugin's ``doc/*.txt``, read as the sectioned documents they are.

The format is Vim's own: ``:help help-writing`` describes it, and Vim's
``runtime/syntax/help.vim`` highlights it by these rules. A help file

- opens with its tag line, ``*name.txt*`` and a short description, and ends with a
  modeline (``vim:tw=78:ts=8:ft=help:norl:``): either makes a ``.txt`` file in a ``doc/``
  folder (where Vim's ``:helptags`` reads them) a help file, whatever the project;
- is cut into sections by separator lines (a line of ``=`` or of ``-``), each followed by
  its heading line, whose ``*tags*`` stand right-aligned (``COMMANDS    *x-commands*``);
  a heading in capitals with its tags (``helpHeadline``) opens a section without one;
- ends a subheading's line with ``~`` (``helpHeader``); one whose words stand in columns
  (``Object      Meaning ~``) heads a table's columns;
- defines a tag with ``*tag*`` and links to one with ``|tag|``;
- opens an example with ``>`` ending a line (``>lua``, naming its language, in Neovim's),
  closed by a line starting with ``<`` or by the first line that is not indented.

As markdown: a section's heading becomes a level-2 heading titled by its words (level 3
under a ``-`` separator in a file that also has ``=`` ones), its tags moving to the blank
line below it (kept in the text, where a search finds them); a ``~`` line becomes a
heading a level below its section's (a column heading stays text); an example becomes a
fence; a ``|link|`` reads as the tag it names; separators and the modeline are blanked.
Every other line is text, escaped only where markdown would read markup in it
(:func:`engine.markdown.escaping.escape_line`): ``<CR>`` stays ``<CR>``.

The number of lines is kept (chunks cite the file's own lines). A fence needs a line of its
own: the text beside an example's marker (``To disable it: >``, ``<  More text``) joins
the line before or after it, in the same paragraph; an example with no room for its
fences stays text. Linear in the text; nothing is run.
"""

from __future__ import annotations

import re

from engine.markdown.escaping import escape_line

HELP_FOLDER = "doc"
"""The folder a help file lives in (``{runtimepath}/doc/``, as ``:helptags`` reads it)."""
MAX_TITLE = 80
"""The longest heading line a separator's next line may be."""

_TAG_LINE = re.compile(r"^\*[\w.+-]+\.txt\*")
_HELP_MODELINE = re.compile(r"\bvim?:.*\b(?:ft|filetype)=help\b")
_MODELINE = re.compile(r"(?:^|\s)(?:vi|vim|ex):\s*(?:set?\s+)?\w+[=:]")
_SEPARATOR = re.compile(r"^([=-])\1{9,}\s*$")
_TAG = re.compile(r"\*[^*\s|\"]+\*(?=\s|$)")
_TAGS_ONLY = re.compile(r"^\s*(?:\*[^*\s|\"]+\*\s*)+$")
_CAPITALS = re.compile(r"^(?:\d+(?:\.\d+)*\.?\s+)?[A-Z][-A-Z0-9 .,()_'&/]*$")
_HEADER = re.compile(r"^\s*(\S.*?)\s?~$")
_COLUMNS = re.compile(r"\S(?:\t|  )\s*\S")
_RULING = re.compile(r"([-_=.~*])\1{2,}")
"""A run that rules a heading out to the margin (``< Configuration >_______~``)."""
_BOXED = re.compile(r"^<\s+(.+?)\s+>$")
"""A title between ``< `` and `` >`` (key notation, ``<CR>``, has no spaces inside)."""
_EXAMPLE = re.compile(r"(?:^|\s)>([a-z0-9]*)$")
_LINK = re.compile(r"(?<!\\)\|([^\"*|\s]+)\|")
_FENCE = "```"

_TEXT, _BLANK, _CODE, _SHOWN = range(4)
"""A line's role: text (escaped, links unwrapped), blanked, example code (as written), or
markdown of its own (a heading, a fence)."""


def is_vimdoc(text: str, rel: str) -> bool:
    """Whether ``text``, the file ``rel``, is a Vim help file: in a ``doc/`` folder, its
    tag line first (``*name.txt*``) or a help modeline (``ft=help``) last."""
    if rel.rpartition("/")[0].rpartition("/")[2] != HELP_FOLDER:
        return False
    first = text.lstrip()[:200]
    return bool(_TAG_LINE.match(first)) or bool(_HELP_MODELINE.search(text[-400:]))


def vimdoc_as_markdown(text: str) -> str:
    """A Vim help file as markdown, line for line (module docstring)."""
    document = _Help(text.replace("\r\n", "\n").split("\n"))
    document.drop_modeline()
    examples = document.examples()
    document.headings()
    for example in examples:
        document.fence(*example)
    return document.markdown()


class _Help:
    """A help file's lines, each with its role and the text it shows."""

    def __init__(self, lines: list[str]) -> None:
        self.raw = lines
        self.role = [_TEXT] * len(lines)
        self.shown = [""] * len(lines)

    def drop_modeline(self) -> None:
        """Blank the modeline among the last lines (Vim reads it in the last five)."""
        for index in range(max(0, len(self.raw) - 5), len(self.raw)):
            if _MODELINE.search(self.raw[index]):
                self.raw[index], self.role[index] = "", _BLANK

    def examples(self) -> list[tuple[int, int, str, str, int]]:
        """Each example as ``(opening line, closing line, how it closes, language, where
        its marker starts)``; its lines marked code. It closes at a ``<`` line, before a
        line that is not indented (``dedent``), or at the end of the file (``end``)."""
        found: list[tuple[int, int, str, str, int]] = []
        index = 0
        while index < len(self.raw):
            opened = _EXAMPLE.search(self.raw[index]) if self.role[index] == _TEXT else None
            if opened is None:
                index += 1
                continue
            end, close = index + 1, "end"
            while end < len(self.raw):
                line = self.raw[end]
                if line.startswith("<"):
                    close = "<"
                    break
                if line and line[0] not in " \t":
                    close = "dedent"
                    break
                end += 1
            self.role[index] = _SHOWN
            for inside in range(index + 1, end):
                self.role[inside] = _CODE if self.role[inside] == _TEXT else self.role[inside]
            if close == "<":
                self.role[end] = _SHOWN
            found.append((index, end, close, opened.group(1), opened.start()))
            index = end + 1 if close == "<" else end
        return found

    def headings(self) -> None:
        """Separators blanked, and section headings and ``~`` subheadings made headings."""
        uses_equals = any(line.startswith("==") and _SEPARATOR.match(line) for line in self.raw)
        level = 2  # the current section's
        first = next((i for i, line in enumerate(self.raw) if line.strip()), 0)
        for index, line in enumerate(self.raw):
            if self.role[index] != _TEXT or index == first:
                continue
            if separator := _SEPARATOR.match(line):
                self.raw[index], self.role[index] = "", _BLANK
                level = 3 if separator.group(1) == "-" and uses_equals else 2
                self._section_after(index, level)
            elif self._is_headline(index):
                level = 2
                self._heading(index, level, line)
            elif header := _HEADER.match(line):
                if _COLUMNS.search(header.group(1)) or not any(c.isalpha() for c in line):
                    self.raw[index] = line[: header.end(1)]  # a column heading: text
                else:
                    self._heading(index, min(level + 1, 6), header.group(1))

    def _section_after(self, separator: int, level: int) -> None:
        """The heading a separator opens: its next line (after a line of tags alone), when
        it is short enough to be one."""
        index = separator + 1
        if index < len(self.raw) and self._is_tags(index):
            index += 1
        if index < len(self.raw) and self._is_title(index):
            self._heading(index, level, self.raw[index])
        elif separator > 0 and self._is_title(separator - 1):
            above = self.raw[separator - 2] if separator > 1 else ""
            if self.role[separator - 2] == _SHOWN or not above.strip():
                self._heading(separator - 1, level, self.raw[separator - 1])  # underlined

    def _is_tags(self, index: int) -> bool:
        """Whether line ``index`` is text of tags alone."""
        return self.role[index] == _TEXT and _TAGS_ONLY.match(self.raw[index]) is not None

    def _is_title(self, index: int) -> bool:
        """Whether line ``index`` is text short enough to be a heading."""
        title = _TAG.sub("", self.raw[index]).strip()
        return (
            self.role[index] == _TEXT
            and 0 < len(title) <= MAX_TITLE
            and not _SEPARATOR.match(title)
            and not self._is_tags(index)
        )

    def _is_headline(self, index: int) -> bool:
        """A heading in capitals at a line's start (``helpHeadline``): with its tags, or
        alone between blank lines (``CONTENTS``)."""
        line = self.raw[index]
        title = _TAG.sub("", line).strip()
        if line[:1].isspace() or not _CAPITALS.match(title) or title.startswith("CTRL-"):
            return False
        letters = sum(c.isalpha() for c in title)
        if _TAG.search(line):
            return letters >= 2
        around = (self.raw[index - 1], self.raw[index + 1] if index + 1 < len(self.raw) else "")
        return letters >= 3 and not any(line.strip() for line in around)

    def _heading(self, index: int, level: int, line: str) -> None:
        """Line ``index`` a heading of ``level`` titled by ``line``'s words. Its tags, and
        those of a line of tags alone just above it (which tag the heading), move to the
        blank line below, or lead the text line below (not a heading's)."""
        tags = " ".join(_TAG.findall(line))
        above = index - 1
        if above >= 0 and self.role[above] == _TEXT and _TAGS_ONLY.match(self.raw[above]):
            tags = " ".join([*self.raw[above].split(), *tags.split()])
            self.raw[above], self.role[above] = "", _BLANK
        title = " ".join(_RULING.sub(" ", _LINK.sub(r"\1", _TAG.sub("", line))).split())
        title = boxed.group(1) if (boxed := _BOXED.match(title)) else title
        self.role[index], self.shown[index] = _SHOWN, "#" * level + " " + title
        below = index + 1
        if not tags or below >= len(self.raw) or self.role[below] != _TEXT:
            return
        if not self.raw[below].strip():
            self.raw[below] = tags
        elif not _HEADER.match(self.raw[below]) and not _SEPARATOR.match(self.raw[below]):
            self.raw[below] = tags + " " + self.raw[below].lstrip()

    def fence(self, opening: int, closing: int, close: str, language: str, marker: int) -> None:
        """An example's fences, where there is room for them; else its lines as text."""
        before = self.raw[opening][:marker].strip()
        moved_up = bool(before)
        if moved_up and (opening == 0 or self.role[opening - 1] != _TEXT):
            return self._as_text(opening, closing, close, before)
        end = self._closing_slot(opening, closing, close)
        if end is None:
            return self._as_text(opening, closing, close, before)
        if moved_up:
            above = self.raw[opening - 1].rstrip()
            above = above.lstrip() if _TAGS_ONLY.match(above) else above  # not code to markdown
            self.raw[opening - 1] = f"{above} {before}" if above else before
        self.shown[opening] = _FENCE + language
        if end < len(self.raw):
            self.role[end], self.shown[end] = _SHOWN, _FENCE

    def _closing_slot(self, opening: int, closing: int, close: str) -> int | None:
        """The line the closing fence takes (its text moved to the next line), the file's
        length for a fence that runs to the end, or ``None`` where there is no room."""
        lines, after = self.raw, closing + 1
        if close == "end":
            last = len(lines) - 1
            return last if last > opening and not lines[last].strip() else len(lines)
        if close == "dedent" and closing - 1 > opening and not lines[closing - 1].strip():
            return closing - 1
        if close == "dedent" and self.role[closing] == _BLANK:
            return closing  # a separator, blanked
        rest = lines[closing][1:].strip() if close == "<" else lines[closing].strip()
        if not rest:
            return closing
        if close == "dedent" and self.role[closing] != _TEXT:
            return None
        if after >= len(lines) or self.role[after] != _TEXT or _HEADER.match(lines[after]):
            return None
        lines[after] = f"{rest} {lines[after].lstrip()}" if lines[after].strip() else rest
        return closing

    def _as_text(self, opening: int, closing: int, close: str, before: str) -> None:
        """An example without room for its fences: its lines text, its markers dropped."""
        self.role[opening], self.raw[opening] = _TEXT, before
        for index in range(opening + 1, min(closing, len(self.raw))):
            if self.role[index] == _CODE:
                self.role[index] = _TEXT
        if close == "<":
            self.role[closing], self.raw[closing] = _TEXT, self.raw[closing][1:]

    def markdown(self) -> str:
        out = []
        for role, raw, shown in zip(self.role, self.raw, self.shown, strict=True):
            if role == _TEXT and _TAGS_ONLY.match(raw):
                out.append(raw.strip())  # right-aligned tags: the alignment is no text
            elif role == _TEXT:
                out.append(escape_line(_LINK.sub(r"\1", raw)))
            elif role == _CODE:
                out.append(
                    raw.replace(_FENCE, "` ``", 1) if raw.lstrip().startswith(_FENCE) else raw
                )
            else:
                out.append(shown)
        return "\n".join(out)
