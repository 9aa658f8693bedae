"""The quick start as a newcomer meets it: bare ``memory-tui`` in a new git project and
``make run`` on a fresh clone open the app in a real terminal (a pty), and a search typed
there finds the project's README; commands run outside any project create nothing."""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_support import CLI, clean_env, git_repo, run_cli

REPO = Path(__file__).resolve().parents[2]
VENV = Path(sys.prefix)
ANSI = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")


class Terminal:
    """A program in a pseudo-terminal of 120×36, read as text without escape codes."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str]) -> None:
        master, slave = pty.openpty()
        os.set_blocking(master, False)
        env = {**env, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "36"}
        self.master = master
        self.process = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=slave, stdout=slave, stderr=slave,
            start_new_session=True, close_fds=True,
        )  # fmt: skip
        os.close(slave)
        import fcntl
        import struct
        import termios

        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 36, 120, 0, 0))
        self.raw = b""

    def text(self) -> str:
        """Everything shown so far, escape codes removed."""
        return ANSI.sub(b"", self.raw).decode("utf-8", "replace")

    def pump(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the program closed the terminal
                    return
                self.raw += chunk

    def wait_for(self, needle: str, timeout: float, since: int = 0) -> bool:
        """Whether ``needle`` appears in what is shown after byte ``since``."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.pump(0.2)
            if needle in ANSI.sub(b"", self.raw[since:]).decode("utf-8", "replace"):
                return True
            if self.process.poll() is not None:
                self.pump(0.2)
                return needle in ANSI.sub(b"", self.raw[since:]).decode("utf-8", "replace")
        return False

    def type(self, keys: str) -> int:
        """Send ``keys``; returns the output position before them."""
        mark = len(self.raw)
        os.write(self.master, keys.encode())
        return mark

    def close(self) -> int | None:
        if self.process.poll() is None:
            os.write(self.master, b"\x11")  # ctrl+q
            end = time.monotonic() + 30
            while self.process.poll() is None and time.monotonic() < end:
                self.pump(0.2)  # keep reading: a full terminal would block the app's exit
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        os.close(self.master)
        return self.process.returncode


def _search_finds_readme(term: Terminal, query: str) -> None:
    opened = term.wait_for("Search the memory", timeout=120)
    assert opened, f"the app did not open:\n{term.text()[-3000:]}"
    time.sleep(0.5)
    mark = term.type(query)
    found = term.wait_for("README.md", timeout=30, since=mark)
    assert found, f"a search for {query!r} did not show README.md:\n{term.text()[-3000:]}"


@pytest.mark.skipif(CLI is None, reason="the memory-tui console script is not installed")
def test_bare_memory_tui_in_a_new_git_project_opens_the_app_and_finds_the_readme(
    tmp_path: Path,
) -> None:
    project = git_repo(tmp_path / "widgetizer")
    (project / "README.md").write_text(
        "# Widgetizer\n\nWidgetizer turns quetzal feathers into widgets. Run "
        "`widgetize --all` to convert every feather at once.\n"
    )
    home = tmp_path / "home"
    home.mkdir()
    assert CLI is not None
    term = Terminal([CLI], cwd=project, env=clean_env(home))
    try:
        _search_finds_readme(term, "quetzal feathers")
    finally:
        code = term.close()
    assert "Traceback" not in term.text(), term.text()[-3000:]
    assert code == 0
    assert (project / ".claude" / "memory").is_dir()


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_make_run_on_a_fresh_clone_opens_the_app_and_finds_the_readme(tmp_path: Path) -> None:
    """The README's first command, as written, in a fresh clone of this repository. The
    clone uses this test's installed environment (``VENV=``), so nothing is installed."""
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
    home = tmp_path / "home"
    home.mkdir()
    stamp = VENV / ".installed-stamp"
    argv = ["make", "--no-print-directory", "run", f"VENV={VENV}", "-o", str(stamp)]
    term = Terminal(argv, cwd=clone, env=clean_env(home))
    try:
        _search_finds_readme(term, "quick start")
    finally:
        code = term.close()
    assert "Traceback" not in term.text(), term.text()[-3000:]
    assert code == 0


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() if p.is_file() else b"<dir>"
        for p in sorted(folder.rglob("*"))
    }


@pytest.mark.parametrize(
    "argv",
    [
        ("init",),
        ("init", "--skip-analyze"),
        ("add", "the staging database is rebuilt nightly"),
        ("index",),
        ("discover",),
        ("analyze",),
        ("import", "notes"),
    ],
)
@pytest.mark.parametrize("where", ["home", "folder in home"])
def test_commands_outside_a_repository_change_nothing_in_home(
    tmp_path: Path, argv: tuple[str, ...], where: str
) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)  # Claude Code's user folder, on every machine
    (home / ".claude" / "settings.json").write_text('{"theme": "dark"}\n')
    notes = home / "notes"
    notes.mkdir()
    (notes / "todo.md").write_text("# Todo\n\nBuy quetzal feathers.\n")
    cwd = home if where == "home" else notes
    before = _snapshot(home)

    done = run_cli(*argv, cwd=cwd, home=home)

    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert "--project DIR" in lines[0]
    assert ("home folder" if where == "home" else "not inside a git repository") in lines[0]
    assert _snapshot(home) == before


def test_project_names_a_folder_outside_git_on_purpose(tmp_path: Path) -> None:
    home = tmp_path / "home"
    notes = home / "notes"
    notes.mkdir(parents=True)

    done = run_cli("--project", str(notes), "add", "kept on purpose here", cwd=home, home=home)

    assert done.returncode == 0, done.stderr
    assert (notes / ".claude" / "memory").is_dir()


def test_a_folder_inside_a_repository_uses_the_repository(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    project = git_repo(tmp_path / "proj")
    sub = project / "src" / "deep"
    sub.mkdir(parents=True)

    done = run_cli("add", "rebuilt nightly at two", cwd=sub, home=home)

    assert done.returncode == 0, done.stderr
    assert (project / ".claude" / "memory").is_dir()
    assert not (sub / ".claude").exists()
