"""``memory_search`` through the MCP tools (in-process SDK client, fake embedder): ``min_score``
for one search, and a repeated query embedded once.
"""

from __future__ import annotations

from fakes import FakeEmbedder
from mcp_helpers import call, call_error, connect

from app.mcp.server import MemoryServer

CLOSE = "sprocket grease schedule weekly"


FAR = "sprocket alignment jig workshop"


async def test_seed003_f6_memory_search_min_score(server: MemoryServer) -> None:
    memory = server.state.memory()
    memory.add(CLOSE)
    memory.add(FAR)
    query = "sprocket grease schedule"
    async with connect(server) as client:
        loose = await call(client, "memory_search", query=query, mode="vector")
        strict = await call(client, "memory_search", query=query, mode="vector", min_score=0.7)
        bad = await call_error(client, "memory_search", query=query, min_score=3)
    assert {r["content"] for r in loose["results"]} == {CLOSE, FAR}
    assert [r["content"] for r in strict["results"]] == [CLOSE]
    assert "min_score" in bad["error"]


async def test_seed002_serve_mcp_embeds_a_repeated_query_once(
    server: MemoryServer, fake_embedder: FakeEmbedder
) -> None:
    server.state.memory().add(CLOSE)
    before = fake_embedder.queries
    async with connect(server) as client:
        for _ in range(3):
            found = await call(client, "memory_search", query="sprocket grease", mode="vector")
            assert found["count"] == 1
    assert fake_embedder.queries == before + 1
