"""``serve-mcp`` embeds entries that wait for their vector in the background once warmed
up; hybrid search meanwhile keeps them on their keywords and says so."""

from __future__ import annotations

import time
from pathlib import Path

import anyio
import anyio.to_thread
from fakes import FakeEmbedder
from mcp_helpers import call, connect

from app.mcp.server import create_server
from engine.services.indexing import Indexer
from engine.services.memory import Memory


async def test_the_server_embeds_the_backlog_in_the_background(tmp_path: Path) -> None:
    folder = tmp_path / ".claude" / "knowledge"
    folder.mkdir(parents=True)
    (folder / "hooks.md").write_text("# Hooks\n\nWebhooks are verified with an HMAC.\n")
    memory = Memory.open(tmp_path, embedder=FakeEmbedder())
    Indexer(memory).run(embed=False)
    server = create_server(memory, warm_up=False)
    try:
        async with connect(server) as client:
            early = await call(client, "memory_search", query="webhooks HMAC secret")
            server.state.start_warm_up(wait_for_client=False)
            assert await anyio.to_thread.run_sync(server.state.warmed.wait, 30)
            deadline = time.monotonic() + 30
            while memory.vectors_waiting() and time.monotonic() < deadline:
                await anyio.sleep(0.05)
            late = await call(client, "memory_search", query="webhooks HMAC secret")
            left = memory.vectors_waiting()
    finally:
        server.state.close()
        memory.close()
    assert early["used"] == "hybrid"
    assert early["results"][0]["explanation"]["gate"] == "vector_pending"
    assert left == 0
    assert late["results"][0]["explanation"]["gate"] != "vector_pending"
    assert late["results"][0]["explanation"]["vectorRank"] == 1


async def test_a_fresh_clone_is_indexed_before_the_model_loads_and_searches_say_so(
    tmp_path: Path,
) -> None:
    """The first search in a fresh clone names what is under way: the memory being built
    from the knowledge files (first), not the model (which loads after)."""
    folder = tmp_path / ".claude" / "knowledge"
    folder.mkdir(parents=True)
    (folder / "hooks.md").write_text("# Hooks\n\nWebhooks are verified with an HMAC.\n")
    memory = Memory.open(tmp_path, embedder=FakeEmbedder())
    server = create_server(memory, warm_up=False)
    order: list[str] = []
    real_warm_up = memory.warm_up
    memory.warm_up = lambda **kw: (order.append(f"model ({memory.count()} entries)"),  # type: ignore[method-assign]
                                   real_warm_up(**kw))[1]  # fmt: skip
    try:
        async with connect(server) as client:
            server.state.building.set()  # as while the clone's files are indexed
            during = await call(client, "memory_search", query="webhooks HMAC")
            server.state.building.clear()
            server.state.start_warm_up(wait_for_client=False)
            assert await anyio.to_thread.run_sync(server.state.warmed.wait, 30)
            after = await call(client, "memory_search", query="webhooks HMAC", mode="keyword")
    finally:
        server.state.close()
        memory.close()
    assert any("being built" in w for w in during["warnings"])
    assert not any("still loading" in w for w in during["warnings"])
    assert order == ["model (1 entries)"]  # the files were indexed before the model loaded
    assert after["count"] == 1 and not after["warnings"]
