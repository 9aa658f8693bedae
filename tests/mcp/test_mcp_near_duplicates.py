"""``memory_add`` reports a near duplicate (in-process SDK client, vectors at a known cosine)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import ControlledEmbedder
from mcp_helpers import call, connect

from app.mcp.server import create_server
from engine.services.memory import Memory

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
