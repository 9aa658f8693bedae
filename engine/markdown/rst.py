"""reStructuredText documents (Sphinx docs) read as the markdown the chunker understands.

:func:`rst_as_markdown` rewrites an ``.rst`` file line by line, the number of lines unchanged
(chunks cite the file's own lines):

* section titles, found by docutils (the reference parser: a title's level is the order in
  which its adornment style first appears, overline or not), become ATX headings of their
  level on the title's line; the adornment lines are blanked;
* explicit markup is read by kind: hyperlink targets (``.. _label:``), substitution
  definitions and comments are blanked; a directive whose body is prose (``note``,
  ``versionadded``, ``autofunction``…) keeps its argument as a line and its body, dedented;
  a code directive's body becomes an indented code block; a directive that shows no text
  (``toctree``, ``currentmodule``…) is blanked; option lines are blanked. The directive
  kinds are those of :mod:`engine.markdown.directives`, shared with MyST;
* a literal block (a paragraph ending in ``::``) becomes an indented code block;
* roles (``:func:`click.echo```, ``:ref:`the guide <guide>```) and references
  (```the guide <https://…>`_``) become the text they show;
* the field list that opens a file (``:orphan:``, ``:tocdepth: 2``) is blanked.

docutils parses with every report silenced, file and raw inclusion off and its
configuration files ignored, and never sees inline markup (only the sections are wanted);
a document it cannot parse, or one of more than ``MAX_BLOCKS`` blocks (hostile input),
simply has no headings. The rest of the rewriting is line-based and linear.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Any

from engine.markdown.asciidoc import ASCIIDOC_SUFFIXES, asciidoc_as_markdown
from engine.markdown.directives import (
    LITERAL_DIRECTIVES,
    SILENT_DIRECTIVES,
    argument_line,
    by_paragraph,
    describes,
    description_heading,
    replace_roles,
    role_text,
)
from engine.markdown.html_docs import HTML_SUFFIXES, html_as_markdown
from engine.markdown.literate import literate_as_markdown
from engine.markdown.notebooks import NOTEBOOK_SUFFIX, notebook_as_markdown
from engine.markdown.plain import plain_as_markdown, text_kind
from engine.markdown.prose_markup import OWN_DIALECTS, markup_as_markdown
from engine.markdown.xml_docs import XML_SUFFIXES, xml_as_markdown
from engine.markdown.yaml_docs import YAML_SUFFIXES, yaml_as_markdown

RST_SUFFIX = ".rst"

_DOCUTILS_SETTINGS = {
    "report_level": 5,  # no reports at all
    "halt_level": 5,  # never stop on an error
    "warning_stream": False,
    "_disable_config": True,  # never read a docutils.conf from the working directory
    "file_insertion_enabled": False,  # ``.. include::`` must not read other files
    "raw_enabled": False,
    "doctitle_xform": False,  # keep the top title a section, so levels stay as written
    "sectsubtitle_xform": False,
    "line_length_limit": 100_000,
}
MAX_BLOCKS = 3_000
"""A document with more titles, list items and explicit markup blocks than this is read
without docutils (so without titles): docutils spends a millisecond or more on each, and a
hostile file of nothing else would hold indexing for minutes. Real pages have hundreds."""
_BLOCK_START = re.compile(
    r"^[ \t]*(?:[-*+•][ \t]|(?:\d+|#)[.)][ \t]|\.\.(?:[ \t]|$))"  # list items, explicit markup
    r"|^([!-/:-@[-`{-~])\1*[ \t]*$"  # a line of one punctuation character: title, transition
)
_INLINE = str.maketrans({c: "x" for c in "`*|_[]<>"})
"""Characters that open or close inline markup, which docutils need not see (``_doctree``)."""
_EXPLICIT = re.compile(r"^([ \t]*)\.\.(?:[ \t]+|$)(.*)$")
_DIRECTIVE = re.compile(r"^(?:\|[^|]+\|[ \t]+)?([A-Za-z][\w:.+-]*)::(?:[ \t]+(.*))?$")
_TARGET = re.compile(r"^_[^:]*:|^__(?:[ \t]|:|$)")
_FOOTNOTE = re.compile(r"^\[[^\]]+\][ \t]*")
_OPTION = re.compile(r"^[ \t]*:[\w .-]+:(?:[ \t]|$)")
_FIELD = re.compile(r"^:[\w -]+:(?:[ \t].*)?$")
_ROLE_BEFORE = re.compile(r"(?<![\w`]):([A-Za-z][\w:.+-]*):(`+)")
_ROLE_AFTER = re.compile(r"(?<![\w`])`([^`]+)`:[A-Za-z][\w:.+-]*:")
_REFERENCE = re.compile(r"(?<![\w`])`([^`]+)`__?(?!\w)")


def as_markdown(text: str, name: str, dialect: str | None = None) -> str:
    """A documentation file's text as markdown: ``.rst`` and AsciiDoc files rewritten
    (:mod:`engine.markdown.asciidoc`), man pages, Vim help and plain-text files too
    (:mod:`engine.markdown.plain`), YAML documentation (:mod:`engine.markdown.yaml_docs`),
    Jupyter notebooks (:mod:`engine.markdown.notebooks`), F# literate scripts
    (:mod:`engine.markdown.literate`), HTML pages
    (:mod:`engine.markdown.html_docs`),
    the other prose formats by their ``dialect`` (Linguist's name for the format:
    :mod:`engine.markdown.prose_markup`), markdown as it is."""
    lowered = name.lower()
    if dialect == "restructuredtext" or lowered.endswith(RST_SUFFIX):
        return rst_as_markdown(text)
    if dialect == "asciidoc" or lowered.endswith(ASCIIDOC_SUFFIXES):
        return asciidoc_as_markdown(text)
    if lowered.endswith(YAML_SUFFIXES):
        return yaml_as_markdown(text)
    if dialect == "notebook" or lowered.endswith(NOTEBOOK_SUFFIX):
        return notebook_as_markdown(text)
    if dialect == "fsdocs":
        return literate_as_markdown(text)
    if dialect == "html" or lowered.endswith(HTML_SUFFIXES):
        return html_as_markdown(text)
    if dialect == "xml" or lowered.endswith(XML_SUFFIXES):
        return xml_as_markdown(text)
    if dialect is not None and dialect not in OWN_DIALECTS:
        return markup_as_markdown(text, dialect)
    kind = text_kind(text, name, dialect)  # found once, for both readers
    if kind == "TeX":  # a LaTeX document by its content
        return markup_as_markdown(text, "TeX")
    return plain_as_markdown(text, name, dialect, kind)


def rst_as_markdown(text: str) -> str:
    """``text`` (reStructuredText) rewritten as markdown, line for line (module docstring)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    titles = dict(_titles(text, lines))
    for index, (level, first, last) in titles.items():
        heading = " ".join(replace_rst_roles(lines[index]).split())
        lines[first : last + 1] = [""] * (last - first + 1)
        lines[index] = "#" * min(level, 6) + " " + heading
    _blank_opening_fields(lines)
    levels = {index: level for index, (level, _, _) in titles.items()}
    code = _Blocks(lines, levels).rewrite()
    by_paragraph(lines, code, replace_rst_roles)
    return "\n".join(lines)


