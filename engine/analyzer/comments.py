"""Doc comments as text: their markers removed, and the first paragraph of one."""

from __future__ import annotations

import re

NOT_DOC = re.compile(
    r"copyright|\blicen[cs]ed?\b|spdx-license|all rights reserved|permission is hereby granted"
    r"|^\s*(?:-\*-|frozen_string_literal|\+build|go:build|code generated|eslint|@ts-|nolint)",
    re.IGNORECASE,
)
"""Opening comments that are not about the file: licence headers and tool directives."""
_MARKERS = re.compile(r"^\s*(?:/\*+!?|\*+/|\*(?!/)|//[/!]?|#+|\*/)\s?")
_END_MARKER = re.compile(r"\s*\*+/\s*$")
_XML_DOC = re.compile(r"</?(?:summary|remarks|para|returns|value|example)>")
_SPACES = re.compile(r"\s+")
MAX_SUMMARY = 240


def comment_text(comments: list[str]) -> str:
    """Comments without their markers (``//``, ``///``, ``//!``, ``/** */``, ``#``)."""
    lines = []
    for comment in comments:
        for line in comment.splitlines():
            line = _END_MARKER.sub("", line)
            lines.append(_XML_DOC.sub("", _MARKERS.sub("", line, count=1)).rstrip())
    return "\n".join(lines).strip("\n")


def first_paragraph(doc: str) -> str:
    """The first paragraph of a doc comment on one line, at most :data:`MAX_SUMMARY`."""
    paragraph = _SPACES.sub(" ", doc.strip().split("\n\n")[0]).strip()
    if len(paragraph) <= MAX_SUMMARY:
        return paragraph
    return paragraph[: MAX_SUMMARY - 3].rsplit(" ", 1)[0] + "..."
