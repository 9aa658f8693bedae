"""The shared HTTP server's token (issue 39): every request carries it, or gets a 401.

The server runs for real on a free loopback port (uvicorn, the app the CLI serves); the
clients are the SDK's streamable-HTTP client and, for requests the SDK would not send
without a session, raw HTTP. The command-line tests run the ``memory-tui`` entry point.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from fakes import FakeEmbedder
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import TextContent
from mcp_helpers import call, free_port, serving, wait_for_port

from app.mcp.auth import TOKEN_ENV
from app.mcp.server import MemoryServer, create_server
from engine.services.memory import Memory

TOKEN = "team-token-Zr8q1xV0aP4mK7sD2wF9"
WRONG = "team-token-Zr8q1xV0aP4mK7sD2wF8"  # one character off
MEMORY_TUI = str(Path(sys.executable).parent / "memory-tui")
LEGACY_VERSION = "2025-06-18"
RAW_TIMEOUT = 120.0
"""Seconds a raw request may wait: the first add creates the store, slow on a busy machine."""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with one knowledge file (a resource to read)."""
    knowledge = tmp_path / ".claude" / "knowledge"
    knowledge.mkdir(parents=True)
    (knowledge / "deploy.md").write_text("# Deploy\n\nDeploys run from the release branch.\n")
    return tmp_path


@pytest.fixture
def token_server(project: Path) -> MemoryServer:
    srv = create_server(
        lambda: Memory.open(project, embedder=FakeEmbedder()), warm_up=False, token=TOKEN
    )
    yield srv  # type: ignore[misc]
    srv.state.close()


class Recorder:
    """What the server answered to each HTTP request a client made."""

    def __init__(self) -> None:
        self.answers: list[tuple[str, int, str]] = []

    async def __call__(self, response: httpx2.Response) -> None:
        method = ""
        if response.request.method == "POST":
            method = json.loads(response.request.content).get("method", "")
        self.answers.append(
            (method, response.status_code, response.headers.get("www-authenticate", ""))
        )


@asynccontextmanager
async def sdk_client(
    url: str, token: str | None, *, mode: str = "legacy", recorder: Recorder | None = None
) -> AsyncIterator[Client]:
    """The SDK's streamable-HTTP client, sending ``Authorization: Bearer <token>``."""
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    async with create_mcp_http_client(headers=headers) as http:
        if recorder is not None:
            http.event_hooks["response"].append(recorder)
        transport = streamable_http_client(url, http_client=http)
        async with Client(transport, mode=mode, cache=None) as client:  # type: ignore[arg-type]
            yield client


async def _refused_by_the_sdk_client(url: str, token: str | None) -> Recorder:
    recorder = Recorder()
    with pytest.raises(Exception):  # noqa: B017 - the SDK's error for a failed handshake
        async with sdk_client(url, token, recorder=recorder):
            pass
    return recorder


def _all_401(recorder: Recorder) -> None:
    assert recorder.answers, "the client sent nothing"
    assert recorder.answers[0][0] == "initialize"
    for method, status, challenge in recorder.answers:
        assert status == 401, (method, status)
        assert challenge.startswith("Bearer "), challenge


class RawSession:
    """JSON-RPC over HTTP by hand: the requests the SDK client would not send."""

    def __init__(self, http: httpx2.AsyncClient, url: str) -> None:
        self.http = http
        self.url = url
        self.session_id = ""
        self.next_id = 0

    async def post(self, method: str, params: dict[str, Any], token: str | None) -> Any:
        self.next_id += 1
        headers = {
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
            "Mcp-Protocol-Version": LEGACY_VERSION,
        }
        if self.session_id:
            headers["Mcp-Session-Id"] = self.session_id
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        body = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        return await self.http.post(self.url, json=body, headers=headers)

    async def open(self, token: str) -> None:
        """A session opened with the right token (initialize, then initialized)."""
        params = {
            "protocolVersion": LEGACY_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"},
        }
        response = await self.post("initialize", params, token)
        assert response.status_code == 200, response.text
        self.session_id = response.headers["mcp-session-id"]
        await self.http.post(
            self.url,
            json={"jsonrpc": "2.0", "method": "notifications/initialized"},
            headers={
                "Accept": "application/json, text/event-stream",
                "Content-Type": "application/json",
                "Mcp-Session-Id": self.session_id,
                "Mcp-Protocol-Version": LEGACY_VERSION,
                "Authorization": f"Bearer {token}",
            },
        )


