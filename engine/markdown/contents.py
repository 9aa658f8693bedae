"""A page's own table of contents, blanked: it is navigation, not knowledge.

Pages written for GitHub often open with a list of links to their own sections
(``- [Install](#install)``, Catch2's ``**Contents**<br>`` and a ``[…](#…)<br>`` line per
section) and an anchor to come back to (``<a id="top"></a>``). Rendered, it is the page's
menu; indexed, it fills the first entry of the page with the titles of every section, so
that entry's vector (the model reads its first 256 tokens) says little of what the page
is for, and a keyword search for any section's words finds the menu. The AsciiDoc and
HTML readers leave their tables of contents out already (:mod:`.asciidoc`,
:mod:`.html_docs`).

:func:`blank_contents` blanks, outside code, line for line (chunks cite the file's own
lines):

* a list or a paragraph whose every line is links to anchors of the page (two at least),
  and a "Contents" label among them;
* a heading that names a table of contents (``## Table of Contents``) right above one;
* an HTML block or a paragraph that is nothing but anchors (``<a id="top"></a>``,
  ``<a name="x"></a>``).

A paragraph that says anything besides its links (``See [Install](#install) first.``)
is prose and stays.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.markdown.blocks import parse_blocks

if TYPE_CHECKING:
    from markdown_it.token import Token

_LINK = r"(?:\[[^\]\n]*\]\(#[^)\s]*\)|<a\s+href=\"#[^\"]*\"\s*>[^<\n]*</a>)"
_LINKS_LINE = re.compile(
    r"[ \t]*(?:[-*+]|\d+[.)])?[ \t]*(?:" + _LINK + r"[ \t|·•,]*)+(?:<br\s*/?>)?[ \t]*",
    re.IGNORECASE,
)
"""A line of links to the page's own anchors, and nothing else."""
_LABEL = re.compile(
    r"[ \t]*(?:\*\*|__|\*|_)?[ \t]*(?:table[ \t]+of[ \t]+contents|contents|toc|on[ \t]+this"
    r"[ \t]+page|in[ \t]+this[ \t]+(?:article|document|page|guide))[ \t]*:?[ \t]*"
    r"(?:\*\*|__|\*|_)?[ \t]*(?:<br\s*/?>)?[ \t]*",
    re.IGNORECASE,
)
"""A table of contents' label: ``Contents``, ``**Table of Contents**<br>``."""
_ANCHORS = re.compile(
    r"(?:[ \t]*<a\s+(?:id|name)=(?:\"[^\"]*\"|'[^']*')\s*/?>(?:[ \t]*</a>)?[ \t]*\n?)+",
    re.IGNORECASE,
)
"""An HTML block of anchors only."""
_TRIGGER = re.compile(r"\]\(#|<a\s+(?:id|name|href=\"#)", re.IGNORECASE)
_CONTAINERS = {"bullet_list_open", "ordered_list_open", "paragraph_open"}


def blank_contents(lines: Sequence[str]) -> list[str]:
    """``lines`` with the page's table of contents and bare anchors blanked (module
    docstring); the number of lines never changes."""
    result = list(lines)
    if not any(_TRIGGER.search(line) for line in result):
        return result
    tokens = parse_blocks("\n".join(result))
    blanked: set[int] = set()  # the first line of each block blanked
    label: tuple[int, int] | None = None  # a "Contents" heading's lines, awaiting its list
    index = 0
    while index < len(tokens):
        token = tokens[index]
        close = _closing(tokens, index)
        if token.map is None or token.level != 0:
            index = close + 1
            continue
        first, end = token.map
        if token.type == "heading_open":
            label = (first, end) if _LABEL.fullmatch(tokens[index + 1].content) else None
            index = close + 1
            continue
        after = tokens[index + 1] if index + 1 < len(tokens) else None
        if (token.type in _CONTAINERS and _menu(tokens[index:close])) or _anchors(token, after):
            result[first:end] = [""] * (end - first)
            blanked.add(first)
            if label is not None and token.type != "html_block":
                result[label[0] : label[1]] = [""] * (label[1] - label[0])
        if token.type != "html_block":
            label = None
        index = close + 1
    return result


def _closing(tokens: list[Token], index: int) -> int:
    """The index of the token that closes the one at ``index`` (itself when it opens
    nothing)."""
    if tokens[index].nesting != 1:
        return index
    depth = 0
    for at in range(index, len(tokens)):
        depth += tokens[at].nesting
        if depth == 0:
            return at
    return len(tokens) - 1


def _anchors(token: Token, after: Token | None) -> bool:
    """Whether the block ``token`` opens (an HTML block, or a paragraph whose inline
    content is ``after``) is nothing but anchors."""
    if token.type == "html_block":
        return _ANCHORS.fullmatch(token.content) is not None
    return (
        token.type == "paragraph_open"
        and after is not None
        and (_ANCHORS.fullmatch(after.content) is not None)
    )


def _menu(block: list[Token]) -> bool:
    """Whether the list or paragraph ``block`` (its tokens) is links to the page's
    anchors only, two at least, besides a label."""
    links = 0
    for token in block:
        if token.type != "inline":
            continue
        for line in token.content.split("\n"):
            if _LINKS_LINE.fullmatch(line):
                links += line.count("](#") + line.lower().count('href="#')
            elif not _LABEL.fullmatch(line) and line.strip():
                return False
    return links >= 2
