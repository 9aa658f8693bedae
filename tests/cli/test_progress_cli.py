"""Progress is drawn on a terminal (a pty, the real console script) and never in a pipe."""

from __future__ import annotations

import os
import select
import subprocess
import time
from pathlib import Path

import pytest
from cli_support import CLI, clean_env, git_repo, project_with_notes, run_cli


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return project_with_notes(git_repo(tmp_path / "project"))


def test_progress_shows_on_a_terminal_and_never_in_a_pipe(project: Path, home: Path) -> None:
    assert CLI is not None
    piped = run_cli("index", "--force", cwd=project, home=home)
    controller, terminal = os.openpty()
    try:
        child = subprocess.Popen(
            [CLI, "index", "--force"],
            cwd=project,
            env={**clean_env(home), "TERM": "xterm", "COLUMNS": "120"},
            stdout=subprocess.DEVNULL,
            stderr=terminal,
        )
        os.close(terminal)
        drawn = b""  # read while it draws: a full terminal buffer would block the child
        deadline = time.monotonic() + 300
        while select.select([controller], [], [], max(0.0, deadline - time.monotonic()))[0]:
            if not (chunk := _read(controller)):
                break
            drawn += chunk
        else:
            child.kill()
        code = child.wait(60)
    finally:
        os.close(controller)

    assert piped.returncode == 0 and code == 0
    assert "Indexing" not in piped.stderr and "\x1b" not in piped.stderr
    assert b"Indexing" in drawn and b"ETA" in drawn


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, 65536)
    except OSError:  # the terminal side is closed and drained
        return b""
