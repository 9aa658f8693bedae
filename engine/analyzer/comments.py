"""Doc comments as text: their markers removed, and the first paragraph of one."""

from __future__ import annotations

import re
from functools import lru_cache

from engine.analyzer.comment_syntax import CommentSyntax

LICENCE_WORDS = re.compile(
    r"copyright|\blicen[cs]ed?\b|spdx-license|all rights reserved|permission is hereby granted",
    re.IGNORECASE,
)
"""What a licence header says."""
NOT_DOC = re.compile(
    LICENCE_WORDS.pattern
    + r"|^\s*(?:-\*-|frozen_string_literal|\+build|go:build|code generated|eslint|@ts-|nolint)",
    re.IGNORECASE,
)
"""Opening comments that are not about the file: licence headers and tool directives."""
COMMENT_LINE = re.compile(r"^\s*(?://|/\*|\*|#(?![\[!]))")
"""A line of a comment in C's family or a ``#``-commented language (not Rust's ``#[attr]``
or ``#![attr]``, nor a shebang)."""
_MARKERS = re.compile(r"^\s*(?:/\*+!?|\*+/|\*(?!/)|//[/!]?|#+|\*/)\s?")
_END_MARKER = re.compile(r"\s*\*+/\s*$")
_XML_DOC = re.compile(
    r"</?(?:summary|remarks|para|returns|value|example|list|item|description|term|listheader"
    r"|code|c|inheritdoc)\b[^<>]*?/?>"
)
"""C# XML documentation tags that only frame text (Microsoft's recommended tags)."""
_XML_NAMED = re.compile(
    r'<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword|href)="(?:[A-Z]:)?([^"]*)"'
    r"\s*/?>(?:([^<]*)</(?:see|seealso)>)?"
)
"""``<see cref="X"/>``, ``<paramref name="x"/>``, ``<see langword="null"/>``: the name."""
_XML_LABELLED = re.compile(r'<(?:param|typeparam|exception)\s+(?:name|cref)="(?:[A-Z]:)?([^"]*)">')
"""``<param name="x">text</param>``: ``x: text``."""
_XML_CLOSE = re.compile(r"</(?:param|typeparam|exception)>")
_JAVADOC_INLINE = re.compile(r"\{@(?:link|linkplain|code|literal|value)\s+#?([^}]*)\}")
"""Javadoc's ``{@link Foo#bar(int)}``, ``{@code x}``: their text."""
_JAVADOC_DROP = re.compile(r"\{@inheritDoc\}")
_HTML_INLINE = re.compile(r"</?(?:b|i|em|strong|tt|code|var)\s*/?>", re.IGNORECASE)
"""HTML that Javadoc, RDoc and C# comments use for emphasis: dropped."""
_HTML_BLOCK = re.compile(r"</?(?:p|pre|ul|ol|li|br|dl|dt|dd)\s*/?>", re.IGNORECASE)
"""HTML paragraphs and lists: a space."""
_SPACES = re.compile(r"\s+")
MAX_SUMMARY = 240


def comment_text(comments: list[str]) -> str:
    """Comments without their markers (``//``, ``///``, ``//!``, ``/** */``, ``#``)."""
    lines = []
    for comment in comments:
        for line in comment.splitlines():
            line = _END_MARKER.sub("", line)
            lines.append(_markup_as_words(_MARKERS.sub("", line, count=1)).rstrip())
    return "\n".join(lines).strip("\n")


def unmarked(line: str) -> str:
    """A line of code as the documentation it holds: a comment's line without its markers
    (``//!``, ``///``, ``*``, ``#``, a closing ``*/``), its markup as written (doc comments
    are markdown in Rust, Swift, Kotlin, Dart, Julia and Go); any other line as it is."""
    if COMMENT_LINE.match(line) is None:
        return line
    return _MARKERS.sub("", _END_MARKER.sub("", line), count=1)


def _markup_as_words(line: str) -> str:
    """A doc comment's line with its documentation markup read as words: C# XML tags,
    Javadoc inline tags and the HTML they use. A type name keeps its dots
    (``System.Void``); ``Foo#bar(int)`` reads ``Foo.bar(int)``."""
    line = _XML_NAMED.sub(lambda m: m.group(2) or m.group(1), line)
    line = _XML_CLOSE.sub("", _XML_LABELLED.sub(r"\1: ", line))
    line = _JAVADOC_INLINE.sub(lambda m: m.group(1).replace("#", "."), _JAVADOC_DROP.sub("", line))
    return _HTML_BLOCK.sub(" ", _HTML_INLINE.sub("", _XML_DOC.sub("", line)))


