"""What a running server answers its clients on the loopback endpoint
(:mod:`app.hook_endpoint`): the prompt hook's entries, the index runs of ``memory-tui
index`` and the git hooks, and the searches of ``memory-tui search``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from app.hook_client import IndexRequest, Injected, SearchRequest, config_key
from app.hook_endpoint import Answer, Index, Refused, Search

if TYPE_CHECKING:
    from app.mcp.server import MemoryServer
    from engine import Memory


def hook_answer(server: MemoryServer) -> Answer:
    """The entries ``server`` injects for a prompt: a hybrid search once the model is
    warm, the hook's keyword selection before (:func:`app.prompt_hook.served_entries`).
    The injected entries count as referenced, in the server's bookkeeping thread."""

    def answer(prompt: str) -> list[Injected]:
        from app.prompt_hook import injected, served_entries

        chosen = served_entries(server.state.memory(), prompt)
        server.state.count_references([r.entry.id for r in chosen])
        return [injected(r) for r in chosen]

    return answer


def index_answer(memory: Callable[[], Memory]) -> Index:
    """Run an index request on the server's memory (``memory()``: opened on first call)
    as ``memory-tui index`` would run it in the client: the same engine calls
    (:class:`engine.Indexer`, text first, then the vectors), under the same index lock;
    refused when the server's configuration is not the one the client would use (e.g. the
    file changed since the server started)."""

    def index(request: IndexRequest) -> dict[str, Any]:
        from engine import Indexer

        opened = _same_config(memory(), request.config)
        indexer = Indexer(opened)
        report = indexer.run(dry_run=request.dry_run, only=request.paths, embed=False)
        if request.embed and not request.dry_run:
            indexer.embed(report)
        return asdict(report)

    return index


def search_answer(memory: Callable[[], Memory]) -> Search:
    """Run a search request on the server's memory as ``memory-tui search`` would run it
    in the client (the same ``Memory.search``, ``render`` and ``Memory.referenced``), and
    return what it prints: ``warnings``, ``output`` (the rendered results) and
    ``promoted`` (id, project-relative path) pairs."""

    def search(request: SearchRequest) -> dict[str, Any]:
        from app.served import run_search

        searched = run_search(_same_config(memory(), request.config), request)
        promoted = [list(pair) for pair in searched.promoted]
        return {"warnings": searched.warnings, "output": searched.output, "promoted": promoted}

    return search


def _same_config(memory: Memory, key: str) -> Memory:
    """``memory``, whose configuration must be the client's (:func:`config_key`).

    Raises:
        Refused: the server runs with another configuration.
    """
    if config_key(memory.config) != key:
        raise Refused("the server runs with another configuration than the client's")
    return memory
