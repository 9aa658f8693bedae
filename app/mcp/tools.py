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
    SearchSource,
    StaleOnly,
)
from engine import (
    EngineError,
    FileIsSourceError,
    NewEntry,
    SearchMode,
    Source,
    add_json,
    entry_json,
    results_json,
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
    state: ServerState,
    tool: str,
    work: Callable[[Memory], dict[str, Any]],
    *,
    threads: anyio.CapacityLimiter | None = None,
) -> CallToolResult:
    """Run ``work`` on the memory in a worker thread (one of ``threads``, when given);
    map every failure to a tool error."""
    try:
        payload = await anyio.to_thread.run_sync(lambda: work(state.memory()), limiter=threads)
    except EngineError as exc:
        log.info("%s: %s: %s", tool, exc.code, exc.message)
        return errors.engine_failure(exc)
    except Exception:
        log.exception("%s raised an unexpected exception", tool)
        return errors.internal_failure(tool)
    return errors.success(payload)


def search_payload(
    state: ServerState,
    memory: Memory,
    query: str,
    *,
    limit: int | None,
    category: str | None,
    mode: str | None,
    min_score: float | None = None,
    source: str | None = None,
    stale_only: bool = False,
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
        source=source,
        stale_only=stale_only,
        wait_for_model=wait,
        min_score=min_score,
    )
    rows = results_json(response.results, knowledge_prefix=memory.paths.knowledge_prefix)
    state.count_references([r.entry.id for r in response.results])
    return {
        "query": query,
        "mode": requested.value,
        "used": response.used.value,
        "count": len(rows),
        "results": rows,
        "warnings": _search_warnings(state, list(response.warnings)),
    }


BUILDING = (
    "this clone's memory is being built from its knowledge files and docs (first start): "
    "results are partial for a few seconds"
)


def _search_warnings(state: ServerState, warnings: list[str]) -> list[str]:
    """The search's warnings, saying what is really under way: while a fresh clone's
    memory is built, that (not the model, which loads after it) is why results are few."""
    if not state.building.is_set():
        return warnings
    return [BUILDING, *(w for w in warnings if "still loading" not in w)]


def add_payload(
    state: ServerState, memory: Memory, content: str, category: str, keywords: list[str] | None
) -> dict[str, Any]:
    """Store one entry written by the agent (source ``session``), through the server's
    writer, with the adds of the other sessions that arrive meanwhile (:mod:`.writer`)."""
    item = NewEntry(content, category, Source.SESSION, keywords or ())
    result = state.writer.add(memory, item)
    entry = entry_json(result.entry, knowledge_prefix=memory.paths.knowledge_prefix)
    near = result.near_duplicate
    close = (near.entry.id, near.similarity) if near else None
    return add_json(
        entry, created=result.created, redactions=result.redactions, near_duplicate=close
    )


def list_payload(
    memory: Memory,
    category: str | None,
    limit: int,
    source: str | None = None,
    stale_only: bool = False,
) -> dict[str, Any]:
    """Entries newest first; ``total``: how many match the filters."""
    found = memory.listing(category=category, source=source, limit=limit, stale_only=stale_only)
    prefix = memory.paths.knowledge_prefix
    return {
        "entries": [
            entry_json(e, stale_reason=found.stale.get(e.id, ""), knowledge_prefix=prefix)
            for e in found.entries
        ],
        "count": len(found.entries),
        "total": found.total,
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
        source: SearchSource = None,
        stale_only: StaleOnly = False,
    ) -> Annotated[CallToolResult, SearchOutput]:
        """Search the project's memory: curated knowledge files, notes saved by agents and
        people, and codebase discoveries. Search before exploring the code for how things
        work here. Returns {query, mode, used, count, results, warnings}; each result has
        rank, score (relevance 0..1, the same scale for every query: 0.5 is the default
        gate, 0.9 a close match; results are sorted by it), explanation (vectorRank,
        vectorSimilarity: raw cosine, keywordRank, bm25: raw, fusedScore, vectorWeight,
        coverage, gate, folded: more sections of its file folded under it) and the
        entry: id, category, source, filePath, line, lineEnd, sectionTitle, keywords,
        referenceCount, promoted, createdAt, updatedAt, uri, content, and
        stale/staleReason (stale=true: the code it cites changed since, so verify before
        relying on it). An empty list means nothing
        relevant is stored."""
        return await run_tool(
            state,
            "memory_search",
            lambda m: search_payload(
                state,
                m,
                query,
                limit=limit,
                category=category,
                mode=mode,
                source=source,
                stale_only=stale_only,
                min_score=min_score,
            ),
            threads=state.writer.searches,  # a few at a time: app/mcp/writer.py
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
        --all-notes after a review). Returns {success, created, id, category, message,
        redactions, nearDuplicate, entry} (entry: the stored entry, as in memory_list)."""
        return await run_tool(
            state, "memory_add", lambda m: add_payload(state, m, content, category, keywords)
        )

    @server.tool(name="memory_list", title="List memory entries", annotations=READ_ONLY)
    async def memory_list(
        category: ListCategory = None,
        limit: ListLimit = 50,
        source: SearchSource = None,
        stale_only: StaleOnly = False,
    ) -> Annotated[CallToolResult, ListOutput]:
        """List memory entries, newest first, optionally of one category or source, or only
        the stale ones. Returns {entries, count, total (entries matching the filters),
        category}; each entry has id, category, source, filePath, line,
        lineEnd, sectionTitle, keywords, referenceCount, promoted, promotedAt, createdAt,
        updatedAt, contentHash, uri, content, and stale/staleReason (stale=true: the code
        it cites changed or disappeared since it was written)."""
        return await run_tool(
            state, "memory_list", lambda m: list_payload(m, category, limit, source, stale_only)
        )

    @server.tool(name="memory_delete", title="Delete a memory entry", annotations=DESTRUCTIVE)
    async def memory_delete(id: EntryId) -> Annotated[CallToolResult, DeleteOutput]:
        """Delete one memory entry by id (for wrong or outdated knowledge). An unknown id
        is not an error: the answer says deleted=false. Entries indexed from a knowledge
        file are not deleted (deleted=false, the reason says which file): the file is the
        source, so edit it instead. Returns {deleted, id, reason}."""
        return await run_tool(state, "memory_delete", lambda m: delete_payload(m, id))

    @server.tool(name="memory_analyze", title="Analyse the codebase", annotations=DESTRUCTIVE)
    async def memory_analyze() -> Annotated[CallToolResult, AnalyzeOutput]:
        """Analyse the codebase (languages, structure, entry points, public symbols) and
        replace the 'discovery' entries with the result. Takes seconds to minutes on
        large repositories; run it after big structural changes. Returns {name, files,
        languages, sourceDirs, entryPoints, frameworks, testTools, symbols, entries:
        {created, kept, deleted}, errors}."""
        return await run_tool(state, "memory_analyze", analyze_payload)
