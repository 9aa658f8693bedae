"""Markup in markdown that is not prose: MyST/Sphinx syntax and HTML headings.

Documentation built with Sphinx and MyST writes its structure in markdown that a plain
CommonMark reader sees as text: labels (``(install)=``), roles (``{func}`click.echo```),
directives (````` ```{note} ````` or ``:::{note}`` fences), line comments (``% …``),
attribute lines (``{.hide-header}``, ``{#id}``). Left as they are, a label becomes a chunk of
its own, titled by itself, and an admonition's prose is stored as a code block. Pages written
for GitHub often use HTML headings (``<h3 id="q">How do I…?</h3>``), which CommonMark reads as
an HTML block, so a whole FAQ becomes one section cut at fixed sizes.

:func:`strip_markup` rewrites a document's lines, their number unchanged (so chunks still cite
the file's lines), into what a reader of the rendered page sees:

* labels, MyST comments and block breaks, and attribute lines are blanked; a heading's
  trailing attributes (``## Title {#id}``) are dropped;
* a role becomes its text (``{ref}`the guide <guide>``` → ``the guide``);
* a directive fence becomes its content, by kind: an admonition or any other directive whose
  body is markdown keeps its title or argument as a line and its body as prose (nested
  directives are unwrapped in turn); a code directive becomes an ordinary fence with its
  language; a directive that shows no text of its own (``toctree``, ``currentmodule``,
  ``include``…) is blanked; an ``eval-rst`` body is read as reStructuredText
  (:mod:`.rst`); option lines (``:caption: x``, a ``---`` block) are blanked;
* an HTML heading that opens a line (after tags only) becomes an ATX heading on its first
  line, returned in ``headings`` so the chunker opens a section there even inside an HTML
  block.

The block structure comes from markdown-it-py with mdit-py-plugins' ``colon_fence`` and
``myst_blocks`` (the parsers MyST itself is built on); the directive kinds are in
:mod:`.directives`. Documents without any such syntax are returned as they are, after one
linear scan.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from engine.markdown.blocks import BLOCK_RULES, Heading, parse_tokens
from engine.markdown.directives import (
    LITERAL_DIRECTIVES,
    SILENT_DIRECTIVES,
    argument_line,
    by_paragraph,
    code_language,
    describes,
    description_heading,
    replace_roles,
)
from engine.markdown.rst import rst_as_markdown

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

_RST_DIRECTIVES = frozenset({"eval-rst", "eval-rest"})
MAX_PASSES = 8
"""Directive fences nested deeper than this stay as they are (hostile input stays linear)."""

# Quick test: could the text hold anything this module rewrites?
_TRIGGER = re.compile(
    r"^ {0,3}(?:\([^()\s]*\)=|[`~]{3,}[ \t]*\{|:{3,}|\{[ \t]*[:#.%\w-])|\{[\w:.+-]+\}`|<[hH][1-6]"
    r"|[ \t]\{[ \t]*[#.]",
    re.M,
)
_DIRECTIVE = re.compile(r"\{([A-Za-z][\w:.+-]*)\}[ \t]*(.*)")
_ROLE = re.compile(r"(?<!`)\{([A-Za-z][\w:.+-]*)\}(`+)")
_OPTION = re.compile(r"^[ \t]*:[\w.-]+:(?:[ \t]|$)")
_ATTRIBUTE_LINE = re.compile(r"^ {0,3}\{[ \t]*(?:[:#.%][^{}]*|[\w-]+=[^{}]*)\}[ \t]*$")
_HEADING_ATTRIBUTES = re.compile(r"[ \t]+\{[ \t]*[#.][^{}]*\}[ \t]*$")
_TAG = re.compile(r"<[^<>]*>")
_HTML_HEADING = re.compile(r"<h([1-6])(?:[ \t][^<>]*)?>", re.I)


@dataclass(slots=True)
class Markup:
    """A document's lines as rendered, and the HTML headings found in them."""

    lines: list[str]
    headings: dict[int, Heading] = field(default_factory=dict)
    """HTML headings by their 0-based first line (their lines now read ``### Title``)."""


@cache
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.colon_fence import colon_fence_plugin
    from mdit_py_plugins.myst_blocks import myst_block_plugin

    parser = MarkdownIt("commonmark").enable(list(BLOCK_RULES))  # headings as blocks.py's
    parser.use(colon_fence_plugin).use(myst_block_plugin)
    parser.disable("inline")
    return parser


def strip_markup(lines: Sequence[str]) -> Markup:
    """The lines of a markdown document with MyST/Sphinx markup and HTML headings rewritten
    (see the module docstring); the number of lines never changes."""
    result = list(lines)
    if not _TRIGGER.search("\n".join(result)):
        return Markup(result)
    myst = False
    for _ in range(MAX_PASSES):
        tokens = parse_tokens(_parser(), "\n".join(result))
        unwrapped = _unwrap_directives(tokens, result)
        myst = myst or unwrapped
        if not unwrapped:
            break
    code = [False] * len(result)
    headings: dict[int, Heading] = {}
    for token in tokens:
        if token.map is None:
            continue
        first, end = token.map[0], min(token.map[1], len(result))
        if token.type in ("fence", "code_block", "colon_fence"):
            code[first:end] = [True] * (end - first)
        elif token.type == "myst_target":
            result[first:end] = [""] * (end - first)
            myst = True
        elif token.type == "html_block" and token.level == 0:
            headings.update(_html_headings(result, first, end))
        elif token.type == "heading_open" and token.level == 0:
            result[first] = _HEADING_ATTRIBUTES.sub("", result[first])
    for token in tokens:
        # A ``%`` line or ``+++`` is a comment or a break in MyST, but text in other markdown.
        if token.map and token.type in ("myst_line_comment", "myst_block_break") and myst:
            result[token.map[0] : token.map[1]] = [""] * (token.map[1] - token.map[0])
    for index, line in enumerate(result):
        if not code[index] and index not in headings and _ATTRIBUTE_LINE.match(line):
            result[index] = ""
    skip = [code[i] or i in headings for i in range(len(result))]
    by_paragraph(result, skip, replace_myst_roles)
    return Markup(result, headings)


