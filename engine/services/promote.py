"""Promotion: moving an entry into the curated markdown, so it lives in git.

Where the text goes: when the knowledge folder has the category's own file
(``gotchas.md`` for a gotcha, ``patterns.md``…), a section is appended to it; otherwise a
new file ``<folder>/<slug>.md`` is made (``patterns/``, ``architecture/``…), named from the
entry's full title and headed by it (never a truncated heading). The file is written
through a temporary file and :func:`os.replace`, only inside the knowledge folder, and
never through a symlink (a linked or dangling ``gotchas.md`` is refused, a linked name
for a new file is passed over).

Then the file is indexed, and the entry is deleted only once every word of its text is
found in the entries indexed from its new section: otherwise the file is put back as it
was and the entry stays, with an error saying why. The new entries keep what the old one
had: its reference count, keywords (front matter, or a ``Keywords:`` line in an appended
section), and its citations of the code, so its stale tracking goes on
(:mod:`engine.freshness`). The old id stays resolvable: the file records it
(``promoted_from``) and ``Memory.get(OLD_ID)`` answers with the entry now holding the text
(:mod:`engine.services.aliases`).
"""

from __future__ import annotations

import json
import logging
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.errors import EngineError, InvalidInputError, NotFoundError
from engine.core.models import Category, Entry, Source
from engine.core.validation import now_iso
from engine.guards.files import FileRefusedError, read_project_text, write_project_file
from engine.markdown.parse import blank_html_comments
from engine.services.aliases import marker
from engine.services.indexing import Indexer
from engine.services.parts import parts_of

if TYPE_CHECKING:
    from engine.services.memory import Memory

log = logging.getLogger(__name__)

FOLDERS = {
    Category.ARCHITECTURE: "architecture",
    Category.COMPONENT: "components",
    Category.DOMAIN: "domain",
    Category.PATTERN: "patterns",
    Category.GOTCHA: "gotchas",
    Category.DISCOVERY: "discoveries",
    Category.GENERAL: "general",
}
"""Knowledge sub-folder (and top-level file stem) of each category; the indexer maps
both back to the category."""
_WORD = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class PromoteResult:
    """Where an entry went and the entries that now hold its text."""

    original: Entry
    path: Path
    entries: tuple[Entry, ...]


def slugify(text: str, max_length: int = 80) -> str:
    """A file-name-safe slug of the whole title: lower case ASCII words joined by dashes,
    cut at a word boundary when longer than ``max_length``."""
    slug = ""
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        if slug and len(slug) + 1 + len(word) > max_length:
            break
        slug = f"{slug}-{word}" if slug else word[:max_length]
    return slug or "entry"


def promote(memory: Memory, entry_id: str) -> PromoteResult:
    """Promote one entry; see the module docstring.

    Raises:
        NotFoundError: no entry has this id.
        InvalidInputError: the entry already comes from a knowledge file.
        FileRefusedError: the target is a symlink, not a regular file, or outside.
        EngineError: the written text was not found in the index (the entry is kept).
    """
    entry = memory.get(entry_id)
    if entry is None:
        raise NotFoundError(f"no entry with id '{entry_id}'")
    if entry.source is Source.MARKDOWN:
        raise InvalidInputError(
            f"entry {entry_id} already lives in {entry.location or 'a knowledge file'}"
        )
    knowledge = memory.paths.knowledge_dir
    knowledge.mkdir(parents=True, exist_ok=True)
    path, before = _target(memory, entry)
    if before is None:
        text, after_line = render_markdown(entry), 0
    else:
        text, after_line = _appended(before, entry)
    write_project_file(knowledge, path, text)
    rel = path.relative_to(memory.paths.root).as_posix()
    try:
        created = _indexed(memory, rel, after_line, entry)
    except BaseException:
        _put_back(memory, path, rel, before)
        raise
    _carry_over(memory, entry, created)
    memory.delete(entry.id)
    return PromoteResult(entry, path, tuple(memory.get(e.id) or e for e in created))


def render_markdown(entry: Entry) -> str:
    """The knowledge file written for a promoted entry (a new file)."""
    front = [
        "---",
        f"category: {entry.category.value}",
        f"promoted_at: {json.dumps(now_iso())}",
        f"promoted_from: {entry.id}",
    ]
    if entry.keywords:
        front.append("keywords: " + json.dumps(list(entry.keywords), ensure_ascii=False))
    front.append("---")
    return "\n".join(front) + "\n\n" + _section(entry, "#") + "\n"


