"""``memory-tui hook``: Claude Code's ``UserPromptSubmit`` hook.

Reads the hook's JSON from stdin, finds the few entries most relevant to the prompt
with keyword search (no model, no LanceDB: it runs on every prompt) and prints them
as context for the agent. It never blocks the prompt: on any problem it prints
nothing, logs to ``.claude/memory/memory-tui.log`` and exits 0.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

from engine import STOPWORDS, MemoryPaths, SearchResult, words

MAX_RESULTS = 3
MIN_COVERAGE = 0.5
"""Share of the prompt's content words an entry must contain to be shown."""
SNIPPET = 300
log = logging.getLogger("memory_tui.hook")


def prompt_context(stdin_text: str, project: Path | None) -> str:
    """The context block for one hook invocation ('' when nothing is relevant).

    The project is ``project`` if given, else found from the hook's ``cwd``.
    """
    from app.project import find_project_root

    try:
        payload: Any = json.loads(stdin_text) if stdin_text.strip() else {}
    except json.JSONDecodeError:
        payload = {"prompt": stdin_text}
    prompt = str(payload.get("prompt", "")) if isinstance(payload, dict) else ""
    cwd = payload.get("cwd") if isinstance(payload, dict) else None
    root = project or find_project_root(Path(str(cwd)) if cwd else None)
    terms = set(words(prompt)) - STOPWORDS
    if not terms or not MemoryPaths.for_root(root).fts_path.exists():
        return ""
    from engine import Memory

    with Memory.open(root) as memory:
        results = memory.search(prompt[:2000], mode="keyword", limit=MAX_RESULTS * 3).results
    relevant = [r for r in results if _coverage(terms, r) >= MIN_COVERAGE][:MAX_RESULTS]
    return format_context(relevant)


def _coverage(terms: set[str], result: SearchResult) -> float:
    entry = result.entry
    found = set(words(f"{entry.content} {entry.section_title}"))
    found |= {k.lower() for k in entry.keywords}
    return len(terms & found) / len(terms)


def format_context(results: list[SearchResult]) -> str:
    """The text Claude Code adds to the prompt's context."""
    if not results:
        return ""
    lines = ["<project-memory>", "Possibly relevant notes from this project's memory:"]
    for result in results:
        entry = result.entry
        where = entry.location or entry.source.value
        snippet = " ".join(entry.content.split())
        if len(snippet) > SNIPPET:
            snippet = snippet[:SNIPPET].rsplit(" ", 1)[0] + "…"
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
    except OSError:
        pass
