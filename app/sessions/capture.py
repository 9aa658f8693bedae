"""The ``Stop``, ``SessionEnd`` and ``PreCompact`` hooks: one session, one note, kept current.

Each invocation reads the whole transcript (:mod:`.transcript`) and writes its digest
(:mod:`.digest`) as a personal note of the project: source ``session``, keywords
``session-digest`` and ``session:<id>``, not shared until promoted (F7 in the app,
``memory-tui promote``). The note of a session already captured is updated in place (its
id, reference count and creation time kept), and left alone when its digest did not
change; a session whose prompts say ``#no-memory`` is not kept, and a note captured before
the marker was written is deleted. The text goes through the add path's guards, secrets
always redacted (a transcript holds what was pasted: one key must not cost the whole
session). Where the user names a summariser (:mod:`.summarize`), ``SessionEnd`` and
``PreCompact`` store its prose instead. The note is stored without loading the model: its
vector waits for the next process that embeds (``serve-mcp``, ``index``), and keyword
search finds it at once.

Nothing here fails the hook: a transcript that cannot be read (refused, missing, not
JSON) is one line in the project's log, and the session is left as it was.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.sessions import summarize
from app.sessions.digest import DIGEST_CHARS, KEYWORD, Digest, digest, session_keyword
from app.sessions.transcript import checked_path, read_transcript, transcript_folders

if TYPE_CHECKING:
    from engine import Config, Entry, Memory

log = logging.getLogger("memory_tui.sessions")
log.propagate = False  # one line in the project's log, none on the hook's stderr

LOCK_TIMEOUT = 30.0
"""Seconds a capture waits for another capture of the project (Stop and SessionEnd may
overlap) before it gives up (logged)."""


def capture(payload: dict[str, Any], root: Path, config: Config) -> str:
    """Capture the session ``payload`` names; returns what was done, for the log and the
    tests: ``added``, ``updated``, ``unchanged``, ``deleted`` or ``skipped: <why>``."""
    from engine import EngineError, MemoryPaths

    if not config.session_capture:
        return "skipped: session_capture is off"
    session_id, where = payload.get("session_id"), payload.get("transcript_path")
    if not isinstance(session_id, str) or not session_id.strip():
        return _skipped(root, "the hook's input names no session_id")
    if not isinstance(where, str) or not where.strip():
        return _skipped(root, "the hook's input names no transcript_path")
    paths = MemoryPaths.for_root(root)
    if not paths.fts_path.exists():
        return "skipped: the project has no memory (memory-tui init)"
    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
    try:
        real = checked_path(Path(where), transcript_folders(root, cwd))
        read = read_transcript(real, root, tool_output=config.session_tool_output)
    except EngineError as exc:
        return _skipped(root, f"transcript not read: {exc.message}")
    except OSError as exc:
        return _skipped(root, f"transcript not read: {exc.strerror or exc}")
    if read.entries == 0:
        return _skipped(
            root, f"no Claude Code entry in the transcript ({read.bad_lines} bad lines)"
        )
    if read.bad_lines:
        _log_line(root, f"session capture: {read.bad_lines} malformed transcript line(s) skipped")
    from engine import Memory, WriteLock

    with (
        WriteLock(paths.memory_dir / "sessions.lock").hold(timeout=LOCK_TIMEOUT),
        Memory.open(root, config=config) as memory,
    ):
        existing = digest_of(memory, session_id)
        if read.opted_out:
            if existing is None:
                return "skipped: the session asked for no memory"
            memory.delete(existing.id)
            return "deleted"
        if not read.exchanges:
            return "skipped: no prompt yet"
        made = digest(read, session_id, memory.redacted)
        if payload.get("hook_event_name") in summarize.EVENTS and summarize.configured():
            made = _in_prose(made, root)
        return _store(memory, existing, made)


def digests(memory: Memory) -> list[Entry]:
    """Every session digest of the memory, most recently updated first."""
    from engine import Source

    found = [e for e in memory.list(source=Source.SESSION) if KEYWORD in e.keywords]
    return sorted(found, key=lambda e: e.updated_at, reverse=True)


def digest_of(memory: Memory, session_id: str) -> Entry | None:
    """The note holding the digest of ``session_id``, if captured."""
    wanted = session_keyword(session_id)
    return next((e for e in digests(memory) if wanted in e.keywords), None)


def _in_prose(made: Digest, root: Path) -> Digest:
    """``made`` with its body written by the user's summariser (:mod:`.summarize`), or
    as it was when the summariser fails (logged)."""
    prose, why = summarize.summary(made.content, root)
    if not prose:
        _log_line(root, f"session capture: the deterministic digest kept: {why}")
        return made
    head = made.content.split("\n", 1)[0]
    return replace(made, content=f"{head}\n{prose}"[:DIGEST_CHARS])


def _store(memory: Memory, existing: Entry | None, made: Digest) -> str:
    from engine import NewEntry, SecretPolicy, Source

    content = memory.redacted(made.content)  # the pieces were; their joins are checked too
    if existing is None:
        item = NewEntry(
            content, source=Source.SESSION, keywords=made.keywords, section_title=made.title
        )
        memory.add_many([item], secret_policy=SecretPolicy.REDACT, embed=False)
        return "added"
    if (existing.content, existing.section_title) == (content, made.title):
        return "unchanged"
    memory.update(
        existing.id, content=content, section_title=made.title, keywords=made.keywords, embed=False
    )
    return "updated"


def _skipped(root: Path, why: str) -> str:
    _log_line(root, f"session capture skipped: {why}")
    return f"skipped: {why}"


def _log_line(root: Path, message: str) -> None:
    """One line in the project's log (``.claude/memory/memory-tui.log``); silent where
    there is no place for it."""
    from engine import MemoryPaths, printable_line

    try:
        path = MemoryPaths.for_root(root).log_path
        if not path.parent.is_dir():
            return
        handler = logging.FileHandler(path, encoding="utf-8")
    except Exception:  # a memory folder leading outside, a read-only disk
        return
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    try:
        log.warning("%s", printable_line(message))
    finally:
        log.removeHandler(handler)
        handler.close()