REQUESTS: list[tuple[str, dict[str, Any]]] = [
    ("tools/list", {}),
    ("tools/call", {"name": "memory_add", "arguments": {"content": "added without the token"}}),
    ("tools/call", {"name": "memory_list", "arguments": {}}),
    ("resources/read", {"uri": "memory://deploy.md"}),
]


def _text(result: Any) -> str:
    block = result.contents[0]
    return str(block.text)


# --- without the token, or with a wrong one: 401 before any MCP processing ------------


async def test_without_a_token_initialize_and_every_request_get_401(
    token_server: MemoryServer,
) -> None:
    async with serving(token_server) as url:
        _all_401(await _refused_by_the_sdk_client(url, None))
        async with httpx2.AsyncClient(timeout=RAW_TIMEOUT) as http:
            raw = RawSession(http, url)
            await raw.open(TOKEN)
            for method, params in REQUESTS:
                refused = await raw.post(method, params, None)
                assert refused.status_code == 401, (method, refused.text)
                assert refused.headers["www-authenticate"].startswith("Bearer ")
                assert refused.json()["error"] == "invalid_token"
                # The same request in the same session, with the token, is served.
                served = await raw.post(method, params, TOKEN)
                assert served.status_code == 200, (method, served.text)
        async with sdk_client(url, TOKEN) as client:
            listed = await call(client, "memory_list")
    # Only the add sent with the token reached the memory.
    assert [e["content"] for e in listed["entries"]] == ["added without the token"]


async def test_a_wrong_token_gets_401_on_every_request(token_server: MemoryServer) -> None:
    async with serving(token_server) as url:
        _all_401(await _refused_by_the_sdk_client(url, WRONG))
        _all_401(await _refused_by_the_sdk_client(url, TOKEN + "x"))
        _all_401(await _refused_by_the_sdk_client(url, TOKEN[:-1]))
        async with httpx2.AsyncClient(timeout=RAW_TIMEOUT) as http:
            raw = RawSession(http, url)
            await raw.open(TOKEN)
            for method, params in REQUESTS:
                for presented in (WRONG, TOKEN.lower(), f"{TOKEN} {TOKEN}"):
                    refused = await raw.post(method, params, presented)
                    assert refused.status_code == 401, (method, presented)
                    assert refused.headers["www-authenticate"].startswith("Bearer ")
            basic = await http.post(url, headers={"Authorization": f"Basic {TOKEN}"}, json={})
            assert basic.status_code == 401


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_the_right_token_works(token_server: MemoryServer, mode: str) -> None:
    async with serving(token_server) as url, sdk_client(url, TOKEN, mode=mode) as client:
        tools = {t.name for t in (await client.list_tools()).tools}
        added = await call(client, "memory_add", content="Builds are cached in S3 by branch")
        found = await call(client, "memory_search", query="builds cached branch")
        resource = await client.read_resource("memory://deploy.md")
    assert "memory_search" in tools
    assert found["results"][0]["id"] == added["id"]
    assert "release branch" in _text(resource)


