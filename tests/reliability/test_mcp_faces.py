"""The MCP face under hostile input and alongside other writers.

In-process server for input (a 10 MB query, FTS syntax, NUL, secrets, private blocks);
stdio server processes (the same server as ``serve-mcp``, fake embedder) adding and
searching while worker processes add and the real CLI reads.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from cli_support import run_console_script
from fakes import FakeEmbedder
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client, StdioServerParameters
from mcp_helpers import call, call_error, connect
from reliability_support import LOCKED, REPO, snapshot, spawn, worker_env

from app.mcp.server import MemoryServer, create_server
from engine.guards.privacy import REDACTED
from engine.services.memory import Memory

FAKE_SERVER = str(REPO / "tests" / "mcp" / "fake_stdio_server.py")
GITHUB_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


@pytest.fixture
def server(memory: Memory) -> Iterator[MemoryServer]:
    """An in-process server over the ``memory`` fixture (fake embedder), no warm-up."""
    srv = create_server(memory, warm_up=False)
    yield srv
    srv.state.close()


async def test_a_ten_megabyte_query_is_a_clear_invalid_input(server: MemoryServer) -> None:
    async with connect(server) as client:
        error = await call_error(client, "memory_search", query="x" * (10 * 1024 * 1024))
        still = await call(client, "memory_list")
    assert error["code"] == "INVALID_INPUT" and "query" in error["error"]
    assert isinstance(still["entries"], list)  # still serving


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(query=st.text(min_size=1, max_size=500))
def test_any_query_over_mcp_answers_or_is_invalid_input(server: MemoryServer, query: str) -> None:
    async def ask() -> None:
        async with connect(server) as client:
            result = await client.call_tool("memory_search", {"query": query})
            data = json.loads(result.content[0].text)  # type: ignore[union-attr]
            if result.is_error:
                assert data["code"] == "INVALID_INPUT", data
                assert not query.replace("\x00", " ").strip()
            else:
                assert isinstance(data["results"], list)
                # A query the keyword index chokes on is only a warning and a fallback.
                # One that has no informative word (a stop word, a lone letter or digit)
                # finds nothing and says so; any other has no warning at all.
                assert all(w.startswith("nothing to search for") for w in data["warnings"]), data
                assert not data["warnings"] or data["count"] == 0, data
                assert data["used"] == data["mode"], data

    anyio.run(ask)


async def test_mcp_add_redacts_private_blocks_and_names_the_secret(
    server: MemoryServer, memory: Memory
) -> None:
    async with connect(server) as client:
        refused = await call_error(client, "memory_add", content=f"use {GITHUB_TOKEN} to push")
        added = await call(client, "memory_add", content="pin <private>4711</private> is set")
    assert refused["code"] == "SECRET_DETECTED" and "github-pat" in refused["error"]
    stored = memory.require(added["id"]).content
    assert stored == f"pin {REDACTED} is set"
    assert all(GITHUB_TOKEN not in e.content for e in memory.list())


@pytest.mark.slow
async def test_mcp_servers_workers_and_cli_at_once_lose_nothing(tmp_path: Path) -> None:
    root = tmp_path / "p"
    home = tmp_path / "home"
    home.mkdir()
    Memory.open(root, embedder=FakeEmbedder()).close()
    params = StdioServerParameters(
        command=sys.executable, args=[FAKE_SERVER, str(root)], env=worker_env()
    )
    writers = [spawn("add", root, tag, "60") for tag in ("wa", "wb")]
    mcp_ids: list[str] = []
    searches: list[int] = []
    cli_failures: list[str] = []

    async def agent(tag: str) -> None:
        async with Client(params, mode="legacy", cache=None) as client:
            for n in range(25):
                added = await call(client, "memory_add", content=f"{tag} agent note {n} x{tag}{n}")
                mcp_ids.append(added["id"])
                found = await call(client, "memory_search", query=f"agent note {n}", mode="hybrid")
                searches.append(len(found["results"]))

    def cli_reads() -> None:
        for _ in range(6):
            out = run_console_script(
                "search",
                "agent note",
                "--mode",
                "keyword",
                "--project",
                str(root),
                cwd=root,
                home=home,
            )
            if out.returncode != 0 or any(w in out.stderr for w in LOCKED):
                cli_failures.append(out.stderr[-500:])

    async with anyio.create_task_group() as group:
        group.start_soon(agent, "alpha")
        group.start_soon(agent, "beta")
        group.start_soon(anyio.to_thread.run_sync, cli_reads)
    acked = set()
    for proc in writers:
        stdout, stderr = proc.communicate(timeout=600)
        assert proc.returncode == 0, stderr[-2000:]
        assert not any(w in stdout + stderr for w in LOCKED)
        acked |= {line.split()[1] for line in stdout.splitlines() if line.startswith("ACK ")}
    assert cli_failures == []
    assert len(searches) == 50 and all(n > 0 for n in searches)
    assert len(set(mcp_ids)) == 50 and len(acked) == 120
    state = snapshot(root)
    assert state.store_ids == set(mcp_ids) | acked
    assert state.mirror_matches_store and state.integrity_ok
