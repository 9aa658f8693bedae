"""Server processes over stdio: ``memory-tui serve-mcp`` end to end, and two servers at once.

The end-to-end test runs the real command (and so the real model); its stdout is copied
with ``tee`` so that every byte the server wrote can be checked to be JSON-RPC.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
import pytest
from fakes import FakeEmbedder
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp_helpers import call
from read_back import from_the_store, shown

from engine.services.memory import Memory

BIN = Path(sys.executable).parent
MEMORY_TUI = str(BIN / "memory-tui")
FAKE_SERVER = str(Path(__file__).with_name("fake_stdio_server.py"))


def _environment(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_MEMORY_")}
    env["CLAUDE_MEMORY_LOG_LEVEL"] = "INFO"  # stderr gets the log too: nothing may leak to stdout
    return env


@pytest.mark.slow
async def test_serve_mcp_over_stdio_end_to_end(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    stdout_copy = tmp_path / "stdout.jsonl"
    params = StdioServerParameters(
        command="sh",
        args=[
            "-c",
            '"$0" serve-mcp --project "$1" | tee "$2"',
            MEMORY_TUI,
            str(project),
            str(stdout_copy),
        ],
        env=_environment(tmp_path),
    )
    with (tmp_path / "stderr.log").open("w", encoding="utf-8") as errlog:
        transport = stdio_client(params, errlog=errlog)
        async with Client(transport, mode="legacy", cache=None) as client:
            assert client.server_info is not None and client.server_info.name == "memory-tui"
            tools = {t.name for t in (await client.list_tools()).tools}
            added = await call(
                client, "memory_add", content="Invoices are numbered per tenant, never globally"
            )
            found = await call(client, "memory_search", query="how are invoices numbered")
            deleted = await call(client, "memory_delete", id=added["id"])
            gone = await call(client, "memory_search", query="how are invoices numbered")
    assert {"memory_search", "memory_add", "memory_delete"} <= tools
    assert found["used"] == "hybrid" and found["results"][0]["id"] == added["id"]
    assert deleted["deleted"] is True
    assert all(r["id"] != added["id"] for r in gone["results"])
    for _ in range(100):  # tee finishes when the server has closed its stdout
        log = project / ".claude" / "memory" / "memory-tui.log"
        if log.exists() and "server stopped" in log.read_text(encoding="utf-8"):
            break
        await anyio.sleep(0.1)
    lines = stdout_copy.read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 6
    for line in lines:
        assert json.loads(line)["jsonrpc"] == "2.0", line
    stderr = (tmp_path / "stderr.log").read_text(encoding="utf-8")
    assert "serving" in stderr and "Traceback" not in stderr
    assert "server stopped" in log.read_text(encoding="utf-8")


async def _add_notes(params: StdioServerParameters, tag: str, count: int) -> list[str]:
    async with Client(params, mode="legacy", cache=None) as client:
        return [
            (await call(client, "memory_add", content=f"{tag} note {n}: token {tag}x{n}"))["id"]
            for n in range(count)
        ]


async def _two_servers_add_at_once(params: StdioServerParameters, count: int) -> list[str]:
    ids: dict[str, list[str]] = {}

    async def run(tag: str) -> None:
        ids[tag] = await _add_notes(params, tag, count)

    async with anyio.create_task_group() as group:
        group.start_soon(run, "alpha")
        group.start_soon(run, "beta")
    return ids["alpha"] + ids["beta"]


async def test_two_server_processes_adding_at_once_lose_nothing(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=[FAKE_SERVER, str(tmp_path)], env=_environment(tmp_path)
    )
    ids = await _two_servers_add_at_once(params, 15)
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        assert len(set(ids)) == 30
        assert {e.id for e in memory.list()} == set(ids)
        assert memory.last_repair is None  # the index was in step with the store
        assert shown(memory) == from_the_store(memory)


@pytest.mark.slow
async def test_two_serve_mcp_processes_adding_at_once_lose_nothing(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    params = StdioServerParameters(
        command=MEMORY_TUI,
        args=["serve-mcp", "--project", str(tmp_path)],
        env=_environment(tmp_path),
    )
    ids = await _two_servers_add_at_once(params, 10)
    with Memory.open(tmp_path) as memory:
        assert len(set(ids)) == 20
        assert {e.id for e in memory.list()} == set(ids)
        assert memory.last_repair is None  # the index was in step with the store
        assert shown(memory) == from_the_store(memory, FakeEmbedder(384))
