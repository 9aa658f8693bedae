"""``memory-tui hook``: Claude Code's ``UserPromptSubmit`` hook.

Reads the hook's JSON from stdin, finds the few entries that answer the prompt and
prints them as context for the agent. It runs on every prompt, so it uses keyword search
only (no model, no LanceDB) and says nothing unless an entry covers most of what the
prompt asks, weighing each word by how rare it is in this memory
(:mod:`engine.search.relevance`): a prompt about something else injects nothing. At most
:data:`MAX_RESULTS` entries, one per file, within :data:`BUDGET` characters; release
notes only when the prompt asks about versions or changes. It never blocks the prompt:
on any problem it prints nothing, logs to ``.claude/memory/memory-tui.log`` and exits 0.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import MemoryPaths, SearchResult, classify_path

if TYPE_CHECKING:
    from engine import Memory

MAX_RESULTS = 3
BUDGET = 1_500
"""Characters of snippets injected per prompt, all entries together."""
SNIPPET = 400
MAX_PROMPT = 2_000
"""Characters of the prompt searched (a pasted log is not a question)."""
_ASKS_ABOUT_CHANGES = re.compile(
    r"\b(?:versions?|releases?|released|changelog|changes|changed|upgrad\w*|migrat\w*"
    r"|deprecat\w*|breaking|what'?s new|new in)\b",
    re.IGNORECASE,
)
log = logging.getLogger("memory_tui.hook")


def prompt_context(stdin_text: str, project: Path | None) -> str:
    """The context block for one hook invocation ('' when nothing is relevant).

    The project is ``project`` if given, else found from the hook's ``cwd``.
    """
    from app.project import config_or_defaults, find_project_root

    try:
        payload: Any = json.loads(stdin_text) if stdin_text.strip() else {}
    except json.JSONDecodeError as exc:
        # Claude Code sends JSON; anything else is a wiring mistake, not a prompt.
        print(
            f"memory-tui hook: stdin is not the hook's JSON ({exc}); nothing added", file=sys.stderr
        )
        return ""
    prompt = str(payload.get("prompt", "")) if isinstance(payload, dict) else ""
    cwd = payload.get("cwd") if isinstance(payload, dict) else None
    root = project or find_project_root(Path(str(cwd)) if cwd else None)
    if not prompt.strip() or not MemoryPaths.for_root(root).fts_path.exists():
        return ""
    from engine import Memory

    with Memory.open(root, config=config_or_defaults(root, "hook")) as memory:
        chosen = entries_for(memory, prompt)
        memory.record_references([r.entry.id for r in chosen])  # injected: referenced
    return format_context(chosen)


def entries_for(memory: Memory, prompt: str) -> list[SearchResult]:
    """The entries the hook injects for ``prompt`` (none when nothing is relevant)."""
    return choose([r for r, _ in memory.relevant(prompt[:MAX_PROMPT])], prompt)


def choose(results: list[SearchResult], prompt: str) -> list[SearchResult]:
    """At most :data:`MAX_RESULTS`, one per file, release notes only when asked about."""
    wants_changes = bool(_ASKS_ABOUT_CHANGES.search(prompt))
    chosen: list[SearchResult] = []
    files: set[str] = set()
    for result in results:
        path = result.entry.file_path
        if classify_path(path) == "release-notes" and not wants_changes:
            continue
        if path and path in files:
            continue
        files.add(path)
        chosen.append(result)
        if len(chosen) == MAX_RESULTS:
            break
    return chosen


def format_context(results: list[SearchResult]) -> str:
    """The text Claude Code adds to the prompt's context."""
    if not results:
        return ""
    lines = ["<project-memory>", "Possibly relevant notes from this project's memory:"]
    left = BUDGET
    for result in results:
        entry = result.entry
        where = entry.location or entry.source.value
        snippet = " ".join(entry.content.split())
        room = min(SNIPPET, left)
        if len(snippet) > room:
            snippet = snippet[:room].rsplit(" ", 1)[0] + "…"
        left -= len(snippet)
        stale = f" [stale: {result.stale_reason or 'the code it cites changed'}]" * result.stale
        lines.append(f"- [{entry.category.value}] {where} (id {entry.id}){stale}: {snippet}")
    lines.append("Use the memory_search tool for more.")
    lines.append("</project-memory>")
    return "\n".join(lines) + "\n"


def main(project: Path | None) -> int:
    """Entry point used by the CLI; always exits 0."""
    try:
        output = prompt_context(sys.stdin.read(), project)
    except Exception:  # the hook must never block a prompt
        from app.project import find_project_root

        _log_to_file(project or find_project_root())
        return 0
    if output:
        try:
            sys.stdout.write(output)
            sys.stdout.flush()
        except BrokenPipeError:
            pass
    return 0


def _log_to_file(root: Path) -> None:
    try:
        path = MemoryPaths.for_root(root).log_path
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(path, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
        log.addHandler(handler)
        log.exception("hook failed")
        handler.close()
    except Exception:  # no log place (a read-only disk, a memory folder outside): stay silent
        pass
