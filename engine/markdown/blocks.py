"""The block structure of a markdown document, as CommonMark with GFM tables defines it.

markdown-it-py parses the blocks (its inline pass is switched off: only block boundaries
matter here). It follows the CommonMark spec exactly, so setext headings (``Title`` over
``===`` or ``---``) are headings, and a fence left open inside a list item or a block quote
ends with its container instead of hiding the rest of the file. Its GFM table rule is on
(:data:`BLOCK_RULES`): a setext underline only turns a *paragraph* into a heading, and
without the rule a table is a paragraph, so the ``-----`` many READMEs draw under a table
would title a section by the whole table (go-chi/chi's middleware list). Its block parser
is linear in the input (bench/parse_adversarial.py measures it on hostile input).

markdown-it is imported on first use: only indexing and ``doctor`` parse markdown, never the
prompt hook or keyword search.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from html.parser import HTMLParser
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token


class FenceRole(Enum):
    """What a line is with respect to fenced code blocks."""

    NONE = "none"
    """Ordinary markdown, outside any fence."""
    OPEN = "open"
    """The opening fence line (```` ```lang ```` or ``~~~``)."""
    BODY = "body"
    """A line inside a fenced block."""
    CLOSE = "close"
    """The closing fence line."""


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading of the document (not one nested in a list or quote)."""

    level: int
    """1 to 6; a setext heading is 1 (``===``) or 2 (``---``)."""
    text: str
    """The heading's text, on one line, without ``#`` marks or underline."""
    last: int
    """0-based last line: the heading's own line, or a setext heading's underline."""


@dataclass(frozen=True, slots=True)
class BlockMap:
    """Per-line facts about a document that the parser and the chunker need."""

    roles: list[FenceRole]
    """Each line's place with respect to fenced code blocks."""
    code: list[bool]
    """Whether each line is code (fenced or indented), where nothing is markup."""
    headings: dict[int, Heading]
    """Headings by their 0-based first line."""
    rules: set[int]
    """0-based lines of thematic breaks (``---``, ``***``): a rule drawn across the page,
    no text (go-chi/chi's README draws one between a heading and its table)."""


BLOCK_RULES = ("table",)
"""markdown-it rules enabled on top of CommonMark's for the block structure: GFM tables, as
GitHub and most renderers read them (what they are, not what they show, is all that
matters here: a table is no paragraph, so no setext heading)."""


@cache
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark").enable(list(BLOCK_RULES))
    parser.disable("inline")  # block boundaries are all that is needed
    return parser


_INLINE_MARKUP = re.compile(r"[\[\]`\\&<*_!]")
"""A character that may open inline markup; a heading without one is its own text."""
_DOCUMENTER_ID = re.compile(r"\]\(@id[ \t]+[^()\s]+\)")
"""Documenter.jl's custom anchor, ``## [Header text](@id anchor-name)`` (its manual's
"Syntax" page): a link whose text is the heading's, which CommonMark would leave as
written (a destination holds no space)."""


def heading_text(source: str, env: dict[str, Any] | None = None) -> str:
    """A heading's text as its reader sees it, on one line: links and images show their
    text (a reference link's too: ``Hashing ([Java][Hashing]/[Kotlin][HashingKt])`` →
    ``Hashing (Java/Kotlin)``), an image (an HTML ``<img>`` too) its ``alt`` text where the
    heading shows nothing else (a logo for a title), nothing beside words (a build
    badge: ``Hiccup [![Build Status](…)](…)`` → ``Hiccup``), other inline HTML of
    :data:`HEADING_HTML` and ``*`` emphasis marks are dropped (the text between the tags
    stays), entities and escapes show their character (``&ensp;`` a space), inline code
    stays in its backticks, Documenter's ``[Header](@id anchor)`` shows ``Header``.
    Underscores stay: ``__init__`` and ``_private`` name code far
    more often than they emphasise, and so does what reads as a type's parameter
    (``Option<T>``). A heading that shows nothing (``# <img src="logo.svg">``, a logo
    without ``alt`` text) has the empty text: it is no title. ``env``: the document's
    parse's (its link reference definitions)."""
    if _INLINE_MARKUP.search(source) is None:
        return " ".join(source.split())
    source = _DOCUMENTER_ID.sub("](#)", source)
    shown: list[tuple[str, bool]] = []  # what shows, and whether an image's alt shows it
    for inline in _inline_parser().parseInline(source, dict(env or {})):
        for child in inline.children or ():
            if child.type == "image":  # an image's content is its alt text
                shown.append((child.content, True))
            elif child.type == "html_inline":
                tag = _HtmlTag(child.content)
                shown.append((_html_shown(child.content, tag), tag.name == "img"))
            else:
                shown.append((_inline_shown(child), False))
    words = any(text.strip() for text, image in shown if not image)
    # badges beside the words are decoration; a logo alone is the title
    return " ".join("".join(t for t, image in shown if not (image and words)).split())


def _inline_shown(child: Any) -> str:
    """What one inline token of a heading other than an image or HTML shows its reader."""
    if child.type == "text":
        return str(child.content)
    if child.type == "code_inline":
        return str(child.markup + child.content + child.markup)
    if child.type in ("softbreak", "hardbreak"):
        return " "
    if child.type.startswith(("em_", "strong_")) and "_" in child.markup:
        return str(child.markup)
    return ""


HEADING_HTML = frozenset(
    {
        *("a", "abbr", "b", "big", "br", "center", "code", "del", "div", "em", "font", "i"),
        *("img", "ins", "kbd", "mark", "nobr", "picture", "s", "samp", "small", "source"),
        *("span", "strike", "strong", "sub", "sup", "tt", "u", "var", "wbr"),
    }
)
"""Inline HTML a heading uses for its looks, its layout or its anchor: a reader sees what is
between its tags (an ``<img>`` its ``alt`` text), not the tags. Any other ``<…>`` reads as
text (``Option<T>``); an HTML comment is dropped."""

