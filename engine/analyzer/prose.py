"""How much of a stretch of code is text written for people (comments and string
literals), read off the tree-sitter tree: a definition that is mostly such text (a struct
of documented options, a function returning a help page) is cut like a page, not along
its fields."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

TEXT_NODE = re.compile(r"comment|string|text_block|heredoc")
"""Node types of text for people in the grammars: comments and string literals."""


def text_share(text_chars: Sequence[int], lines: list[str], start: int, end: int) -> float:
    """The share of the characters of lines ``start``..``end`` (1-based, inclusive, blanks
    at the ends of lines left out) that lie in comments and string literals."""
    total = sum(len(line.strip().encode("utf-8", "replace")) for line in lines[start - 1 : end])
    text = sum(text_chars[start - 1 : end])
    return text / total if total else 0.0


def text_chars(root: Node, data: bytes) -> tuple[int, ...]:
    """Per line of a parsed file, the characters in its outermost comment and string nodes
    (any grammar's ``comment``, ``line_comment``, ``string_literal``, ``raw_string_literal``,
    ``text_block``...): ``Outline.text_chars``."""
    rows = data.split(b"\n")
    counts = [0] * len(rows)
    stack = [root]
    while stack:
        node = stack.pop()
        if not TEXT_NODE.search(node.type):
            stack.extend(node.children)
            continue
        first, last = node.start_point, node.end_point
        for row in range(first.row, min(last.row, len(rows) - 1) + 1):
            line = rows[row]
            a = first.column if row == first.row else 0
            b = last.column if row == last.row else len(line)
            counts[row] += len(line[a:b].strip())
    return tuple(counts)
