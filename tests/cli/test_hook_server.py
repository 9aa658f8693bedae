"""The prompt hook asks a running ``serve-mcp`` of the project (issue 34).

A real ``memory-tui hook`` process in each test; the server is the real ``memory-tui
serve-mcp`` (with the real model: slow) or the endpoint itself in this process, answering
what the test says. Without a server, with a stale or unsafe discovery file, or when the
server does not answer within the hook's budget, the hook searches the keyword index
itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from cli_support import run_cli, run_console_script
from fakes import FakeEmbedder
from mcp import Client, StdioServerParameters
from mcp_helpers import call

from app.hook_client import FOLDER, Injected, ask, endpoints
from app.hook_endpoint import serve_hook
from engine.services.memory import Memory

KEYWORD_NOTE = "the wombat importer retries failed uploads three times"
KEYWORD_PROMPT = json.dumps({"prompt": "how does the wombat importer retry uploads?"})
SERVED = Injected(
    id="feedc0ffee00",
    category="architecture",
    location="docs/served.md:3",
    content="Answered by the running server \x1b]0;retitled\x07 with the model warm",
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".claude").mkdir(parents=True)
    with Memory.open(root, embedder=FakeEmbedder(384)) as memory:
        memory.add(KEYWORD_NOTE)
        memory.add("an unrelated note about release trains")
    return root


@pytest.fixture
def served(project: Path) -> Iterator[Path]:
    """The endpoint of a server of ``project`` running in this process, answering
    :data:`SERVED` to every prompt; yields its discovery file."""
    with serve_hook(project, lambda prompt: [SERVED]) as endpoint:
        assert endpoint is not None
        yield project / ".claude" / "memory" / FOLDER / f"{endpoint.pid}.json"


def _dead_pid() -> int:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(done.stdout)


def test_the_hook_prints_what_the_running_server_chose_through_the_terminal_guard(
    project: Path, served: Path, home: Path
) -> None:
    result = run_cli("hook", cwd=project, home=home, stdin=KEYWORD_PROMPT)

    assert (result.returncode, result.stderr) == (0, "")
    assert "(id feedc0ffee00): Answered by the running server" in result.stdout
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "␛]0;retitled␇" in result.stdout  # shown, inert
    assert "wombat" not in result.stdout  # the server's choice, not the hook's own search


def test_the_discovery_file_is_private_loopback_only_and_removed_on_exit(project: Path) -> None:
    with serve_hook(project, lambda prompt: [SERVED]) as endpoint:
        assert endpoint is not None
        path = project / ".claude" / "memory" / FOLDER / f"{endpoint.pid}.json"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        record = json.loads(path.read_text(encoding="utf-8"))
        assert record["port"] == endpoint.port and len(record["token"]) >= 40
        assert record["root"] == str(project.resolve())
        memory_dir = project / ".claude" / "memory"
        assert ask(memory_dir, project, "anything", 5.0) == [SERVED]
        with pytest.raises(OSError):  # bound to 127.0.0.1 only
            import socket

            socket.create_connection((_other_address(), endpoint.port), timeout=1).close()
    assert not path.exists()
    assert ask(project / ".claude" / "memory", project, "anything", 5.0) is None


def _other_address() -> str:
    """An address of this machine other than loopback (or a reserved one: refused too)."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("192.0.2.1", 9))  # no packet is sent for a UDP connect
            address: str = sock.getsockname()[0]
    except OSError:
        return "0.0.0.1"
    return address if not address.startswith("127.") else "0.0.0.1"


def test_a_wrong_token_gets_no_answer(project: Path, served: Path) -> None:
    record = json.loads(served.read_text(encoding="utf-8"))
    record["token"] = "guessed"
    served.write_text(json.dumps(record), encoding="utf-8")

    assert ask(project / ".claude" / "memory", project, "anything", 5.0) is None


