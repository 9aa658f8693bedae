"""``memory-tui hook``: Claude Code's ``UserPromptSubmit`` hook (and, by the input's
``hook_event_name``, the session hooks of :mod:`app.sessions`).

Reads the hook's JSON from stdin, finds the few entries that answer the prompt and
prints them as context for the agent. It runs on every prompt, in a fresh process, so it
cannot load the embedding model. When a ``serve-mcp`` of the same project runs (Claude
Code starts one per session) it asks that server, which has the model warm, for a hybrid
search (:func:`served_entries`, over a loopback socket: :mod:`app.hook_endpoint`, asked
through :mod:`app.hook_client`), and waits at most :data:`SERVED_TIMEOUT`. Otherwise, or
when no answer comes in time, it searches the keyword index itself (no model, no LanceDB)
and says nothing unless an entry covers most of what the prompt asks, weighing each word
by how rare it is in this memory (:mod:`engine.search.relevance`): a prompt about
something else injects nothing. At most :data:`MAX_RESULTS` entries, one per file, within
:data:`BUDGET` characters; release notes only when the prompt asks about versions or
changes. It never blocks the prompt: on any problem it prints nothing, logs to
``.claude/memory/memory-tui.log`` and exits 0.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.hook_client import Injected
from engine import MemoryPaths, printable

if TYPE_CHECKING:
    from engine import Memory, SearchResult

MAX_RESULTS = 3
BUDGET = 1_500
"""Characters of snippets injected per prompt, all entries together."""
SNIPPET = 400
SERVED_TIMEOUT = 0.25
"""Seconds the hook waits for a running ``serve-mcp`` to answer before it searches the
keyword index itself (its own budget is 0.5 s at p95; see bench/RESULTS.md)."""
SERVED_MIN_SCORE = 0.6
"""Relevance (0..1, :mod:`engine.search.gate`) a served hybrid result must reach. Chosen
by ``python -m bench.hook_gate --served`` on typer, express, zustand and hono only: the
lowest floor that kept each silent on >= 95 % of the off-topic prompts (0.5 spoke on 4 of
64 on typer), checked on the other four sets (bench/RESULTS.md)."""
SERVED_CANDIDATES = 10
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
    paths = MemoryPaths.for_root(root)  # refuses a memory folder that leads outside
    if not prompt.strip() or not paths.fts_path.exists():
        return ""
    from app.hook_client import ask

    served = ask(paths.memory_dir, root, prompt[:MAX_PROMPT], SERVED_TIMEOUT)
    if served is not None:  # the server counted the references
        return format_context(served)
    from engine import Memory

    with Memory.open(root, config=config_or_defaults(root, "hook")) as memory:
        chosen = entries_for(memory, prompt)
        memory.referenced([r.entry.id for r in chosen])  # injected: referenced
    return format_context(chosen)


def entries_for(memory: Memory, prompt: str) -> list[SearchResult]:
    """The entries the hook injects for ``prompt`` (none when nothing is relevant)."""
    return choose([r for r, _ in memory.relevant(prompt[:MAX_PROMPT])], prompt)


def served_entries(
    memory: Memory, prompt: str, *, min_score: float | None = None
) -> list[SearchResult]:
    """The entries a running server injects for ``prompt``: a hybrid search (the model is
    warm there) whose results reach :data:`SERVED_MIN_SCORE`; the keyword selection
    (:func:`entries_for`) while the model is not loaded yet."""
    if not memory.model_loaded:
        return entries_for(memory, prompt)
    floor = SERVED_MIN_SCORE if min_score is None else min_score
    response = memory.search(
        prompt[:MAX_PROMPT], mode="hybrid", limit=SERVED_CANDIDATES, wait_for_model=False
    )
    return choose([r for r in response.results if r.score >= floor], prompt)


def choose(results: list[SearchResult], prompt: str) -> list[SearchResult]:
    """At most :data:`MAX_RESULTS`, one per file, release notes only when asked about."""
    from engine import classify_path

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


def injected(result: SearchResult) -> Injected:
    """What the hook shows of ``result``."""
    entry = result.entry
    return Injected(
        id=entry.id,
        category=entry.category.value,
        location=entry.location or entry.source.value,
        content=entry.content,
        stale=result.stale,
        stale_reason=result.stale_reason or "",
    )


def format_context(results: Sequence[Injected | SearchResult]) -> str:
    """The text Claude Code adds to the prompt's context, terminal controls made inert
    (:func:`engine.printable`) whichever process chose the entries."""
    if not results:
        return ""
    items = [r if isinstance(r, Injected) else injected(r) for r in results]
    lines = ["<project-memory>", "Possibly relevant notes from this project's memory:"]
    left = BUDGET
    for item in items[:MAX_RESULTS]:
        snippet = " ".join(item.content.split())
        room = min(SNIPPET, left)
        if len(snippet) > room:
            snippet = snippet[:room].rsplit(" ", 1)[0] + "…"
        left -= len(snippet)
        stale = f" [stale: {item.stale_reason or 'the code it cites changed'}]" * item.stale
        where = " ".join(item.location.split())
        lines.append(f"- [{item.category}] {where} (id {item.id}){stale}: {snippet}")
    lines.append("Use the memory_search tool for more.")
    lines.append("</project-memory>")
    return printable("\n".join(lines) + "\n")


def hook_output(stdin_text: str, project: Path | None) -> str:
    """What ``memory-tui hook`` prints: a session event's (:mod:`app.sessions.hook`,
    by the input's ``hook_event_name``) or the prompt's context."""
    from app.sessions.hook import SESSION_EVENTS, event_of, session_hook

    try:
        payload: Any = json.loads(stdin_text) if stdin_text.strip() else {}
    except json.JSONDecodeError:
        payload = None  # reported by prompt_context
    if event_of(payload) in SESSION_EVENTS:
        return session_hook(payload, project)
    return prompt_context(stdin_text, project)


def main(project: Path | None) -> int:
    """Entry point used by the CLI; always exits 0."""
    try:
        output = hook_output(sys.stdin.read(), project)
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