LINE_BREAKING_HTML = frozenset({"br", "center", "div"})
"""Elements of :data:`HEADING_HTML` that start a new line: their tags read as a space."""


def _html_shown(source: str, tag: _HtmlTag | None = None) -> str:
    """What one inline HTML token (a tag, a comment) of a heading shows its reader
    (``tag``: the token read already)."""
    tag = tag or _HtmlTag(source)
    if tag.comment:
        return ""
    if tag.name not in HEADING_HTML:
        return source
    if tag.name == "img" and not tag.closing:
        return tag.attributes.get("alt") or ""
    return " " if tag.name in LINE_BREAKING_HTML else ""


class _HtmlTag(HTMLParser):
    """The first tag of an inline HTML token, read by the standard library's HTML parser
    (quoting, entities and case of attributes as a browser reads them)."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.name = ""
        """The element's name, lower case; empty for a comment or a declaration."""
        self.closing = False
        """Whether the tag is an end tag (``</span>``)."""
        self.comment = False
        """Whether the token is an HTML comment."""
        self.attributes: dict[str, str | None] = {}
        """The start tag's attributes (the first of a repeated one, as HTML reads them)."""
        self.feed(source)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not (self.name or self.comment):
            self.name = tag
            for key, value in attrs:
                self.attributes.setdefault(key, value)

    def handle_endtag(self, tag: str) -> None:
        if not (self.name or self.comment):
            self.name, self.closing = tag, True

    def handle_comment(self, data: str) -> None:
        if not self.name:
            self.comment = True


@cache
def _inline_parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark")


def parse_blocks(text: str, env: dict[str, Any] | None = None) -> list[Token]:
    """markdown-it's block tokens for ``text`` (CommonMark and GFM tables)."""
    return parse_tokens(_parser(), text, env)


def parse_tokens(parser: MarkdownIt, text: str, env: dict[str, Any] | None = None) -> list[Token]:
    """``parser``'s tokens for ``text``, with the cyclic garbage collector paused; ``env``
    receives what the parse learns (the link reference definitions).

    A large document makes hundreds of thousands of tokens, none of them in a reference
    cycle; letting the collector walk them over and over doubled the parse time.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return parser.parse(text, env)
    finally:
        if enabled:
            gc.enable()


def document_headings(text: str) -> list[tuple[int, str]]:
    """``(level, text)`` of each heading of the document ``text`` (not one nested in a
    list or quote), in order, as :func:`block_map` reads them: the one reading of headings
    the chunker and the analyzer's outlines share."""
    env: dict[str, Any] = {}
    tokens = parse_blocks(text, env)
    return [
        (int(token.tag[1]), heading_text(tokens[index + 1].content, env))
        for index, token in enumerate(tokens)
        if token.type == "heading_open" and token.level == 0
    ]


def block_map(lines: Sequence[str]) -> BlockMap:
    """Fences, code, headings and rules of the document made of ``lines``."""
    roles = [FenceRole.NONE] * len(lines)
    code = [False] * len(lines)
    headings: dict[int, Heading] = {}
    rules: set[int] = set()
    env: dict[str, Any] = {}
    tokens = parse_blocks("\n".join(lines), env)
    for index, token in enumerate(tokens):
        if token.map is None:
            continue
        first, end = token.map
        if token.type == "fence":
            _mark_fence(lines, roles, first, min(end, len(lines)), token.markup)
            code[first:end] = [True] * (end - first)
        elif token.type == "code_block":
            code[first:end] = [True] * (end - first)
        elif token.type == "heading_open" and token.level == 0:
            headings[first] = Heading(
                int(token.tag[1]), heading_text(tokens[index + 1].content, env), end - 1
            )
        elif token.type == "hr" and token.level == 0:
            rules.add(first)
    return BlockMap(roles, code, headings, rules)


def _mark_fence(
    lines: Sequence[str], roles: list[FenceRole], first: int, end: int, markup: str
) -> None:
    roles[first] = FenceRole.OPEN
    roles[first + 1 : end] = [FenceRole.BODY] * (end - first - 1)
    last = end - 1
    if last > first and _closes(lines[last], markup):
        roles[last] = FenceRole.CLOSE


def _closes(line: str, markup: str) -> bool:
    """Whether ``line`` (container prefixes aside) is a closing fence for ``markup``."""
    fence = line.lstrip(" \t>").rstrip()
    return len(fence) >= len(markup) and fence == markup[0] * len(fence)


def fence_roles(lines: Sequence[str]) -> list[FenceRole]:
    """Classify each line as outside, opening, inside or closing a fenced code block.

    CommonMark's rules: a fence is three or more backticks or tildes indented at most three
    spaces (relative to its list item or quote), closed by a line of the same character at
    least as long; an unclosed fence runs to the end of its container.
    """
    return block_map(lines).roles


PLAIN_TEXT_FENCES = frozenset({"text", "txt", "plain", "plaintext", "output"})
"""Fence languages of plain text: a program's output, not code (Pygments' and highlight.js's
names for plain text, and ``output``)."""


def plain_text_fence(opener: str) -> bool:
    """Whether a fence's opening line names plain text as its language (its info string's
    first word, as CommonMark reads it, in :data:`PLAIN_TEXT_FENCES`)."""
    info = opener.strip().lstrip("`~").strip().lstrip("{.").split(maxsplit=1)
    return bool(info) and info[0].rstrip("}").lower() in PLAIN_TEXT_FENCES