async def test_host_and_origin_checks_still_apply_with_the_token(
    token_server: MemoryServer,
) -> None:
    async with serving(token_server) as url, httpx2.AsyncClient(timeout=RAW_TIMEOUT) as http:
        raw = RawSession(http, url)
        await raw.open(TOKEN)
        headers = {
            "Accept": "application/json, text/event-stream",
            "Authorization": f"Bearer {TOKEN}",
            "Mcp-Session-Id": raw.session_id,
            "Mcp-Protocol-Version": LEGACY_VERSION,
        }
        body = {"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {}}
        origin = await http.post(
            url, json=body, headers={**headers, "Origin": "http://evil.example"}
        )
        host = await http.post(url, json=body, headers={**headers, "Host": "evil.example"})
    assert origin.status_code == 403
    assert host.status_code == 421


async def test_without_a_token_on_loopback_it_serves_as_before(memory: Memory) -> None:
    server = create_server(memory, warm_up=False)
    try:
        async with serving(server) as url, sdk_client(url, None) as client:
            listed = await call(client, "memory_list")
    finally:
        server.state.close()
    assert listed["count"] == 0


async def test_the_token_never_reaches_the_logs_or_the_answers(
    token_server: MemoryServer, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("", "mcp", "uvicorn", "uvicorn.error", "uvicorn.access", "httpx2", "starlette"):
        caplog.set_level(logging.DEBUG, logger=name)
        # A server an earlier test ran in this process may have set uvicorn's loggers not
        # to propagate (its default logging config): caplog would then see none of them.
        monkeypatch.setattr(logging.getLogger(name), "propagate", True)
    bodies = []
    async with serving(token_server, log_level="trace") as url:
        async with sdk_client(url, TOKEN) as client:
            await call(client, "memory_add", content="Releases are tagged from main")
            await client.read_resource("memory://deploy.md")
            failed = await client.call_tool("memory_get_everything", {})
        block = failed.content[0]
        bodies.append(block.text if isinstance(block, TextContent) else "")
        await _refused_by_the_sdk_client(url, WRONG)
        async with httpx2.AsyncClient(timeout=RAW_TIMEOUT) as http:
            refused = await http.post(url, headers={"Authorization": f"Bearer {WRONG}"}, json={})
            bodies.append(refused.text + json.dumps(dict(refused.headers)))
    assert any("memory_get_everything" in body for body in bodies)  # the answers were seen
    assert "POST /mcp" in caplog.text  # and so were the server's logs, at every level
    for secret in (TOKEN, WRONG, TOKEN[4:-4]):
        assert secret not in caplog.text
        assert all(secret not in body for body in bodies)


# --- the command line: the token's sources, and the refusal beyond loopback -------------


def _environment(**extra: str) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_MEMORY_") and k != TOKEN_ENV
    }
    env.update(extra)
    return env


def _serve(project: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [MEMORY_TUI, "serve-mcp", "--http", "--project", str(project), *args],
        env=_environment(**env),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_beyond_loopback_without_a_token_it_refuses_before_binding(project: Path) -> None:
    # The port is taken: a server that bound before checking would fail on the address.
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        done = _serve(project, "--host", "0.0.0.0", "--port", port)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("memory-tui: error: serve-mcp --http on 0.0.0.0 needs a token")
    assert TOKEN_ENV in lines[0] and "--token-file" in lines[0]
    assert done.stdout == ""
    assert not (project / ".claude" / "memory").exists()  # no log, no store: nothing opened


def test_an_unusable_token_is_refused_without_showing_it(project: Path, tmp_path: Path) -> None:
    shared = tmp_path / "token-shared"
    shared.write_text(TOKEN + "\n")
    shared.chmod(0o640)
    short = tmp_path / "token-short"
    short.write_text("abc123\n")
    short.chmod(0o600)
    runs = [
        (_serve(project, "--host", "0.0.0.0", "--token-file", str(shared)), "chmod 600"),
        (_serve(project, "--host", "0.0.0.0", "--token-file", str(short)), "at least 16"),
        (_serve(project, **{TOKEN_ENV: TOKEN + " !"}), "characters a bearer token cannot"),
        (_serve(project, **{TOKEN_ENV: ""}), "is empty"),
        (_serve(project, "--token-file", str(short), **{TOKEN_ENV: TOKEN}), "not both"),
    ]
    for done, reason in runs:
        assert done.returncode == 2, done.stderr
        assert len(done.stderr.splitlines()) == 1 and reason in done.stderr, done.stderr
        assert TOKEN not in done.stderr and "abc123" not in done.stderr
    assert not (project / ".claude" / "memory").exists()


def test_a_token_file_needs_http(project: Path, tmp_path: Path) -> None:
    path = tmp_path / "token"
    path.write_text(TOKEN)
    path.chmod(0o600)
    done = subprocess.run(
        [MEMORY_TUI, "serve-mcp", "--token-file", str(path), "--project", str(project)],
        env=_environment(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == "memory-tui: error: --token-file goes with --http\n"


def _cli(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [MEMORY_TUI, *args, "--project", str(project)],
        env=_environment(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.slow
def test_serve_mcp_beyond_loopback_with_a_token_file(project: Path, tmp_path: Path) -> None:
    """The real command (and model) on 0.0.0.0 with a token file, reached over loopback:
    refused without the token, served with it; status tells; the token is in no log."""
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    token_file.chmod(0o600)
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    stderr_path = tmp_path / "stderr.log"
    with stderr_path.open("w") as stderr:
        process = subprocess.Popen(
            [
                *(MEMORY_TUI, "serve-mcp", "--http", "--host", "0.0.0.0", "--port", str(port)),
                *("--token-file", str(token_file), "--project", str(project), "--verbose"),
            ],
            env=_environment(CLAUDE_MEMORY_LOG_LEVEL="DEBUG"),
            stdout=subprocess.PIPE,
            stderr=stderr,
        )

        async def sessions() -> dict[str, Any]:
            await wait_for_port(port)
            without = await _refused_by_the_sdk_client(url, None)
            wrong = await _refused_by_the_sdk_client(url, WRONG)
            async with sdk_client(url, TOKEN) as client:
                added = await call(client, "memory_add", content="The CDN caches for an hour")
                listed = await call(client, "memory_list")
            return {"without": without, "wrong": wrong, "added": added, "listed": listed}

        try:
            seen = anyio.run(sessions)
            status = _cli(project, "status")
            doctor = _cli(project, "doctor", "--json")
        finally:
            process.terminate()
            process.wait(60)
    _all_401(seen["without"])
    _all_401(seen["wrong"])
    assert seen["added"]["id"] in [e["id"] for e in seen["listed"]["entries"]]
    assert f"serve-mcp --http (pid {process.pid}) on 0.0.0.0:{port} requires the token" in (
        status.stdout
    )
    checks = [c for c in json.loads(doctor.stdout)["checks"] if c["part"] == "http server"]
    assert [c["status"] for c in checks] == ["ok"]
    assert not list((project / ".claude" / "memory" / "http-servers").glob("*.json"))
    logs = stderr_path.read_text() + (project / ".claude" / "memory" / "memory-tui.log").read_text()
    assert "every request must carry the token" in logs
    assert TOKEN not in logs and TOKEN[4:-4] not in logs and WRONG not in logs
    assert process.stdout is not None and process.stdout.read() == b""


# --- doctor and status: a running server that serves without a token --------------------


def test_doctor_and_status_name_a_running_server_without_a_token(project: Path) -> None:
    from app.mcp.serving import HttpServer, record

    Memory.open(project, embedder=FakeEmbedder()).close()  # a sound memory: doctor exits 0
    memory_dir = project / ".claude" / "memory"
    on_loopback = HttpServer(pid=os.getpid(), host="127.0.0.1", port=8765, token=False)
    with record(memory_dir, on_loopback):
        status = _cli(project, "status")
        doctor = _cli(project, "doctor", "--json")
    warning = f"serve-mcp --http (pid {os.getpid()}) on 127.0.0.1:8765 has no token"
    assert warning in status.stdout
    assert doctor.returncode == 0, doctor.stdout
    checks = [c for c in json.loads(doctor.stdout)["checks"] if c["part"] == "http server"]
    assert [(c["status"], c["fix"]) for c in checks] == [
        ("warning", f"restart it with {TOKEN_ENV} set (or --token-file)")
    ]
    assert warning in checks[0]["detail"]

    beyond = HttpServer(pid=os.getpid(), host="0.0.0.0", port=8765, token=False)
    with record(memory_dir, beyond):
        doctor = _cli(project, "doctor")
    assert doctor.returncode == 1, doctor.stdout
    assert "problem   http server      serve-mcp --http" in doctor.stdout
    assert "1 problem(s) left" in doctor.stderr
    assert "anyone who can reach the port" in doctor.stdout

    after = _cli(project, "status")
    assert "serving:" not in after.stdout


def test_a_record_left_by_a_killed_server_is_ignored(project: Path) -> None:
    from app.mcp.serving import HttpServer, record, running

    memory_dir = project / ".claude" / "memory"
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    with record(memory_dir, HttpServer(pid=child.pid, host="0.0.0.0", port=1, token=False)):
        assert running(memory_dir) == []
        (memory_dir / "http-servers" / "junk.json").write_text("[1, 2]")
        assert running(memory_dir) == []
