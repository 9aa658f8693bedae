"""Invalid Unicode over MCP: every request gets an answer, and nothing is stored.

Over stdio the JSON text itself carries the lone surrogate (``"\\ud800"``), which the
SDK's parser refuses: the server process is driven line by line to see that each such
request is answered with a JSON-RPC error and the server keeps serving. In process, the
SDK client hands the tools such strings directly, and argument validation answers.
"""

from __future__ import annotations

import json
import selectors
import subprocess
import sys
from pathlib import Path
from typing import Any

from fakes import FakeEmbedder
from mcp.types import INVALID_PARAMS
from mcp_helpers import call, call_error, connect

from app.mcp.server import MemoryServer
from engine.services.memory import Memory

ANSWER_WAIT = 60.0
"""Seconds to wait for an answer before calling it missing (generous: a busy machine)."""
FAKE_SERVER = str(Path(__file__).with_name("fake_stdio_server.py"))
INIT = {
    "protocolVersion": "2025-06-18",
    "capabilities": {},
    "clientInfo": {"name": "hostile", "version": "1"},
}
SURROGATE_REQUESTS: list[tuple[str, dict[str, Any]]] = [
    ("tools/call", {"name": "memory_add", "arguments": {"content": "note \ud800 here"}}),
    ("tools/call", {"name": "memory_search", "arguments": {"query": "q \udcff"}}),
    ("tools/call", {"name": "memory_delete", "arguments": {"id": "\udfff"}}),
    ("resources/read", {"uri": "memory://notes\ud800.md"}),
]


class WireClient:
    """A server process spoken to one JSON line at a time (the SDK's client cannot send a
    lone surrogate: it encodes the request before it leaves)."""

    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, FAKE_SERVER, str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        # json.dumps writes a lone surrogate as its escape: valid JSON text, invalid Unicode.
        self.process.stdin.write(json.dumps(message).encode("ascii") + b"\n")
        self.process.stdin.flush()

    def request(self, request_id: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        assert self.process.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            assert selector.select(ANSWER_WAIT), f"no answer to request {request_id}"
        answer = json.loads(self.process.stdout.readline())
        assert answer["id"] == request_id
        return dict(answer)

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(timeout=60)


def test_lone_surrogates_on_the_wire_are_answered(tmp_path: Path) -> None:
    client = WireClient(tmp_path)
    try:
        assert "result" in client.request(1, "initialize", INIT)
        client.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        client.send({"jsonrpc": "2.0", "method": "notifications/x", "params": {"a": "\ud800"}})
        for request_id, (method, params) in enumerate(SURROGATE_REQUESTS, start=2):
            answer = client.request(request_id, method, params)
            assert answer["error"]["code"] == INVALID_PARAMS, answer
            assert "unpaired surrogate" in answer["error"]["message"]
        ok = client.request(99, "tools/call", {"name": "memory_list", "arguments": {}})
        assert ok["result"]["isError"] is False  # still serving
    finally:
        assert client.close() == 0
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        assert memory.count() == 0


async def test_lone_surrogates_in_tool_arguments_are_refused(
    server: MemoryServer, memory: Memory
) -> None:
    async with connect(server) as client:
        added = await call_error(client, "memory_add", content="note \ud800 here")
        assert added["code"] == "INVALID_INPUT" and added["fields"] == ["content"]
        found = await call_error(client, "memory_search", query="bytes \udcff")
        assert found["code"] == "INVALID_INPUT" and found["fields"] == ["query"]
        keyword = await call_error(client, "memory_add", content="fine", keywords=["k\udc80"])
        assert keyword["code"] == "INVALID_INPUT"
        gone = await call_error(client, "memory_delete", id="\udfff")
        assert gone["code"] == "INVALID_INPUT" and gone["fields"] == ["id"]
        assert (await call(client, "memory_list"))["count"] == 0
    assert memory.count() == 0
