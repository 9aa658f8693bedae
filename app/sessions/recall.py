"""The ``SessionStart`` hook: a new session starts knowing what the last ones did.

The block holds the digests of the last :data:`SESSIONS` sessions of this project on the
current git branch (of the whole project when the branch has none yet), newest first, and
the notes that match their work (a keyword search for the branch's name, the files they
wrote and what they were asked), within ``session_recall_tokens`` (about
:data:`CHARS_PER_TOKEN` characters a token; the notes take at most a third). It runs in a
fresh process at every start, resume, ``/clear`` and compaction, so it never loads the
model. The text passes the terminal guard (:func:`engine.printable`) and goes out as the
hook's ``additionalContext``.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from app.sessions.capture import digests
from app.sessions.digest import KEYWORD

if TYPE_CHECKING:
    from engine import Config, Entry, Memory

SESSIONS = 3
NOTES = 5
CHARS_PER_TOKEN = 4
"""A rough count for English and code (the budget is a size, not a model's tokens)."""
NOTE_SNIPPET = 300
QUERY_WORDS = 40
OPEN = "<project-memory-sessions>"
CLOSE = "</project-memory-sessions>"
_FILES = re.compile(r"^Files (?:created|changed): (.*)$", re.MULTILINE)


def recall_block(root: Path, config: Config) -> str:
    """The block a new session of the project at ``root`` starts with ('' for none)."""
    from engine import Memory, MemoryPaths

    budget = config.session_recall_tokens * CHARS_PER_TOKEN
    if budget <= 0 or not MemoryPaths.for_root(root).fts_path.exists():
        return ""
    branch = current_branch(root)
    with Memory.open(root, config=config) as memory:
        every = digests(memory)
        mine = [d for d in every if f"branch:{branch}" in d.keywords] if branch else []
        chosen = (mine or every)[:SESSIONS]
        notes = related_notes(memory, chosen, branch) if chosen else []
        memory.referenced([e.id for e in chosen + notes])
    return format_block(chosen, notes, branch if mine else "", budget)


def current_branch(root: Path) -> str:
    """The project's checked-out branch ('' outside git or on a detached HEAD)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "symbolic-ref", "--short", "-q", "HEAD"],
            capture_output=True, text=True, timeout=2, check=False,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def related_notes(memory: Memory, chosen: list[Entry], branch: str) -> list[Entry]:
    """Notes (not digests) matching the work of the ``chosen`` sessions."""
    words = re.split(r"[^\w]+", branch)
    for entry in chosen:
        words += re.split(r"[^\w]+", entry.section_title.partition(": ")[2])
        for line in _FILES.findall(entry.content):
            words += re.split(r"[^\w]+", line)
    query = " ".join(list(dict.fromkeys(w for w in words if len(w) > 2))[:QUERY_WORDS])
    if not query:
        return []
    response = memory.search(query, mode="keyword", limit=NOTES * 3)
    found = [r.entry for r in response.results if KEYWORD not in r.entry.keywords]
    return found[:NOTES]


def format_block(chosen: list[Entry], notes: list[Entry], branch: str, budget: int) -> str:
    """The block, at most ``budget`` characters ('' when there is no digest)."""
    from engine import printable

    if not chosen:
        return ""
    where = f" on branch {branch}" if branch else ""
    head = [
        OPEN,
        f"What the last Claude Code sessions of this project{where} did (memory-tui's "
        "session digests: personal notes, not shared until promoted):",
    ]
    foot = ["Use the memory_search tool for more.", CLOSE]
    room = budget - sum(len(line) + 1 for line in head + foot)
    note_lines = _notes(notes, min(room // 3, NOTE_SNIPPET * NOTES))
    room -= sum(len(line) + 1 for line in note_lines)
    share = room // len(chosen)
    parts: list[str] = []
    for entry in chosen:
        title = f"## {' '.join(entry.section_title.split())} (id {entry.id})"
        body = _cut_lines(entry.content, share - len(title) - 2)
        if body:
            parts += [title, body]
    if not parts:
        return ""
    return printable("\n".join(head + parts + note_lines + foot) + "\n")


def _notes(notes: list[Entry], room: int) -> list[str]:
    lines = ["Notes matching that work:"]
    left = room - len(lines[0]) - 1
    for entry in notes:
        where = " ".join((entry.location or entry.source.value).split())
        snippet = " ".join(entry.content.split())[:NOTE_SNIPPET]
        line = f"- [{entry.category.value}] {where} (id {entry.id}): {snippet}"
        if len(line) + 1 > left:
            break
        lines.append(line)
        left -= len(line) + 1
    return lines if len(lines) > 1 else []


def _cut_lines(text: str, size: int) -> str:
    """``text`` cut to ``size`` characters at a line's end (with … where cut)."""
    if size <= 0:
        return ""
    if len(text) <= size:
        return text
    kept = text[: size - 1].rsplit("\n", 1)[0]
    return kept + "\n…" if kept else ""