def _section(entry: Entry, level: str) -> str:
    """The entry as a markdown section headed by its title, saying nothing twice: a
    short first line followed by more becomes the heading alone; a long first line (a
    one-sentence note) is headed by its first words and kept whole in the body."""
    body = entry.content.strip()
    first, _, rest = body.partition("\n")
    if first.startswith("#"):  # the note's own heading, at this file's level
        title, body = first.lstrip("#").strip(), rest.strip() or first.lstrip("#").strip()
    elif rest.strip() and len(first.split()) <= HEADING_WORDS + 4:
        title, body = first.strip().rstrip(":"), rest.strip()
    elif len(first.split()) > HEADING_WORDS:
        title = " ".join(first.split()[:HEADING_WORDS]).rstrip(",;:.") + " …"
    else:
        title = " ".join(entry.title.split())
    return f"{level} {title}\n\n{body}"


HEADING_WORDS = 8
"""A note whose first line is longer is headed by this many of its words."""


def _appended(before: str, entry: Entry) -> tuple[str, int]:
    """``before`` with the entry appended as a ``##`` section after its marker comment;
    returns the text and the marker's line number."""
    head = before.rstrip("\n") + "\n\n" if before.strip() else ""
    marker_line = head.count("\n") + 1
    section = _section(entry, "##")
    if entry.keywords:
        section += "\n\nKeywords: " + ", ".join(entry.keywords)
    return f"{head}{marker(entry.id, now_iso())}\n{section}\n", marker_line


def _target(memory: Memory, entry: Entry) -> tuple[Path, str | None]:
    """The file to write and its current text (None: a new file).

    Long because each refusal names its own reason: a symlinked category file or folder,
    or one that is not a regular file, is refused rather than followed.
    """
    knowledge = memory.paths.knowledge_dir
    stem = FOLDERS[entry.category]
    for name in (f"{stem}.md", f"{stem.removesuffix('s')}.md"):
        candidate = knowledge / name
        if candidate.is_symlink():
            raise FileRefusedError(
                candidate.relative_to(memory.paths.root).as_posix(),
                "is a symlink; promotion never writes through a link",
                "replace it with a regular file, or move the link away",
            )
        if candidate.exists():
            text = read_project_text(knowledge, candidate, max_bytes=memory.config.max_file_bytes)
            return candidate, text
    folder = knowledge / stem
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise FileRefusedError(
            folder.relative_to(memory.paths.root).as_posix(),
            "is a symlink or not a folder; promotion writes only into real folders",
        )
    folder.mkdir(exist_ok=True)
    slug = slugify(entry.title)
    path, n = folder / f"{slug}.md", 2
    while os.path.lexists(path):  # an existing file, or a link (dangling too): passed over
        path, n = folder / f"{slug}-{n}.md", n + 1
    return path, None


def _indexed(memory: Memory, rel: str, after_line: int, entry: Entry) -> list[Entry]:
    """Index the written file; the entries of the promoted section, once its text is there.

    Raises:
        EngineError: the indexer refused the file, or some of the text is missing.
    """
    report = Indexer(memory).run(only=[rel])
    problems = [message for path, message in report.errors if path == rel]
    created = [e for e in parts_of(memory).mirror.by_file(rel) if e.line_end > after_line]
    found = {w.lower() for e in created for w in _WORD.findall(f"{e.section_title} {e.content}")}
    wanted = {w.lower() for w in _WORD.findall(blank_html_comments(entry.content))}
    missing = sorted(wanted - found)
    if problems or not created or missing:
        why = "; ".join(problems) or (
            f"the index lacks {', '.join(missing[:5])}" if missing else "nothing was indexed"
        )
        raise EngineError(
            f"promoting {entry.id} to {rel} failed ({why}); the file was put back as it "
            "was and the entry is kept",
            code="PROMOTE_FAILED",
        )
    return created


def _put_back(memory: Memory, path: Path, rel: str, before: str | None) -> None:
    """Undo a promotion that failed after its file was written."""
    try:
        if before is None:
            path.unlink(missing_ok=True)
        else:
            write_project_file(memory.paths.knowledge_dir, path, before)
        Indexer(memory).run(only=[rel])
    except Exception:  # the original error is what the caller needs to see
        log.warning("could not put %s back after a failed promotion", rel, exc_info=True)


def _carry_over(memory: Memory, entry: Entry, created: list[Entry]) -> None:
    """Reference count and citations of ``entry`` onto the entries holding its text."""
    parts = parts_of(memory)
    if entry.reference_count:
        parts.entries.update_metadata(
            [replace(e, reference_count=e.reference_count + entry.reference_count) for e in created]
        )
    try:
        citations = parts.freshness.index.of([entry.id]).get(entry.id, [])
        if citations:
            parts.freshness.record({e.id: citations for e in created})
        parts.freshness.index.forget([entry.id])
    except Exception:  # stale flags are derived; the promotion itself succeeded
        log.warning("could not carry the citations of %s over", entry.id, exc_info=True)