def _titles(text: str, lines: list[str]) -> Iterator[tuple[int, tuple[int, int, int]]]:
    """``(title line, (level, first adornment-or-title line, last))`` of each section title,
    0-based, as docutils finds them; nothing when docutils fails on the text."""
    from docutils import nodes

    if sum(1 for line in lines if _BLOCK_START.match(line)) > MAX_BLOCKS:
        return  # docutils takes a millisecond or more per block: too many on hostile input
    try:
        tree = _doctree(text)
    except Exception:  # any failure of a third-party parser on hostile input
        return
    for title in tree.findall(nodes.title):
        if not isinstance(title.parent, nodes.section) or not title.line:
            continue
        underline = title.line - 1  # docutils reports a title at its underline
        index = underline - 1
        if not 0 <= index < len(lines) - 1 or not _adornment(lines[underline]):
            continue
        first = index
        if index > 0 and lines[index - 1].strip() == lines[underline].strip():
            first = index - 1  # an overline
        depth = sum(1 for parent in _parents(title) if isinstance(parent, nodes.section))
        yield index, (depth, first, underline)


@cache
def _parser() -> tuple[Any, Any]:
    """docutils' reStructuredText parser and its settings, made once (they cost more to make
    than a page costs to parse)."""
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser

    parser = Parser()
    settings = get_default_settings(parser)
    for key, value in _DOCUTILS_SETTINGS.items():
        setattr(settings, key, value)
    return parser, settings


def _doctree(text: str) -> Any:
    """docutils' document tree of ``text`` (its parser alone: no transforms are needed).

    Only the section structure is wanted, and docutils' inline parser takes quadratic time
    on text with thousands of backtick or asterisk runs; so every character that can open
    inline markup is replaced by a letter first, except on adornment lines (titles and
    transitions). Lines and their lengths stay as they were.
    """
    from docutils.utils import new_document

    parser, settings = _parser()
    document = new_document("<rst>", settings)
    lines = text.split("\n")
    parser.parse("\n".join(x if _adornment(x) else x.translate(_INLINE) for x in lines), document)
    return document


def _parents(node: object) -> Iterator[object]:
    parent = getattr(node, "parent", None)
    while parent is not None:
        yield parent
        parent = getattr(parent, "parent", None)


def _adornment(line: str) -> bool:
    stripped = line.strip()
    return len(stripped) >= 2 and stripped == stripped[0] * len(stripped)


def _blank_opening_fields(lines: list[str]) -> None:
    """Blank the field list that opens a document (``:orphan:``, metadata for Sphinx)."""
    for index, line in enumerate(lines):
        if _FIELD.match(line):
            lines[index] = ""
        elif line.strip():
            return


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _block_end(lines: list[str], start: int, indent: int) -> int:
    """The line after the explicit-markup block opened at ``start``: its indented lines."""
    end = start + 1
    last = start
    while end < len(lines):
        if lines[end].strip():
            if _indent(lines[end]) <= indent:
                break
            last = end
        end += 1
    return last + 1


