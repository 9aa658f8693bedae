"""A summariser of the user's choosing, for those who want a digest in prose.

``MEMORY_TUI_SESSION_SUMMARIZER`` names a command (split like a shell would, run without
one), for example ``claude -p "Summarise this coding session: what was asked, decided and
why, what changed"``. At ``SessionEnd`` and ``PreCompact`` (not at every ``Stop``) it gets
the deterministic digest on stdin — already redacted, never the transcript — and what it
prints becomes the note's text under the digest's first line, redacted again. It runs in
the project, for at most :data:`TIMEOUT` seconds, with ``MEMORY_TUI_SUMMARIZING=1`` in its
environment: a summariser that is itself a Claude Code session runs these hooks too, and
they do nothing there. It is read from the environment only (the user's shell, or the
``env`` of the personal ``.claude/settings.local.json``), never from the committed
configuration: a command written there would run on every teammate's machine. A
summariser that fails, times out or prints nothing leaves the deterministic digest, with
one line in the log.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

VARIABLE = "MEMORY_TUI_SESSION_SUMMARIZER"
GUARD = "MEMORY_TUI_SUMMARIZING"
"""Set for the summariser's process: the session hooks do nothing under it."""
EVENTS = frozenset({"SessionEnd", "PreCompact"})
TIMEOUT = 25.0
"""Seconds; under the 30 s ``timeout`` ``init`` gives the SessionEnd hook."""


def summarizing() -> bool:
    """Whether this process runs under a summariser (its hooks must do nothing)."""
    return bool(os.environ.get(GUARD))


def configured() -> list[str]:
    """The summariser's command line, split ([] when none is set or it does not parse)."""
    try:
        return shlex.split(os.environ.get(VARIABLE, ""))
    except ValueError:
        return []


def summary(digest: str, root: Path) -> tuple[str, str]:
    """What the summariser prints for ``digest`` (``""`` on failure) and, on failure, why."""
    command = configured()
    if not command:
        return "", f"{VARIABLE} is not a command line"
    try:
        done = subprocess.run(
            command, input=digest, capture_output=True, text=True, errors="replace",
            cwd=root, env=os.environ | {GUARD: "1"}, timeout=TIMEOUT, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return "", f"the summariser ran past {TIMEOUT:.0f} s"
    except OSError as exc:
        return "", f"the summariser did not start ({exc.strerror or exc})"
    if done.returncode != 0:
        return "", f"the summariser exited with status {done.returncode}"
    text = done.stdout.strip()
    return (text, "") if text else ("", "the summariser printed nothing")