def test_a_stale_discovery_file_is_ignored_and_removed(
    project: Path, served: Path, home: Path
) -> None:
    # The record of a killed server: its pid is gone (the port answers here, so asking it
    # would show).
    stale = served.with_name(f"{_dead_pid()}.json")
    record = json.loads(served.read_text(encoding="utf-8"))
    served.unlink()
    stale.write_text(json.dumps({**record, "pid": int(stale.stem)}), encoding="utf-8")
    stale.chmod(0o600)

    result = run_cli("hook", cwd=project, home=home, stdin=KEYWORD_PROMPT)

    assert result.returncode == 0 and "feedc0ffee00" not in result.stdout
    assert KEYWORD_NOTE in result.stdout  # the hook's own keyword search
    assert not stale.exists()


def test_a_discovery_file_others_can_read_or_of_another_project_is_ignored(
    project: Path, served: Path, tmp_path: Path
) -> None:
    memory_dir = project / ".claude" / "memory"
    served.chmod(0o644)
    assert endpoints(memory_dir, project) == []
    served.chmod(0o600)
    assert [e.pid for e in endpoints(memory_dir, project)] == [os.getpid()]
    assert endpoints(memory_dir, tmp_path) == []  # names another project's root


def test_the_hook_searches_by_itself_when_the_server_does_not_answer_in_time(
    project: Path, home: Path
) -> None:
    release = threading.Event()

    def stuck(prompt: str) -> list[Injected]:
        release.wait(60)
        return [SERVED]

    try:
        with serve_hook(project, stuck) as endpoint:
            assert endpoint is not None
            result = run_cli("hook", cwd=project, home=home, stdin=KEYWORD_PROMPT)
    finally:
        release.set()

    assert (result.returncode, result.stderr) == (0, "")
    assert KEYWORD_NOTE in result.stdout and "feedc0ffee00" not in result.stdout


@pytest.mark.slow
async def test_a_running_serve_mcp_answers_the_hook_with_the_model_warm(
    tmp_path: Path, home: Path
) -> None:
    # The prompt holds two of its four informative words ("retry", "uploading"): the
    # keyword selection alone stays silent, the server's hybrid search finds the note.
    project = tmp_path / "served"
    (project / ".claude").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_MEMORY_")}
    params = StdioServerParameters(
        command=str(Path(sys.executable).parent / "memory-tui"),
        args=["serve-mcp", "--project", str(project)],
        env=env,
    )
    folder = project / ".claude" / "memory" / FOLDER
    prompt = json.dumps({"prompt": "how often do we retry when uploading breaks?"})
    async with Client(params, mode="legacy", cache=None) as client:
        note = await call(
            client,
            "memory_add",
            content="Uploads that fail are retried three times before the importer gives up",
        )
        # A vector search waits for the model: loaded from here on, however busy the machine.
        found = await call(client, "memory_search", query="retrying failed uploads", mode="vector")
        assert found["used"] == "vector"
        assert len(list(folder.glob("*.json"))) == 1
        served = await anyio.to_thread.run_sync(
            lambda: run_console_script("hook", cwd=project, home=home, stdin=prompt)
        )
    alone = run_cli("hook", cwd=project, home=home, stdin=prompt)

    assert served.returncode == 0 and f"(id {note['id']})" in served.stdout, served.stdout
    assert list(folder.glob("*.json")) == []  # removed on exit
    assert alone.returncode == 0 and note["id"] not in alone.stdout  # keywords alone: silent


def test_a_malformed_answer_leaves_the_hook_to_its_keyword_search(
    project: Path, home: Path
) -> None:
    import socket

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def answer_badly() -> None:
        with contextlib.suppress(OSError):
            conn, _ = listener.accept()
            with conn:
                conn.recv(65536)
                conn.sendall(b'{"results": [{"id": 7, "content": null}]}\n')

    thread = threading.Thread(target=answer_badly, daemon=True)
    thread.start()
    folder = project / ".claude" / "memory" / FOLDER
    folder.mkdir(parents=True)
    record = folder / f"{os.getpid()}.json"
    fd = os.open(record, os.O_WRONLY | os.O_CREAT, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(
            {
                "pid": os.getpid(),
                "port": port,
                "token": "t",
                "root": str(project.resolve()),
                "protocol": 1,
            },
            out,
        )
    try:
        result = run_cli("hook", cwd=project, home=home, stdin=KEYWORD_PROMPT)
    finally:
        listener.close()
        thread.join(5)

    assert (result.returncode, result.stderr) == (0, "")
    assert KEYWORD_NOTE in result.stdout
