"""The MCP tools flag entries whose cited code changed: ``stale`` and ``staleReason``."""

from __future__ import annotations

from mcp_helpers import call, connect

from app.mcp.server import MemoryServer
from engine.services.memory import Memory


async def test_search_and_list_carry_the_stale_flag(memory: Memory, server: MemoryServer) -> None:
    source = memory.paths.root / "billing.py"
    source.write_text("def compute_total(items):\n    return sum(items)\n", encoding="utf-8")
    async with connect(server) as client:
        added = await call(
            client, "memory_add", content="compute_total() in billing.py ignores refunds"
        )
        fresh = await call(client, "memory_search", query="refunds", mode="keyword")
        source.write_text("def total(items):\n    return sum(items)\n", encoding="utf-8")
        found = await call(client, "memory_search", query="refunds", mode="keyword")
        listed = await call(client, "memory_list")

    assert fresh["results"][0]["stale"] is False and fresh["results"][0]["staleReason"] == ""
    hit = found["results"][0]
    assert hit["id"] == added["id"]
    assert hit["stale"] is True
    assert hit["staleReason"] == "compute_total is no longer defined in billing.py"
    row = listed["entries"][0]
    assert row["id"] == added["id"] and row["stale"] is True
    assert row["staleReason"] == hit["staleReason"]


async def test_a_broken_citation_file_never_fails_a_list(
    memory: Memory, server: MemoryServer
) -> None:
    memory.add("compute_total() in billing.py ignores refunds", source="session")
    path = memory.paths.memory_dir / "citations.sqlite"
    path.write_bytes(b"not a database" * 100)
    for suffix in ("-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    async with connect(server) as client:
        listed = await call(client, "memory_list")

    assert [row["stale"] for row in listed["entries"]] == [False]
