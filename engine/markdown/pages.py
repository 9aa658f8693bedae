"""What a page contributes beside its chunks: its title where the page does not write it
as a heading, whether a chunk is only headings, and the cut of the rare chunk past the
entry limit."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import pairwise

from engine.core.hashing import normalize_content
from engine.core.models import MAX_CONTENT_LENGTH, MERGED_TITLES
from engine.markdown.chunking import Chunk

MAX_PAGE_SHARE = 0.15
"""Most of all the entries of a memory one documentation page may hold (issue 34)."""


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


def page_cap(others: int, files: int) -> int | None:
    """The most chunks a page may keep beside ``others`` entries of ``files`` other files:
    the largest ``c`` with ``c`` at most :data:`MAX_PAGE_SHARE` of ``others + c``, at
    least 1. ``None`` (no cap) where the page and the other files are too few for the share
    to single out a page that floods the memory: fewer than ``2 / MAX_PAGE_SHARE`` files,
    where an average file already holds over half the share. A small memory of a few docs
    (a project's first run, before any code is analysed) keeps its pages in their own
    sections instead of merging them into a few long entries that embed only their start."""
    if (files + 1) * MAX_PAGE_SHARE < 2:
        return None
    return max(1, int(MAX_PAGE_SHARE * others / (1 - MAX_PAGE_SHARE)))


def fit_page(chunks: Sequence[Chunk], cap: int) -> list[Chunk]:
    """A page's chunks, adjacent pairs merged while there are more than ``cap`` (and the
    pair fits under the entry limit): first the pieces of one section that the chunk size
    cut apart, smallest pair first, then whole sections, smallest pair first. No section
    is dropped, and each merged section keeps its heading path in the text, so a search
    for it still finds it by its words; a section merged into another's entry is no longer
    in the vector, which embeds an entry's start, so the pieces of a long section (a
    generated table of inputs, a reference list) give way before the short sections a
    newcomer asks about (a README's "Public access to RDS instances")."""
    out = list(chunks)
    while len(out) > cap:
        pairs = [
            (a.title != b.title, len(a.content) + len(b.content), i)
            for i, (a, b) in enumerate(pairwise(out))
            if len(a.content) + len(b.content) < MAX_CONTENT_LENGTH
        ]
        if not pairs:
            break
        *_, i = min(pairs)
        out[i : i + 2] = [_joined(out[i], out[i + 1])]
    return out


def _joined(first: Chunk, second: Chunk) -> Chunk:
    """Two adjacent chunks as one: the second's heading path kept, its overlap with the
    first (which the first holds whole) left out; titled by both where they differ."""
    path = second.content[: second.path_chars].strip()
    if not path and second.title and not second.own_text.lstrip().startswith("#"):
        path = second.title
    body = "\n\n".join(p for p in (path, second.own_text.strip()) if p)
    titles = [first.title, *(t for t in second.title.split(MERGED_TITLES) if t != first.title)]
    title = MERGED_TITLES.join(dict.fromkeys(t for t in titles if t))
    return replace(
        first,
        title=title,
        content=f"{first.content.rstrip()}\n\n{body}",
        line_end=second.line_end,
    )