def first_paragraph(doc: str) -> str:
    """The first paragraph of a doc comment on one line, at most :data:`MAX_SUMMARY`."""
    paragraph = _SPACES.sub(" ", doc.strip().split("\n\n")[0]).strip()
    if len(paragraph) <= MAX_SUMMARY:
        return paragraph
    return paragraph[: MAX_SUMMARY - 3].rsplit(" ", 1)[0] + "..."


ANY_LANGUAGE = CommentSyntax(
    ("//", "#", "--", ";", "%"), (("--[[", "]]"), ("(*", "*)"), ("{-", "-}"), ("/*", "*/"))
)
"""The comments of the languages without a grammar that the benches hold (OCaml, Haskell,
Lua) and of C's family, for text whose file is not known; a file's own are
:func:`engine.analyzer.comment_syntax.comment_syntax`'s."""
_OPENING_LINES = 80


def opening_comment(text: str, syntax: CommentSyntax = ANY_LANGUAGE) -> str:
    """The first paragraph of the comment a grammar-less file opens with (after a shebang
    and its licence header), or ``""`` when code comes first; its comments are written as
    ``syntax`` says (a Vim script's ``"``, OCaml's ``(* *)``)."""
    lines = text.splitlines()[:_OPENING_LINES]
    index = 1 if lines and lines[0].startswith("#!") else 0
    while index < len(lines):
        stripped = lines[index].strip()
        if not stripped:
            index += 1
            continue
        block, index = _comment_at(lines, index, syntax)
        if block is None:
            return ""
        if block.strip() and not NOT_DOC.search(block):
            return first_paragraph(block)
    return ""


def after_licence_header(text: str) -> str:
    """``text`` from the line after the comment it opens with when that comment is a
    licence header (it names a copyright or a licence), in any language's markers; else
    ``text`` as it is. What a file of unknown format is must be read after its header:
    fifteen lines of the Apache licence read as sentences whatever follows them."""
    lines = text.splitlines()
    index = 0
    while index < len(lines) and not lines[index].strip():
        index += 1
    if index == len(lines):
        return text
    block, end = _comment_at(lines, index, ANY_LANGUAGE)
    if block is None or not LICENCE_WORDS.search(block):
        return text
    return "\n".join(lines[end:])


@lru_cache(maxsize=256)
def _line_comment(markers: tuple[str, ...]) -> re.Pattern[str]:
    """A line comment's opening marker, its last character repeated (``---``, ``##``,
    ``///``)."""
    ordered = sorted(markers, key=len, reverse=True)
    alternatives = "|".join(f"{re.escape(m)}{re.escape(m[-1])}*" for m in ordered)
    return re.compile(rf"^\s*(?:{alternatives})" if markers else r"(?!)")


def _comment_at(lines: list[str], index: int, syntax: CommentSyntax) -> tuple[str | None, int]:
    """The text of the comment starting at ``lines[index]`` (markers removed) and the
    index after it; ``None`` when that line is code."""
    stripped = lines[index].strip()
    for opener, closer in syntax.blocks:  # longest opener first
        if stripped.startswith(opener):
            found = []
            for end in range(index, len(lines)):
                line = lines[end].strip()
                found.append(line.removeprefix(opener) if end == index else line)
                if closer in line[len(opener) if end == index else 0 :]:
                    body = "\n".join(found).rsplit(closer, 1)[0]
                    return _unmarked(body, opener), end + 1
            return None, len(lines)
    found = []
    marker = _line_comment(syntax.lines)
    while index < len(lines) and marker.match(lines[index]):
        found.append(marker.sub("", lines[index], count=1).strip())
        index += 1
    return ("\n".join(found), index) if found else (None, index)


def _unmarked(body: str, opener: str) -> str:
    """A block comment's lines without the rules and leading markers they carry."""
    lines = [re.sub(r"^[-=*#~]{3,}$", "", line.strip(" *-")) for line in body.splitlines()]
    return "\n".join(lines).strip(opener[-1:] + " \n")
