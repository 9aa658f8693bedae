"""Every failure of a tool is a tool error with a stable code; the server keeps running."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fakes import FakeEmbedder
from mcp_helpers import call, call_error, connect

from app.mcp import errors
from app.mcp.server import MemoryServer, create_server
from engine.core.errors import ContentTooLongError, StorageError
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage.locking import WriteLock


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("memory_search", {}, "query"),
        ("memory_search", {"query": ""}, "query"),
        ("memory_search", {"query": "x" * 501}, "query"),
        ("memory_search", {"query": "cache", "limit": 0}, "limit"),
        ("memory_search", {"query": "cache", "limit": 21}, "limit"),
        ("memory_search", {"query": "cache", "limit": "many"}, "limit"),
        ("memory_search", {"query": "cache", "category": "recipes"}, "category"),
        ("memory_search", {"query": "cache", "mode": "fuzzy"}, "mode"),
        ("memory_add", {}, "content"),
        ("memory_add", {"content": ""}, "content"),
        ("memory_add", {"content": "note", "category": "misc"}, "category"),
        ("memory_add", {"content": "note", "keywords": [f"k{n}" for n in range(11)]}, "keywords"),
        ("memory_list", {"limit": 101}, "limit"),
        ("memory_delete", {}, "id"),
    ],
)
async def test_schema_violations_are_invalid_input(
    server: MemoryServer, tool: str, arguments: dict[str, Any], field: str
) -> None:
    async with connect(server) as client:
        error = await call_error(client, tool, **arguments)
        await call(client, "memory_list")  # still serving
    assert error["code"] == "INVALID_INPUT"
    assert error["recoverable"] is True
    assert error["fields"] == [field]
    assert field in error["error"] and tool in error["error"]


async def test_blank_query_is_invalid_input(server: MemoryServer) -> None:
    async with connect(server) as client:
        error = await call_error(client, "memory_search", query="   \n ")
    assert error["code"] == "INVALID_INPUT" and "empty" in error["error"]


async def test_long_content_is_content_too_long_with_lengths(server: MemoryServer) -> None:
    async with connect(server) as client:
        error = await call_error(client, "memory_add", content="y" * 12_345)
    assert error["code"] == "CONTENT_TOO_LONG"
    assert error["maxLength"] == 10_000 and error["actualLength"] == 12_345
    assert "12,345" in error["error"] and "yyyy" not in error["error"]


def test_engine_content_too_long_carries_the_limit() -> None:
    result = errors.engine_failure(ContentTooLongError("content is 10,050 characters"))
    assert result.is_error and '"maxLength": 10000' in result.content[0].text  # type: ignore[union-attr]


async def test_likely_secret_is_secret_detected(server: MemoryServer, memory: Memory) -> None:
    # Not AWS's documented AKIAIOSFODNN7EXAMPLE: gitleaks' rules (issue 35) let that through.
    key = "AKIA" + "QZ7XJ2M4PLRT3VWZ"
    async with connect(server) as client:
        error = await call_error(client, "memory_add", content=f"deploy with key {key} please")
    assert error["code"] == "SECRET_DETECTED"
    assert key not in error["error"]
    assert memory.count() == 0


async def test_bad_config_is_config_invalid_until_fixed(tmp_path: Path) -> None:
    config = tmp_path / ".claude" / "memory.config.toml"
    config.parent.mkdir()
    config.write_text("min_score = 7\n", encoding="utf-8")
    server = create_server(lambda: Memory.open(tmp_path, embedder=FakeEmbedder()), warm_up=False)
    async with connect(server) as client:
        error = await call_error(client, "memory_search", query="anything")
        config.write_text("min_score = 0.3\n", encoding="utf-8")
        fixed = await call(client, "memory_list")
    server.state.close()
    assert error["code"] == "CONFIG_INVALID"
    assert "min_score" in error["error"] and "hint" in error
    assert fixed["count"] == 0


async def test_held_write_lock_is_storage_busy(server: MemoryServer, memory: Memory) -> None:
    parts_of(memory).lock.timeout = 0.2
    other_process = WriteLock(memory.paths.lock_path)  # its own flock, like another process
    async with connect(server) as client:
        with other_process.hold():
            error = await call_error(client, "memory_add", content="written while locked")
        added = await call(client, "memory_add", content="written while locked")
    assert error["code"] == "STORAGE_BUSY" and error["recoverable"] is True
    assert added["created"]


async def test_storage_failure_is_storage_error(
    server: MemoryServer, memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(**_: object) -> None:
        raise StorageError("cannot read .claude/memory/vectors")

    monkeypatch.setattr(memory, "list", broken)
    async with connect(server) as client:
        error = await call_error(client, "memory_list")
    assert error["code"] == "STORAGE_ERROR" and error["recoverable"] is False


async def test_a_crash_is_internal_error_without_details(
    server: MemoryServer, memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(*_: object, **__: object) -> None:
        raise RuntimeError("/home/someone/secret/path exploded")

    monkeypatch.setattr(memory, "search", crash)
    async with connect(server) as client:
        error = await call_error(client, "memory_search", query="anything")
        monkeypatch.undo()
        ok = await call(client, "memory_search", query="anything")
    assert error["code"] == "INTERNAL_ERROR"
    assert "memory_search" in error["error"]
    assert "secret" not in error["error"] and "RuntimeError" not in error["error"]
    assert ok["count"] == 0


async def test_unknown_tool_is_unknown_tool(server: MemoryServer) -> None:
    async with connect(server) as client:
        error = await call_error(client, "memory_forget_everything")
    assert error["code"] == "UNKNOWN_TOOL" and "memory_search" in error["error"]
