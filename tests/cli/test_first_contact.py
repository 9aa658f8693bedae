"""The quick start as a newcomer meets it: bare ``memory-tui`` in a new git project and
``make run`` on a fresh clone open the app in a real terminal (a pty), and a search typed
there finds the project's README; commands run outside any project create nothing."""

from __future__ import annotations

import json
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
from cli_support import CLI, clean_env, git_repo, run_cli, run_console_script

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


def _env(home: Path) -> dict[str, str]:
    """A clean environment with HOME at ``home``."""
    return clean_env(home)


def _search_finds_readme(term: Terminal, query: str) -> None:
    opened = term.wait_for("Search the memory", timeout=120)
    assert opened, f"the app did not open:\n{term.text()[-3000:]}"
    time.sleep(0.5)
    mark = term.type(query)
    found = term.wait_for("README.md", timeout=30, since=mark)
    assert found, f"a search for {query!r} did not show README.md:\n{term.text()[-3000:]}"


@pytest.mark.skipif(CLI is None, reason="the memory-tui console script is not installed")
def test_the_first_run_opens_the_app_without_compiling_bytecode_first(tmp_path: Path) -> None:
    """Where Python may not write bytecode, the first run's index, before the app opens,
    writes none: the newcomer waits for the app, not for a compiler."""
    project = git_repo(tmp_path / "gearbox")
    (project / "README.md").write_text("# Gearbox\n\nSprockets are greased weekly.\n")
    home = tmp_path / "home"
    home.mkdir()
    prefix = tmp_path / "pycache"
    env = _env(home) | {"PYTHONPYCACHEPREFIX": str(prefix), "PYTHONDONTWRITEBYTECODE": "1"}
    assert CLI is not None
    term = Terminal([CLI], cwd=project, env=env)
    try:
        opened = term.wait_for("Search the memory", timeout=120)
        assert opened, f"the app did not open:\n{term.text()[-3000:]}"
        compiled = sorted(str(p.relative_to(prefix)) for p in prefix.rglob("*.pyc"))
    finally:
        term.close()
    assert (project / ".claude" / "memory").is_dir()
    assert compiled == []


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
    term = Terminal([CLI], cwd=project, env=_env(home))
    try:
        _search_finds_readme(term, "quetzal feathers")
    finally:
        code = term.close()
    assert "Traceback" not in term.text(), term.text()[-3000:]
    assert code == 0
    assert (project / ".claude" / "memory").is_dir()


def test_bare_memory_tui_without_a_terminal_says_so_and_changes_nothing(tmp_path: Path) -> None:
    """In a pipe the app could neither read keys nor draw (it used to spin, drawing to a
    pipe, until killed): one line, exit 2, and no memory created."""
    project = git_repo(tmp_path / "piped")
    (project / "README.md").write_text("# Piped\n\nA project opened from a script.\n")
    home = tmp_path / "home"
    home.mkdir()
    done = run_console_script(cwd=project, home=home, stdin="", timeout=60)
    assert done.returncode == 2, done.stderr
    assert "the app needs a terminal" in done.stderr
    assert 'memory-tui search "…"' in done.stderr
    assert done.stdout == ""
    assert not (project / ".claude").exists()


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
    term = Terminal(argv, cwd=clone, env=_env(home))
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


def _init_settings(tmp_path: Path) -> tuple[Path, Path, dict[str, object]]:
    home = tmp_path / "home"
    home.mkdir()
    project = git_repo(tmp_path / "shop")
    (project / "README.md").write_text("# Shop\n\nThe zephyr checkout runs nightly at two.\n")
    done = run_cli("init", "--skip-analyze", "--no-hooks", "--no-embed", cwd=project, home=home)
    assert done.returncode == 0, done.stderr
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    return home, project, settings


def _hook_command(settings: dict[str, object]) -> str:
    groups = settings["hooks"]["UserPromptSubmit"]  # type: ignore[index]
    [command] = [h["command"] for g in groups for h in g["hooks"]]
    return str(command)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_committed_hook_is_silent_where_memory_tui_is_not_installed(tmp_path: Path) -> None:
    home, project, settings = _init_settings(tmp_path)
    prompt = json.dumps({"prompt": "when does the zephyr checkout run", "cwd": str(project)})
    teammate = clean_env(home) | {"PATH": "/usr/bin:/bin"}  # a clone without memory-tui

    done = subprocess.run(["sh", "-c", _hook_command(settings)], cwd=project, env=teammate,
                          input=prompt, capture_output=True, text=True, timeout=60)  # fmt: skip

    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_committed_hook_runs_memory_tui_where_it_is_installed(tmp_path: Path) -> None:
    home, project, settings = _init_settings(tmp_path)
    prompt = json.dumps({"prompt": "when does the zephyr checkout run", "cwd": str(project)})
    assert CLI is not None
    with_it = clean_env(home) | {"PATH": f"{Path(CLI).parent}:/usr/bin:/bin"}

    done = subprocess.run(["sh", "-c", _hook_command(settings)], cwd=project, env=with_it,
                          input=prompt, capture_output=True, text=True, timeout=120)  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert "zephyr" in done.stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_init_says_how_a_teammate_installs_it_in_a_committed_file(tmp_path: Path) -> None:
    _home, project, _settings = _init_settings(tmp_path)
    readme = (project / ".claude" / "knowledge" / "README.md").read_text()
    assert "pipx install " in readme
    assert "@INSTALL@" not in readme


