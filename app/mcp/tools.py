"""The MCP tools: thin wrappers that validate, call the engine in a thread, shape JSON.

Each handler is async and runs the blocking engine call through ``anyio.to_thread``, so
the event loop keeps answering other requests. Engine errors become tool errors with
their stable code (:mod:`app.mcp.errors`); nothing else escapes a handler.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import anyio.to_thread
from mcp.types import CallToolResult, ToolAnnotations

from app.mcp import errors
from app.mcp.knowledge import SCHEME
from app.mcp.schemas import (
    MAX_SEARCH_LIMIT,
    AddCategory,
    AddOutput,
    AnalyzeOutput,
    Content,
    DeleteOutput,
    EntryId,
    Keywords,
    ListCategory,
    ListLimit,
    ListOutput,
    MinScore,
    Mode,
    Query,
    SearchCategory,
    SearchLimit,
    SearchOutput,
)
from engine import (
    EngineError,
    Entry,
    FileIsSourceError,
    SearchMode,
    Source,
    entry_record,
    result_rows,
)

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from app.mcp.state import ServerState
    from engine import Memory

log = logging.getLogger("memory_tui.mcp")

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
ADDITIVE = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
DESTRUCTIVE = ToolAnnotations(
    read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
)
TOOL_NAMES = ("memory_search", "memory_add", "memory_list", "memory_delete", "memory_analyze")


async def run_tool(
    state: ServerState, tool: str, work: Callable[[Memory], dict[str, Any]]
) -> CallToolResult:
    """Run ``work`` on the memory in a worker thread; map every failure to a tool error."""
    try:
        payload = await anyio.to_thread.run_sync(lambda: work(state.memory()))
    except EngineError as exc:
        log.info("%s: %s: %s", tool, exc.code, exc.message)
        return errors.engine_failure(exc)
    except Exception:
        log.exception("%s raised an unexpected exception", tool)
        return errors.internal_failure(tool)
    return errors.success(payload)


def _uri(memory: Memory, entry: Entry) -> str | None:
    """The ``memory://`` resource of an entry's knowledge file, if it has one."""
    if entry.source is not Source.MARKDOWN or not entry.file_path:
        return None
    try:
        prefix = memory.paths.knowledge_dir.relative_to(memory.paths.root).as_posix() + "/"
    except ValueError:
        return None
    return SCHEME + entry.file_path[len(prefix) :] if entry.file_path.startswith(prefix) else None


def search_payload(
    state: ServerState,
    memory: Memory,
    query: str,
    *,
    limit: int | None,
    category: str | None,
    mode: str | None,
    min_score: float | None = None,
) -> dict[str, Any]:
    """Run one search; queue the reference counting of what it returned."""
    requested = SearchMode(mode) if mode else memory.config.search_mode
    wait = requested is SearchMode.VECTOR  # asked for meaning explicitly: worth the wait
    if not wait and not state.model_loaded():
        state.start_warm_up(wait_for_client=False)  # keyword results now, vectors soon
    response = memory.search(
        query,
        mode=requested,
        limit=limit or min(memory.config.default_limit, MAX_SEARCH_LIMIT),
        category=category,
        wait_for_model=wait,
        min_score=min_score,
    )
    rows = result_rows(response.results)
    for row, result in zip(rows, response.results, strict=True):
        row["staleReason"] = result.stale_reason
        row["referenceCount"] = result.entry.reference_count
        row["uri"] = _uri(memory, result.entry)
    state.record_references([r.entry.id for r in response.results])
    return {
        "query": query,
        "mode": requested.value,
        "used": response.used.value,
        "count": len(rows),
        "results": rows,
        "warnings": list(response.warnings),
    }


def add_payload(
    memory: Memory, content: str, category: str, keywords: list[str] | None
) -> dict[str, Any]:
    """Store one entry written by the agent (source ``session``)."""
    result = memory.add(content, category=category, source=Source.SESSION, keywords=keywords or ())
    entry = result.entry
    if result.created:
        message = f"Entry added to memory as {entry.id}"
        if result.redactions:
            message += " (redacted: " + ", ".join(result.redactions) + ")"
    else:
        message = f"Identical content is already stored as {entry.id}; nothing was added"
    near = result.near_duplicate
    if near is not None:
        close = f"{near.entry.id} (cosine similarity {near.similarity:.2f})"
        message = (
            f"Entry added to memory as {entry.id}; it is a near duplicate of {close}: "
            "consider deleting one of them"
            if result.created
            else f"Not added: a near duplicate of {close} is already stored"
        )
    return {
        "success": True,
        "created": result.created,
        "id": entry.id,
        "category": entry.category.value,
        "message": message,
        "redactions": list(result.redactions),
        "nearDuplicate": (
            {"id": near.entry.id, "similarity": round(near.similarity, 3)} if near else None
        ),
    }