def _unwrap_directives(tokens: list[Token], lines: list[str]) -> bool:
    """Rewrite every directive fence among ``tokens`` in ``lines``; whether there was one.

    Fences nested in a directive's body are code to this parse; the next pass finds them.
    """
    found = False
    section = 0  # the level of the heading the fences are under
    for token in tokens:
        if token.type == "heading_open" and token.level == 0:
            section = int(token.tag[1:])
        if token.type not in ("fence", "colon_fence") or token.map is None:
            continue
        match = _DIRECTIVE.fullmatch(token.info.strip())
        if match is None:
            continue
        found = True
        first, end = token.map[0], min(token.map[1], len(lines))
        name, argument = match[1].lower(), match[2].strip()
        close = end - 1 if end - 1 > first and _closes(lines[end - 1], token.markup) else end
        body = _skip_options(lines, first + 1, close)
        indent = lines[first][: len(lines[first]) - len(lines[first].lstrip())]
        lines[first + 1 : body] = [""] * (body - first - 1)
        if name in LITERAL_DIRECTIVES:
            language = code_language(name, argument)
            fence = "~" * max(3, len(token.markup)) if token.markup[0] == ":" else token.markup
            while body < close - 1 and not lines[body].strip():
                body += 1
            # The fence opens right above the code, below the blanked options.
            lines[first:body] = [""] * (body - first - 1) + [f"{indent}{fence}{language}"]
            if close < end:
                lines[close] = indent + fence
            elif token.markup[0] == ":":
                lines[body - 1] = ""  # an unclosed colon fence would hide the rest as code
            continue
        described = describes(name, argument, any(x.strip() for x in lines[body:close]))
        if name in SILENT_DIRECTIVES and not described:
            lines[first:end] = [""] * (end - first)
            continue
        if described and token.level == 0:  # a section of its own, as in reStructuredText
            _describe(lines, (first, close, end), section + 1, argument)
            continue
        if name in _RST_DIRECTIVES:  # its body is reStructuredText
            lines[first], lines[close:end] = "", [""] * (end - close)
            lines[body:close] = rst_as_markdown("\n".join(lines[body:close])).split("\n")
            continue
        lines[first] = indent + argument_line(name, argument) if argument else ""
        if close < end:
            lines[close] = ""
    return found


def _describe(lines: list[str], span: tuple[int, int, int], level: int, signature: str) -> None:
    """An object description's fence (opening line, closing line, end) as a heading at
    ``level`` titled by the name it describes, its signature on the blank line below."""
    first, close, end = span
    lines[first], shown = description_heading(level, signature)
    if shown and first + 1 < close and not lines[first + 1].strip():
        lines[first + 1] = shown
    if close < end:
        lines[close] = ""


def _closes(line: str, markup: str) -> bool:
    fence = line.strip()
    return len(fence) >= len(markup) and fence == markup[0] * len(fence)


def _skip_options(lines: list[str], first: int, close: int) -> int:
    """The first body line after a directive's options (``:key: value`` lines or a ``---``
    YAML block) starting at ``first``."""
    if first < close and lines[first].strip() == "---":
        end = next((i for i in range(first + 1, close) if lines[i].strip() == "---"), None)
        return first if end is None else end + 1
    index = first
    while index < close and _OPTION.match(lines[index]):
        index += 1
    return index


def replace_myst_roles(text: str) -> str:
    """``text`` with every ``{role}`text``` replaced by the text it shows (a role whose
    backticks never close stays as written)."""
    return replace_roles(text, _ROLE) if "}`" in text else text


def _html_headings(lines: list[str], first: int, end: int) -> dict[int, Heading]:
    """HTML headings in the HTML block ``first..end``, each rewritten as an ATX heading.

    A heading counts when only tags precede it on its line and only tags follow its closing
    tag; one with no text (a logo in an ``<h1>``) is not a heading.
    """
    found: dict[int, Heading] = {}
    index = first
    while index < end:
        line = lines[index]
        opener = _HTML_HEADING.search(line)
        if opener is None or _TAG.sub("", line[: opener.start()]).strip():
            index += 1
            continue
        level = opener[1]
        closing = f"</h{level}>"
        last, start = index, opener.end()
        while last < end and closing not in lines[last][start:].lower():
            last, start = last + 1, 0
        if last == end:
            break
        position = lines[last].lower().index(closing, start)
        rest = lines[last][position + len(closing) :]
        inner = "\n".join([lines[index][opener.end() :], *lines[index + 1 : last + 1]])
        inner = inner[: len(inner) - len(lines[last]) + position]
        text = " ".join(html.unescape(_TAG.sub(" ", replace_myst_roles(inner))).split())
        if text and not _TAG.sub("", rest).strip():
            lines[index : last + 1] = ["#" * int(level) + " " + text] + [""] * (last - index)
            found[index] = Heading(int(level), text, last)
        index = last + 1
    return found
