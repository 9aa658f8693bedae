"""What a page contributes beside its chunks: its title where the page does not write it
as a heading, whether a chunk is only headings, and the cut of the rare chunk past the
entry limit."""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine.core.hashing import normalize_content
from engine.core.models import MAX_CONTENT_LENGTH


def only_headings(text: str) -> bool:
    """Whether a chunk's own text is nothing but headings (not knowledge yet)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return all(line.startswith("#") for line in lines)


def split_to_fit(content: str) -> list[str]:
    """Split the rare chunk longer than the entry limit (a giant code block)."""
    text = normalize_content(content)
    if len(text) <= MAX_CONTENT_LENGTH:
        return [text] if text else []
    return [text[i : i + MAX_CONTENT_LENGTH] for i in range(0, len(text), MAX_CONTENT_LENGTH)]


_GENERIC_PAGE = re.compile(r"^(?:index|readme|_index)$", re.IGNORECASE)


def page_title(rel: str, front_matter: Mapping[str, object]) -> str:
    """A documentation page's title where the page may not write it as a heading, as a
    docs site would show it: the front matter's ``title``, else the file's name in words
    (``getting-started.md`` → ``Getting started``; an ``index.md`` or ``README.md`` is
    named after its folder; the project's own top-level README gets none)."""
    declared = front_matter.get("title")
    if isinstance(declared, str) and declared.strip():
        return " ".join(declared.split())
    folders, _, name = rel.rpartition("/")
    stem = name.rsplit(".", 1)[0]
    if _GENERIC_PAGE.match(stem):
        stem = folders.rpartition("/")[2]
    words = " ".join(re.split(r"[-_\s]+", stem)).strip()
    return words[:1].upper() + words[1:]