class _Blocks:
    """One forward pass over the lines: explicit markup and literal blocks, in place."""

    def __init__(self, lines: list[str], titles: dict[int, int]) -> None:
        self.lines = lines
        self.titles = titles
        """The level of each section title, by its line."""
        self.code = [False] * len(lines)
        self.level = 0
        """The level of the section or object description the pass is in."""
        self._described: list[tuple[int, int]] = []
        """The object descriptions the pass is inside: (line after each, its level)."""

    def rewrite(self) -> list[bool]:
        """Rewrite every block; which lines are code now."""
        index = 0
        while index < len(self.lines):
            index = self._at(index)
        return self.code

    def _at(self, index: int) -> int:
        """Rewrite the block starting at ``index``, if any; the next line to look at."""
        line = self.lines[index]
        if index in self.titles:
            self.level, self._described = self.titles[index], []
            return index + 1
        if self.code[index] or not line.strip():
            return index + 1
        match = _EXPLICIT.match(line)
        if match is not None:
            return self._explicit(index, match)
        if line.rstrip().endswith("::") and not line.lstrip().startswith(":"):
            return self._literal(index)
        return index + 1

    def _explicit(self, index: int, match: re.Match[str]) -> int:
        """Targets, comments, substitutions, footnotes and directives."""
        lines = self.lines
        indent, rest = len(match[1]), match[2]
        end = _block_end(lines, index, indent)
        directive = _DIRECTIVE.match(rest)
        footnote = _FOOTNOTE.match(rest)
        if footnote is not None:
            lines[index] = match[1] + rest[footnote.end() :]
            return index + 1
        if directive is None or rest.startswith("|") or _TARGET.match(rest):
            lines[index:end] = [""] * (end - index)  # a comment, target or substitution
            return end
        return self._directive(index, end, directive[1].lower(), directive[2] or "")

    def _directive(self, start: int, end: int, name: str, argument: str) -> int:
        """Rewrite the directive at ``start`` (block up to ``end``); the line to go on from."""
        lines = self.lines
        body = start + 1
        while body < end and _OPTION.match(lines[body]):
            body += 1
        lines[start + 1 : body] = [""] * (body - start - 1)
        described = describes(name, argument, any(line.strip() for line in lines[body:end]))
        if name in SILENT_DIRECTIVES and not described:
            lines[start:end] = [""] * (end - start)
            return end
        indent = min((_indent(line) for line in lines[body:end] if line.strip()), default=0)
        if name in LITERAL_DIRECTIVES:
            lines[start] = ""
            self._as_code(body, end, indent)
            return end
        lines[start] = argument_line(name, argument.strip()) if argument.strip() else ""
        # The body is dedented in place and read again: nested markup is handled in turn.
        lines[body:end] = [line[indent:] if line.strip() else "" for line in lines[body:end]]
        if described:
            self._heading(start, end, argument.strip())
        return body

    def _heading(self, start: int, end: int, signature: str) -> None:
        """An object description's line becomes a heading one level below the section (or
        the description) it is in, titled by the name it describes; its signature, when
        it says more, takes the blank line below."""
        while self._described and self._described[-1][0] <= start:
            self._described.pop()
        outer = self._described[-1][1] if self._described else self.level
        self.lines[start], shown = description_heading(outer + 1, signature)
        self._described.append((end, outer + 1))
        after = start + 1
        if shown and after < end and not self.lines[after].strip():
            self.lines[after] = shown

    def _literal(self, index: int) -> int:
        """A paragraph ending in ``::`` introduces a literal block: an indented code block."""
        lines = self.lines
        line = lines[index].rstrip()
        base = _indent(line)
        if not line[:-2].strip():
            lines[index] = ""  # ``::`` alone shows nothing
        elif line[:-2].endswith((" ", "\t")):
            lines[index] = line[:-2].rstrip()  # ``text ::`` shows ``text``
        else:
            lines[index] = line[:-1]  # ``text::`` shows ``text:``
        start = index + 1
        while start < len(lines) and not lines[start].strip():
            start += 1
        if start == len(lines) or _indent(lines[start]) <= base:
            return start
        end = _block_end(lines, start - 1, base)
        indent = min(_indent(x) for x in lines[start:end] if x.strip())
        self._as_code(start, end, indent)
        return end

    def _as_code(self, start: int, end: int, indent: int) -> None:
        for index in range(start, end):
            line = self.lines[index]
            self.lines[index] = "    " + line[indent:] if line.strip() else ""
            self.code[index] = True


def replace_rst_roles(text: str) -> str:
    """``text`` with roles and references replaced by the text they show."""
    text = replace_roles(text, _ROLE_BEFORE)
    text = _ROLE_AFTER.sub(lambda m: role_text(m[1]), text)
    return _REFERENCE.sub(lambda m: role_text(m[1]), text)
