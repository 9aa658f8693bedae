"""Helpers of the MCP server tests: an in-process client, tool results as JSON."""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import uvicorn
from mcp import Client
from mcp.types import CallToolResult, TextContent

from app.mcp.server import MemoryServer


@asynccontextmanager
async def connect(server: MemoryServer) -> AsyncIterator[Client]:
    """An in-process SDK client connected to ``server`` (response caching off)."""
    async with Client(server, cache=None) as client:
        yield client


def payload(result: CallToolResult) -> dict[str, Any]:
    """The JSON text of a tool result (success or error), parsed."""
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, TextContent)
    data = json.loads(block.text)
    assert isinstance(data, dict)
    return data


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    """Call a tool that must succeed; returns its JSON (checked against structuredContent)."""
    result = await client.call_tool(tool, arguments)
    data = payload(result)
    assert not result.is_error, data
    assert result.structured_content == data
    return data


async def call_error(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    """Call a tool that must fail; returns the error JSON (error, code, recoverable)."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    data = payload(result)
    assert set(data) >= {"error", "code", "recoverable"}
    assert "Traceback" not in data["error"]
    return data


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


async def wait_for_port(port: int, seconds: float = 60) -> None:
    """Wait until something accepts connections on the loopback ``port``."""
    with anyio.fail_after(seconds):
        while True:
            try:
                stream = await anyio.connect_tcp("127.0.0.1", port)
            except OSError:
                await anyio.sleep(0.1)
            else:
                await stream.aclose()
                return


@asynccontextmanager
async def serving(server: MemoryServer, *, log_level: str = "warning") -> AsyncIterator[str]:
    """``server`` over streamable HTTP on a free loopback port; yields its URL."""
    port = free_port()
    app = server.streamable_http_app(host="127.0.0.1")
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level=log_level, log_config=None)
    http = uvicorn.Server(config)
    async with anyio.create_task_group() as group:
        group.start_soon(http.serve)
        await wait_for_port(port)
        try:
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            http.should_exit = True
