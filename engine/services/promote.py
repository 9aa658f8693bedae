"""Promotion: moving an entry into the curated markdown, so it lives in git.

The entry's text is written to ``.claude/knowledge/<folder>/<slug>.md`` with front
matter recording its category, keywords and when it was promoted; that file is then
indexed like any other (its chunks are marked promoted and keep the reference count)
and the original entry is deleted, so the knowledge is never stored twice.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import InvalidInputError
from engine.core.models import Category, Entry, Source
from engine.core.validation import now_iso
from engine.services.indexing import Indexer
from engine.services.memory import Memory

FOLDERS = {
    Category.ARCHITECTURE: "architecture",
    Category.COMPONENT: "components",
    Category.DOMAIN: "domain",
    Category.PATTERN: "patterns",
    Category.GOTCHA: "gotchas",
    Category.DISCOVERY: "discoveries",
    Category.GENERAL: "general",
}
"""Knowledge sub-folder of each category (the indexer maps them back)."""
PROMOTABLE = (Source.SESSION, Source.DISCOVERY, Source.MANUAL)


@dataclass(frozen=True, slots=True)
class PromoteResult:
    """Where an entry went and the entries that now hold its text."""

    original: Entry
    path: Path
    entries: tuple[Entry, ...]


def slugify(text: str, max_length: int = 60) -> str:
    """A file-name-safe slug: lower case ASCII words joined by dashes."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    slug = "-".join(words)[:max_length].strip("-")
    return slug or "entry"


def promote(memory: Memory, entry_id: str) -> PromoteResult:
    """Promote one entry; see the module docstring.

    Raises:
        NotFoundError: no entry has this id.
        InvalidInputError: the entry already comes from a knowledge file.
    """
    entry = memory.require(entry_id)
    if entry.source is Source.MARKDOWN:
        raise InvalidInputError(
            f"entry {entry_id} already lives in {entry.location or 'a knowledge file'}"
        )
    folder = memory.paths.knowledge_dir / FOLDERS[entry.category]
    folder.mkdir(parents=True, exist_ok=True)
    path = _unique_path(folder, slugify(entry.title))
    path.write_text(render_markdown(entry), encoding="utf-8")
    rel = path.relative_to(memory.paths.root).as_posix()
    Indexer(memory).run(only=[rel])
    created = memory.mirror.by_file(rel)
    if entry.reference_count:
        memory.update_metadata([_with_references(e, entry.reference_count) for e in created])
        created = memory.mirror.by_file(rel)
    memory.delete(entry.id)
    return PromoteResult(entry, path, tuple(created))


def due_for_promotion(memory: Memory) -> list[Entry]:
    """Unpromoted agent and manual entries whose reference count reached the threshold."""
    threshold = memory.config.promote_threshold
    return [
        e
        for source in PROMOTABLE
        for e in memory.list(source=source)
        if e.reference_count >= threshold and not e.promoted
    ]


def render_markdown(entry: Entry) -> str:
    """The knowledge file written for a promoted entry."""
    front = [
        "---",
        f"category: {entry.category.value}",
        f"promoted_at: {json.dumps(now_iso())}",
        f"promoted_from: {entry.id}",
    ]
    if entry.keywords:
        front.append("keywords: " + json.dumps(list(entry.keywords), ensure_ascii=False))
    front.append("---")
    body = entry.content.strip()
    if not body.startswith("#"):
        body = f"# {_heading(entry.title)}\n\n{body}"
    return "\n".join(front) + "\n\n" + body + "\n"


def _heading(title: str, limit: int = 60) -> str:
    """The title cut at a word boundary (the full text follows it)."""
    title = " ".join(title.split())
    if len(title) <= limit:
        return title
    return title[:limit].rsplit(" ", 1)[0] + "…"


def _unique_path(folder: Path, slug: str) -> Path:
    path = folder / f"{slug}.md"
    n = 2
    while path.exists():
        path = folder / f"{slug}-{n}.md"
        n += 1
    return path


def _with_references(entry: Entry, count: int) -> Entry:
    from dataclasses import replace

    return replace(entry, reference_count=entry.reference_count + count)
