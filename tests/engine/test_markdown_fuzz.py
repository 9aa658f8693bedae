"""Hostile and random markdown through the parser, the chunker and the analyzer's outline.

Hypothesis draws documents from the pieces that have broken markdown parsers (unclosed
fences and comments, directives, setext underlines, list and quote markers, tables, MDX
lines, MyST labels, roles and directive fences, HTML headings, CR/LF mixes, a BOM, NUL).
Whatever it draws, nothing raises, every chunk points at lines of the document and holds
words from it, and no heading CommonMark (with GFM tables) sees is lost (but a table of
contents' label, blanked with it). How fast this goes on 1 MB of such input is measured by
bench/parse_adversarial.py, not here.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from engine.analyzer.docs import outline
from engine.markdown.chunking import chunk_markdown
from engine.markdown.contents import blank_contents
from engine.markdown.parse import blank_html_comments, normalise_newlines, parse_markdown

PIECES = [
    "# ", "## Title", "### ", "#", "####### x", "=====", "-----", "---", "***", "\n", "\n\n",
    "```", "````py", "~~~", "`", "``", "<!--", "-->", "<!-- keywords: a, b -->",
    "<!-- vector-index: false -->", "<!-- keywords: ", "> ", ">", "- ", "* ", "1. ", "   ",
    "    ", "\t", "| a | b |", "|---|---|", "|", "[", "](", ")", "![x](y)", "<", ">", "<div>",
    "</div>", "{#id}", "}", "{/* c */}", "import x from 'y';", "export const a = 1;",
    "<Tabs", "/>", "word", "words here.", "Sentence one. Two!", "é", "\u2028", "\r\n", "\r",
    "\ufeff", "\x00", "title: x", "...", "\nSetext\n=====\n", "\nSub title\n---\n",
    "(label)=", "```{note}", "```{code-block} py", "````{toctree}", ":::", ":::{tip} T",
    ":class: x", "{ref}`a <b>`", "{func}`", "`x`", "<h3>", "<h2 id=\"q\">", "</h3>", "</h2>",
    "<a name=\"x\"></a>", "% note", "+++", "{.cls}", "{#x .y}", "[a](#a)", "<br>",
    "**Contents**<br>", "## Table of Contents", "- [b](#b)\n",
]  # fmt: skip
MARKUP = ("(label)=", "```{", "````{", ":::", "}`", "<h", "% note", "+++", "{.cls}", "{#")
DOCUMENT = st.lists(st.sampled_from(PIECES), max_size=120).map("".join)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
REFERENCE = MarkdownIt("commonmark").enable("table")  # a table under dashes is no heading
WORD = re.compile(r"\w+")


def reference_headings(body: str) -> list[tuple[int, str, bool]]:
    """``(line, text, bare)`` of each top-level heading CommonMark (with GFM tables) finds,
    parsed independently: 1-based first line, text on one line, and whether another heading
    or the end follows it."""
    tokens = [t for t in REFERENCE.parse(body) if t.level == 0 or t.type == "inline"]
    lines = body.split("\n")
    starts = [t.map[0] for t in tokens if t.type == "heading_open" and t.map] + [len(lines)]
    found = []
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.map:
            text = " ".join(tokens[index + 1].content.split())
            after = tokens[index + 3].type if index + 3 < len(tokens) else "heading_open"
            # Text that is only whitespace to Python (U+2028, which CommonMark reads as a
            # paragraph) is no text under the heading either.
            following = lines[token.map[1] : min(s for s in starts if s >= token.map[1])]
            blank = not "".join(following).strip()
            # A setext heading's first lines that are only whitespace to Python (U+2028) are
            # not where it starts for a reader, nor for the chunker.
            start = token.map[0]
            while start < token.map[1] - 1 and not lines[start].strip():
                start += 1
            found.append((start + 1, text, after == "heading_open" or blank))
    return found


@SETTINGS
@given(DOCUMENT, st.sampled_from(["", "a.md", "a.markdown", "a.mdx"]), st.integers(100, 600))
@example("---\r\n---", "a.md", 100)  # front matter to the last line: found by this test
@example('<a name="x"></a>\nSetext\n=====\n####### x', "", 100)  # a setext heading of two lines
@example('# # # \n<a name="x"></a>', "", 100)  # nothing but an anchor under a heading
@example("| a | b |\n|---|---|\n-----\nword", "", 100)  # dashes under a table: no heading
@example("\x00[a](#a)\nSetext\n=====\n####### x", "", 100)  # a NUL in a heading: U+FFFD
def test_parse_and_chunk_any_text(text: str, name: str, size: int) -> None:
    parsed = parse_markdown(text, name)

    body_lines = parsed.body.split("\n")
    original = normalise_newlines(text).removeprefix("\ufeff").split("\n")
    assert len(body_lines) + parsed.body_line_offset == len(original)
    chunks = chunk_markdown(parsed.body, size, 15)
    for chunk in chunks:
        assert 1 <= chunk.line_start <= chunk.line_end <= len(body_lines)
        assert chunk.content.strip() and chunk.own_text.strip()
        for word in WORD.findall(chunk.own_text):
            # Words of the document, nothing invented (a role's text may join the words
            # written right before and after it: ``é{ref}`a`1`` shows ``éa1``).
            assert word in parsed.body or any(
                all(part in parsed.body for part in (word[:i], word[i:j], word[j:]) if part)
                for i in range(1, len(word))
                for j in range(i, len(word) + 1)
            )
    # Every heading with text under it is in a chunk, titled by it unless its section is
    # too short to stand alone (then it joined a neighbour); bare ones join the next.
    # CommonMark reads MyST and HTML markup as text, so its headings are not the reference
    # there (tests/engine/test_markdown_markup.py checks those documents).
    if any(piece in parsed.body for piece in MARKUP):
        return
    # A table of contents and bare anchors are blanked: its label heading goes with it,
    # and a heading with nothing else under it is bare.
    navigation = blank_contents(body_lines)
    bared = {line for line, _, bare in reference_headings("\n".join(navigation)) if bare}
    for line, heading, bare in reference_headings(parsed.body):
        if bare or line in bared or not heading or not navigation[line - 1].strip():
            continue
        holding = [c for c in chunks if c.line_start <= line <= c.line_end]
        assert holding, (line, heading)
        # A title shows the heading as rendered (links, HTML, escapes: heading_text), so
        # the raw heading is looked for in the chunk's text, on one line as it is here,
        # and with a NUL as CommonMark reads it (U+FFFD).
        shown = " ".join(holding[0].content.replace("\x00", "\ufffd").split())
        assert holding[0].title.endswith(heading) or heading in shown


@SETTINGS
@given(DOCUMENT)
def test_comment_blanking_and_outline_any_text(text: str) -> None:
    blanked = blank_html_comments(normalise_newlines(text))

    assert blanked.count("\n") == normalise_newlines(text).count("\n")
    for rel in ("doc.md", "doc.rst"):
        found = outline(rel, text)
        assert found.title and len(found.headings) == len(found.levels)


def test_heading_text_is_cleaned_of_links_tags_code_and_anchors() -> None:
    text = "# Guide\n\n## [Install](x.md) `pip` <sup>1</sup> ![i](i.png) {#install} ##\n"

    assert outline("doc.md", text).headings == ("Install pip 1",)  # the icon: decoration
