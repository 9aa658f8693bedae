"""Strict MCP arguments, through the SDK client: unknown tool arguments are refused by
name, prompt errors say what was wrong, and tool descriptions list what they return."""

from __future__ import annotations

import pytest
from mcp.shared.exceptions import MCPError
from mcp_helpers import call_error, connect

from app.mcp.server import MemoryServer
from app.mcp.tools import TOOL_NAMES


async def test_every_tool_schema_refuses_other_arguments(server: MemoryServer) -> None:
    async with connect(server) as client:
        tools = (await client.list_tools()).tools
    assert sorted(t.name for t in tools) == sorted(TOOL_NAMES)
    for tool in tools:
        assert tool.input_schema["additionalProperties"] is False, tool.name


async def test_an_unknown_argument_is_refused_by_name(server: MemoryServer) -> None:
    async with connect(server) as client:
        search = await call_error(
            client, "memory_search", query="deploys", categry="gotcha", verbose=True
        )
        listed = await call_error(client, "memory_list", limt=5)
        analyze = await call_error(client, "memory_analyze", path="src")
        stored = await client.call_tool("memory_list", {})
    assert search["code"] == "INVALID_INPUT"
    assert "'categry' (did you mean 'category'?)" in search["error"]
    assert "'verbose'" in search["error"] and search["fields"] == ["categry", "verbose"]
    assert "'limt' (did you mean 'limit'?)" in listed["error"]
    assert "memory_analyze" in analyze["error"] and "no arguments" in analyze["error"]
    assert not stored.is_error


async def test_prompt_errors_say_what_was_wrong(server: MemoryServer) -> None:
    async with connect(server) as client:
        with pytest.raises(MCPError) as unknown:
            await client.get_prompt("serch", {"topic": "auth"})
        with pytest.raises(MCPError) as missing:
            await client.get_prompt("query", {})
        with pytest.raises(MCPError) as blank:
            await client.get_prompt("query", {"topic": "  "})
        with pytest.raises(MCPError) as extra:
            await client.get_prompt("query", {"topic": "auth", "topc": "x"})
        good = await client.get_prompt("query", {"topic": "auth tokens"})
    for caught in (unknown, missing, blank, extra):
        assert "Internal server error" not in str(caught.value)
    assert "no prompt 'serch'" in str(unknown.value) and "query" in str(unknown.value)
    assert "needs the argument 'topic'" in str(missing.value)
    assert "needs the argument 'topic'" in str(blank.value)
    assert "'topc' (did you mean 'topic'?)" in str(extra.value)
    assert "auth tokens" in str(good.messages[0].content)


async def test_tool_descriptions_list_the_returned_fields(server: MemoryServer) -> None:
    async with connect(server) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    search = tools["memory_search"].description or ""
    for field in ("rank", "score", "explanation", "filePath", "uri", "stale", "staleReason"):
        assert field in search, field
    listed = tools["memory_list"].description or ""
    for field in ("entries", "total", "filePath", "stale", "staleReason"):
        assert field in listed, field
    assert "entry" in (tools["memory_add"].description or "")
    assert "deleted" in (tools["memory_delete"].description or "")
    search_args = tools["memory_search"].input_schema["properties"]
    assert {"source", "stale_only"} <= set(search_args)