LIST_FIELDS = (
    "id",
    "category",
    "source",
    "filePath",
    "line",
    "sectionTitle",
    "keywords",
    "createdAt",
    "updatedAt",
    "referenceCount",
    "promoted",
    "content",
)
"""The entry fields of a ``memory_list`` row (``stale`` and ``staleReason`` follow)."""


def entry_row(entry: Entry, stale_reason: str = "") -> dict[str, Any]:
    """One entry as ``memory_list`` returns it."""
    row = entry_record(entry, LIST_FIELDS)
    row.update(stale=bool(stale_reason), staleReason=stale_reason)
    row["content"] = row.pop("content")  # last: the long field
    return row


def list_payload(memory: Memory, category: str | None, limit: int) -> dict[str, Any]:
    """Entries newest first."""
    entries = memory.list(category=category, limit=limit)
    try:
        stale = memory.freshness.stale([e.id for e in entries])
    except Exception:  # stale flags are derived: a broken citation file must not fail a list
        log.warning("could not check entries for stale citations", exc_info=True)
        stale = {}
    return {
        "entries": [entry_row(e, stale.get(e.id, "")) for e in entries],
        "count": len(entries),
        "total": memory.count(category=category),
        "category": category,
    }


def delete_payload(memory: Memory, entry_id: str) -> dict[str, Any]:
    """Delete one entry; a missing id is reported, not raised."""
    try:
        deleted = memory.delete(entry_id)
    except FileIsSourceError as exc:  # indexed from a knowledge file: the file is the source
        return {"deleted": False, "id": entry_id, "reason": exc.message}
    if not deleted:
        return {"deleted": False, "id": entry_id, "reason": "Entry not found"}
    return {"deleted": True, "id": entry_id, "reason": None}


def analyze_payload(memory: Memory) -> dict[str, Any]:
    """Analyse the codebase and refresh the discovery entries."""
    from engine import run_discovery

    report = run_discovery(memory)
    return {**report.summary(), "errors": len(report.analysis.errors)}


def register_tools(server: MCPServer[Any], state: ServerState) -> None:
    """Register the five memory tools on ``server``."""

    @server.tool(name="memory_search", title="Search project memory", annotations=READ_ONLY)
    async def memory_search(
        query: Query,
        limit: SearchLimit = None,
        category: SearchCategory = None,
        mode: Mode = None,
        min_score: MinScore = None,
    ) -> Annotated[CallToolResult, SearchOutput]:
        """Search the project's memory: curated knowledge files, notes saved by agents and
        people, and codebase discoveries. Returns the best matches (id, content, score,
        category, source, filePath/line, sectionTitle); an empty list means nothing
        relevant is stored. Search before exploring the code for how things work here."""
        return await run_tool(
            state,
            "memory_search",
            lambda m: search_payload(
                state, m, query, limit=limit, category=category, mode=mode, min_score=min_score
            ),
        )

    @server.tool(name="memory_add", title="Save to project memory", annotations=ADDITIVE)
    async def memory_add(
        content: Content, category: AddCategory = "general", keywords: Keywords = None
    ) -> Annotated[CallToolResult, AddOutput]:
        """Save one durable piece of project knowledge (a decision, a gotcha, a pattern, how
        a component works) so later sessions can find it. Identical content is stored once:
        adding it again returns the existing id with created=false. A note close in meaning
        to a stored one (cosine >= 0.9) is reported in nearDuplicate with that entry's id.
        The note stays in this machine's memory (not shared with the team through git)
        until someone promotes it into .claude/knowledge/ (memory-tui promote ID, or
        --all-notes after a review)."""
        return await run_tool(
            state, "memory_add", lambda m: add_payload(m, content, category, keywords)
        )

    @server.tool(name="memory_list", title="List memory entries", annotations=READ_ONLY)
    async def memory_list(
        category: ListCategory = None, limit: ListLimit = 50
    ) -> Annotated[CallToolResult, ListOutput]:
        """List memory entries, newest first, optionally of one category."""
        return await run_tool(state, "memory_list", lambda m: list_payload(m, category, limit))

    @server.tool(name="memory_delete", title="Delete a memory entry", annotations=DESTRUCTIVE)
    async def memory_delete(id: EntryId) -> Annotated[CallToolResult, DeleteOutput]:
        """Delete one memory entry by id (for wrong or outdated knowledge). An unknown id
        is not an error: the answer says deleted=false. Entries indexed from a knowledge
        file are not deleted (deleted=false, the reason says which file): the file is the
        source, so edit it instead."""
        return await run_tool(state, "memory_delete", lambda m: delete_payload(m, id))

    @server.tool(name="memory_analyze", title="Analyse the codebase", annotations=DESTRUCTIVE)
    async def memory_analyze() -> Annotated[CallToolResult, AnalyzeOutput]:
        """Analyse the codebase (languages, structure, entry points, public symbols) and
        replace the 'discovery' entries with the result. Takes seconds to minutes on
        large repositories; run it after big structural changes."""
        return await run_tool(state, "memory_analyze", analyze_payload)
