"""Issue 45, item 7: ``serve-mcp --http`` says where it serves in one line at start, and
in one line why it cannot (port taken, address not of this machine), with exit status 3.

The real console script in a child process; the start line is read from its stderr, then
a connection is made to the port it names.
"""

from __future__ import annotations

import select
import socket
import subprocess
from pathlib import Path

import pytest
from cli_support import CLI, clean_env, git_repo

from app.mcp.auth import TOKEN_ENV
from app.mcp.listen import EXIT_CANNOT_LISTEN

TOKEN = "s3cr3t-token-of-the-test-0123456789"


def _first_line(process: subprocess.Popen[str], seconds: float = 60) -> str:
    """The first line the server writes on stderr ("" if none within ``seconds``)."""
    assert process.stderr is not None
    ready, _, _ = select.select([process.stderr], [], [], seconds)
    return process.stderr.readline() if ready else ""


def _serve(root: Path, home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    assert CLI is not None
    return subprocess.run(
        [CLI, "serve-mcp", "--http", *args],
        cwd=root,
        env=clean_env(home) | env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_port_in_use_is_one_line_and_exit_3(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "project")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _serve(root, home, "--port", str(port))

    assert done.returncode == EXIT_CANNOT_LISTEN == 3
    assert done.stdout == ""
    assert done.stderr == (
        f"memory-tui: error: cannot serve on 127.0.0.1:{port}: port {port} is already in use "
        "(by another serve-mcp? `memory-tui status` lists this project's); stop that program, "
        "or choose a free port with --port\n"
    )


@pytest.mark.parametrize("host", ["192.0.2.1", "no-such-host.invalid"])
def test_an_address_of_another_machine_is_one_line_and_exit_3(
    host: str, tmp_path: Path, home: Path
) -> None:
    root = git_repo(tmp_path / "project")

    done = _serve(root, home, "--host", host, **{TOKEN_ENV: TOKEN})

    assert done.returncode == 3
    [line] = done.stderr.splitlines()
    assert line.startswith(f"memory-tui: error: cannot serve on {host}: it is not an address")
    assert "--host" in line and TOKEN not in line


def test_the_start_line_says_where_and_how_the_token_is_found(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "project")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert CLI is not None
    process = subprocess.Popen(
        [CLI, "serve-mcp", "--http", "--port", str(port)],
        cwd=root,
        env=clean_env(home) | {TOKEN_ENV: TOKEN},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = _first_line(process)
        assert line, "nothing said at start"
        with socket.create_connection(("127.0.0.1", port), timeout=10):
            pass  # listening once the line is out
    finally:
        process.terminate()  # the server stops on SIGTERM as on Ctrl-C
        _, rest = process.communicate(timeout=60)

    assert line == (
        f"memory-tui: serving {root} over MCP at http://127.0.0.1:{port}/mcp; every request "
        f"must carry the token (${TOKEN_ENV}) as `Authorization: Bearer TOKEN`; Ctrl-C stops\n"
    )
    assert process.returncode == 0, rest
    assert "serving" not in rest and TOKEN not in line + rest


def test_without_a_token_the_start_line_says_who_can_reach_it(tmp_path: Path, home: Path) -> None:
    root = git_repo(tmp_path / "project")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert CLI is not None
    process = subprocess.Popen(
        [CLI, "serve-mcp", "--http", "--port", str(port), "--verbose"],
        cwd=root,
        env=clean_env(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = [_first_line(process)]
    finally:
        process.terminate()
        _, rest = process.communicate(timeout=60)
    lines += rest.splitlines(keepends=True)
    started = [line for line in lines if "serving" in line]
    assert started == [
        f"memory-tui: serving {root} over MCP at http://127.0.0.1:{port}/mcp; no token: every "
        f"user and program on this machine can reach it (set {TOKEN_ENV} or --token-file to "
        "require one); Ctrl-C stops\n"
    ]  # once, --verbose too
