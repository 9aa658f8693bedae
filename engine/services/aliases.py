"""The ids of promoted entries stay resolvable.

Promotion moves an entry's text into a knowledge file and deletes the entry; its id lives
on in the file, as a ``promoted_from: ID`` front matter key (a file made for it) or a
``<!-- promoted_from: ID at TIME -->`` comment before its section (a section appended to an
existing file). The indexer records where each such marker is in ``meta.json``
(``promotedFrom``: old id → file and line), re-reading it from the files whenever it
re-indexes them, so the table is rebuilt with ``meta.json`` and follows edits and moves.
:func:`promoted_entry` answers an old id with the entry that now holds its text, which is
what ``Memory.get`` (and so ``memory-tui get`` and ``memory_get``) falls back to.
"""

from __future__ import annotations

from pathlib import Path

from engine.core.models import Entry
from engine.storage.meta import IndexMeta
from engine.storage.mirror import EntryMirror

MARKER_PREFIX = "<!-- promoted_from: "
MARKER_SUFFIX = " -->"


def marker(entry_id: str, when: str) -> str:
    """The comment written before a promoted section (blanked before chunking)."""
    return f"{MARKER_PREFIX}{entry_id} at {when}{MARKER_SUFFIX}"


def _parse_marker(line: str) -> tuple[str, str] | None:
    """(old id, promotion time) of a marker line, or None."""
    stripped = line.strip()
    if not (stripped.startswith(MARKER_PREFIX) and stripped.endswith(MARKER_SUFFIX)):
        return None
    words = stripped[len(MARKER_PREFIX) : -len(MARKER_SUFFIX)].split()
    if not words:
        return None
    return words[0], words[2] if len(words) == 3 and words[1] == "at" else ""


def promoted_sections(text: str) -> list[tuple[int, int, str]]:
    """(first line, last line, promotion time) of each section appended by promotion: from
    its marker to the line before the next heading of the same or a higher level."""
    lines = text.splitlines()
    found = []
    for index, line in enumerate(lines):
        parsed = _parse_marker(line)
        if parsed is None or index + 1 >= len(lines) or not lines[index + 1].startswith("#"):
            continue
        level = len(lines[index + 1]) - len(lines[index + 1].lstrip("#"))
        end = index + 2
        while end < len(lines) and not _ends_section(lines[end], level):
            end += 1
        found.append((index + 1, end, parsed[1]))
    return found


def _ends_section(line: str, level: int) -> bool:
    if _parse_marker(line) is not None:
        return True
    hashes = len(line) - len(line.lstrip("#"))
    return 0 < hashes <= level and line[hashes : hashes + 1] in (" ", "")


def promoted_from(text: str) -> dict[str, int]:
    """Old id → line of its marker (1-based; 0 for the front matter key) in a file's text.

    Linear: one pass over the lines, no regular expression.
    """
    found: dict[str, int] = {}
    lines = text.splitlines()
    in_front = bool(lines) and lines[0].strip() == "---"
    for number, line in enumerate(lines[1:] if in_front else lines, start=2 if in_front else 1):
        stripped = line.strip()
        if in_front:
            if stripped in ("---", "..."):
                in_front = False
            elif stripped.startswith("promoted_from:"):
                found.setdefault(stripped.split(":", 1)[1].strip().strip("\"'"), 0)
            continue
        parsed = _parse_marker(stripped)
        if parsed is not None:
            found.setdefault(parsed[0], number)
    found.pop("", None)
    return found


def promoted_entry(meta_path: Path, mirror: EntryMirror, entry_id: str) -> Entry | None:
    """The entry that holds the text promoted from ``entry_id`` (the first chunk after its
    marker), or None when ``entry_id`` was never promoted or its text is gone."""
    meta, _ = IndexMeta.load(meta_path)
    where = meta.aliases.get(entry_id)
    if where is None:
        return None
    rel, line = where
    for entry in mirror.by_file(rel):
        if entry.line_end > line:
            return entry
    return None
