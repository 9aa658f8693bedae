"""Ctrl-C ends ``memory-tui watch`` quietly at any moment: no traceback, no warning.

The real console script runs in a subprocess and gets SIGINT (what a terminal sends on
Ctrl-C) while it starts up (loading the model) and while it watches.
"""

from __future__ import annotations

import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from cli_support import CLI, clean_env, git_repo, sigint_as_from_a_terminal

from app.cli.freshness import STOPPING_NOTE


def watch_then_interrupt(root: Path, home: Path, *, after_ready: bool, delay: float) -> str:
    """Start ``watch``, send SIGINT ``delay`` seconds after start (or after it says it is
    watching); stderr, once it has exited with code 0."""
    proc = subprocess.Popen(
        [str(CLI), "watch"],
        cwd=root,
        env=clean_env(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_as_from_a_terminal,
    )
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stderr or []), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 180
        while after_ready and not any("watching" in line for line in lines):
            assert proc.poll() is None and time.monotonic() < deadline, lines
            time.sleep(0.05)
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        code = proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
        reader.join(10)
    text = "".join(lines)
    assert code == 0, text
    return text


@pytest.mark.slow
@pytest.mark.parametrize(
    ("after_ready", "delay"),
    [(True, 0.3), (False, 0.8), (False, 1.6)],
    ids=["watching", "starting", "loading"],
)
def test_ctrl_c_stops_watch_without_a_traceback_or_warning(
    tmp_path: Path, home: Path, after_ready: bool, delay: float
) -> None:
    root = git_repo(tmp_path / "watched")
    knowledge = root / ".claude" / "knowledge"
    knowledge.mkdir(parents=True)
    (knowledge / "note.md").write_text("# Note\n\nThe quince note.\n", encoding="utf-8")

    stderr = watch_then_interrupt(root, home, after_ready=after_ready, delay=delay)

    assert "Traceback" not in stderr
    assert "KeyboardInterrupt" not in stderr
    assert "WARNING" not in stderr
    # Stopped before it watched: it said it would stop once start-up is done; once
    # watching, Ctrl-C ends it quietly.
    note = STOPPING_NOTE.decode().strip()
    assert (note in stderr) == ("memory-tui: watching" not in stderr), stderr