def _planted(tmp_path: Path, count: int) -> tuple[Path, Path, list[str]]:
    from fakes import FakeEmbedder

    from engine.services.memory import Memory

    home = tmp_path / "home"
    home.mkdir()
    project = git_repo(tmp_path / "shop")
    with Memory.open(project, embedder=FakeEmbedder()) as memory:
        ids = [memory.add(f"note number {n} about the zephyr checkout").entry.id
               for n in range(count)]  # fmt: skip
    return home, project, ids


def test_get_takes_a_unique_id_prefix_and_names_an_ambiguous_one(tmp_path: Path) -> None:
    home, project, ids = _planted(tmp_path, 40)
    first = ids[0]
    unique = next(first[:n] for n in range(4, len(first)) if
                  sum(i.startswith(first[:n]) for i in ids) == 1)  # fmt: skip

    found = run_cli("get", unique, "--json", cwd=project, home=home)

    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)["id"] == first
    shared = next((a[:4] for a in ids for b in ids if a != b and a[:4] == b[:4]), None)
    if shared is not None:
        ambiguous = run_cli("get", shared, cwd=project, home=home)
        assert ambiguous.returncode == 1 and "several ids" in ambiguous.stderr
    too_short = run_cli("get", first[:3], cwd=project, home=home)
    assert too_short.returncode == 1 and "no entry with id" in too_short.stderr


def test_list_all_dumps_more_than_the_default_limit(tmp_path: Path) -> None:
    home, project, ids = _planted(tmp_path, 25)

    capped = run_cli("list", "--json", cwd=project, home=home)
    everything = run_cli("list", "--all", "--json", cwd=project, home=home)

    assert len(json.loads(capped.stdout)) == 20
    assert sorted(e["id"] for e in json.loads(everything.stdout)) == sorted(ids)


def test_import_of_a_folder_with_nothing_to_index_leaves_the_committed_config_alone(
    tmp_path: Path,
) -> None:
    home, project, _ids = _planted(tmp_path, 1)
    (project / "examples").mkdir()
    (project / "examples" / "demo.py").write_text("print('hello')\n")
    config = project / ".claude" / "memory.config.toml"
    config.write_text("# ours\ndefault_limit = 7\n")

    done = run_cli("import", "examples/", cwd=project, home=home)

    assert done.returncode == 1
    assert "no documentation file there can be indexed" in done.stderr
    assert "`sources` is unchanged" in done.stderr
    assert config.read_text() == "# ours\ndefault_limit = 7\n"


def test_usage_errors_are_one_line_with_exit_2_and_an_empty_query_is_one(tmp_path: Path) -> None:
    home, project, _ids = _planted(tmp_path, 1)
    for argv in (("search", ""), ("search", "   "), ("search", "x", "--limit", "0"),
                 ("serch", "x"), ("search",)):  # fmt: skip
        done = run_cli(*argv, cwd=project, home=home)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2, (argv, done.stderr)
        assert len(lines) == 1 and "--help" in lines[0], (argv, done.stderr)
    empty = run_cli("search", "", cwd=project, home=home)
    assert "the query is empty" in empty.stderr


def test_help_texts_say_what_the_commands_do_whole(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    search = run_cli("search", "--help", cwd=tmp_path, home=home).stdout
    index = run_cli("index", "--help", cwd=tmp_path, home=home).stdout
    assert "changed since they were written or last reviewed" in " ".join(search.split())
    assert "docs" in index and "knowledge" in index


def test_a_long_query_is_cut_in_the_results_header() -> None:
    from engine.output.export import render

    query = "where is the deploy schedule " * 400  # about 11,000 characters
    for fmt in ("text", "md"):
        header = render([], fmt, query=query).splitlines()[0]
        assert len(header) < 200 and "…" in header, fmt


def test_a_teammates_first_keyword_search_builds_only_the_text(tmp_path: Path) -> None:
    """A fresh clone of a project set up elsewhere: the keyword search answers after the
    first phase; the vectors wait for `memory-tui embed` or a long-lived process."""
    from cli_support import waiting

    home = tmp_path / "home"
    home.mkdir()
    clone = git_repo(tmp_path / "clone")
    knowledge = clone / ".claude" / "knowledge"
    knowledge.mkdir(parents=True)
    for n in range(12):
        (knowledge / f"page{n}.md").write_text(f"# Page {n}\n\nThe zephyr rota for team {n}.\n")

    done = run_cli("search", "zephyr", "--mode", "keyword", "--json", cwd=clone, home=home)

    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)) >= 1
    assert "keyword search is ready" in done.stderr and "vectors come later" in done.stderr
    assert waiting(clone) == 12  # nothing was embedded on the way


def test_the_mcp_query_prompt_does_not_say_fused_by_rank() -> None:
    from app.mcp import prompts

    text = " ".join(str(getattr(prompts, name)) for name in dir(prompts) if name.isupper())
    assert "fused by rank" not in text
