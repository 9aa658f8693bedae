"""Seed parity (issue #20) through the MCP tools (in-process SDK client, fake embedder)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from fakes import ControlledEmbedder, FakeEmbedder
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp_helpers import call, call_error, connect

from app.mcp.server import MemoryServer, create_server
from engine.embedding.base import DIMENSION
from engine.services.memory import Memory

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


async def test_seed000_serve_mcp_never_fails_on_a_bad_config(tmp_path: Path) -> None:
    project = tmp_path / "project"
    with Memory.open(project, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        memory.add(CLOSE, category="pattern")
    (project / ".claude" / "memory.config.json").write_text('{"minScore": 7}', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_MEMORY_")}
    params = StdioServerParameters(
        command=str(Path(sys.executable).parent / "memory-tui"),
        args=["serve-mcp", "--project", str(project)],
        env=env,
    )
    with (tmp_path / "stderr.log").open("w", encoding="utf-8") as errlog:
        async with Client(stdio_client(params, errlog=errlog), mode="legacy", cache=None) as c:
            listed = await call(c, "memory_list")
            found = await call(c, "memory_search", query="sprocket grease", mode="keyword")
    assert listed["count"] == 1
    assert [r["content"] for r in found["results"]] == [CLOSE]
    stderr = (tmp_path / "stderr.log").read_text(encoding="utf-8")
    assert "memory-tui serve-mcp:" in stderr and "'minScore'" in stderr
    assert "using the default configuration" in stderr and "Traceback" not in stderr


AUTH = "Auth uses JWT with 24h expiry"
PARAPHRASE = "Authentication uses JWT tokens with 24-hour expiry"


async def test_seed002_memory_add_reports_a_near_duplicate(tmp_path: Path) -> None:
    embedder = ControlledEmbedder({AUTH: [1.0, 0.0], PARAPHRASE: [0.95, 0.312]})
    memory = Memory.open(tmp_path, embedder=embedder)
    server = create_server(memory, warm_up=False)
    async with connect(server) as client:
        first = await call(client, "memory_add", content=AUTH)
        second = await call(client, "memory_add", content=PARAPHRASE)
    server.state.close()
    memory.close()
    assert first["nearDuplicate"] is None
    assert second["created"] is True
    assert second["nearDuplicate"]["id"] == first["id"]
    assert second["nearDuplicate"]["similarity"] == pytest.approx(0.95, abs=0.01)
    assert f"near duplicate of {first['id']}" in second["message"]
