"""Running the real ``memory-tui`` console script from tests."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(sys.executable).parent / "memory-tui"
CLI = str(SCRIPT) if SCRIPT.exists() else shutil.which("memory-tui")


def clean_env(home: Path) -> dict[str, str]:
    """The current environment without CLAUDE_MEMORY_* variables, with HOME at ``home``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_MEMORY_")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
    env.pop("PYTHONWARNINGS", None)
    return env


def run_cli(
    *args: str,
    cwd: Path,
    home: Path,
    stdin: str | None = None,
    timeout: float = 300,
) -> subprocess.CompletedProcess[str]:
    """Run the console script with an environment free of CLAUDE_MEMORY_* and a fake HOME."""
    assert CLI is not None, "the memory-tui console script is not installed"
    return subprocess.run(
        [CLI, *args],
        cwd=cwd,
        env=clean_env(home),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def git_repo(path: Path) -> Path:
    """An empty git repository at ``path``."""
    path.mkdir(parents=True, exist_ok=True)
    if shutil.which("git"):
        subprocess.run(["git", "init", "-q", str(path)], check=True, capture_output=True)
    else:  # find_project_root only looks for a .git entry
        (path / ".git").mkdir()
    return path


def tree(root: Path) -> dict[str, str]:
    """Every file under ``root`` outside .git and .claude/memory, with its text."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and not rel.startswith((".git/", ".claude/memory/")):
            out[rel] = path.read_text(encoding="utf-8", errors="replace")
    return out


def waiting(root: Path) -> int:
    """Entries of the project at ``root`` waiting for their vector, read as another process
    would (-1: no table yet)."""
    path = root / ".claude" / "memory" / "fts.sqlite"
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as db:
            return int(db.execute("SELECT count(*) FROM unembedded").fetchone()[0])
    except sqlite3.Error:
        return -1


def sigint_as_from_a_terminal() -> None:
    """``preexec_fn`` for a child that gets a Ctrl-C: SIGINT back to its default. A
    shell starts background jobs (``make test &``, a CI runner's) with SIGINT ignored,
    and a child keeps that until it sets a handler of its own, so a Ctrl-C sent before
    would be lost: not what a terminal does."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
