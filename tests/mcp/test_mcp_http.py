"""Streamable HTTP: one warm server on loopback shared by several clients."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp_helpers import call, free_port, serving, wait_for_port

from app.mcp.server import MemoryServer


async def test_two_http_clients_share_one_server(server: MemoryServer) -> None:
    async with (
        serving(server) as url,
        Client(url, cache=None) as first,
        Client(url, cache=None) as second,
    ):
        added = await call(first, "memory_add", content="Builds are cached in S3 by branch")
        found = await call(second, "memory_search", query="builds cached branch")
    assert found["results"][0]["id"] == added["id"]


@pytest.mark.slow
def test_serve_mcp_http_from_the_command_line(tmp_path: Path) -> None:
    port = free_port()
    command = [str(Path(sys.executable).parent / "memory-tui"), "serve-mcp", "--http"]
    process = subprocess.Popen(
        [*command, "--port", str(port), "--project", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )

    async def session() -> dict[str, object]:
        await wait_for_port(port)
        async with Client(f"http://127.0.0.1:{port}/mcp", cache=None) as client:
            return await call(client, "memory_list")

    try:
        listed = anyio.run(session)
    finally:
        process.terminate()
        process.wait(30)
    assert listed["count"] == 0
    assert process.stdout is not None and process.stdout.read() == b""
