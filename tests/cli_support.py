"""Running ``memory-tui`` from tests: in this process (:func:`run_cli`), or as the real
console script in a child process (:func:`run_console_script`) where the process is the
point: the installed entry point, pipes (``| head -1``), signals, a terminal, a hook
command a shell runs.

Both return the same :class:`subprocess.CompletedProcess`, with the exit code and what was
written on stdout and stderr, read as text the way ``subprocess.run(text=True)`` reads it.
"""

from __future__ import annotations

import contextlib
import faulthandler
import io
import logging
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import traceback
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TextIO

SCRIPT = Path(sys.executable).parent / "memory-tui"
CLI = str(SCRIPT) if SCRIPT.exists() else shutil.which("memory-tui")

_HANDLED_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE)
"""The handlers a command may set (``watch`` sets SIGINT and SIGTERM), restored after it."""

_DEFAULT_WARNINGS = [
    ("default", None, DeprecationWarning, "__main__", 0),
    ("ignore", None, DeprecationWarning, None, 0),
    ("ignore", None, PendingDeprecationWarning, None, 0),
    ("ignore", None, ImportWarning, None, 0),
    ("ignore", None, ResourceWarning, None, 0),
]
"""A fresh interpreter's warning filters (without PYTHONWARNINGS, as :func:`clean_env`
leaves it), in place of the test runner's while a command runs."""


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
    stdin: str | bytes | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 300,
) -> subprocess.CompletedProcess[str]:
    """Run ``memory-tui args...`` in this process: ``app.cli.main.main(argv)`` in ``cwd``,
    with the environment of :func:`clean_env` (plus ``env``), ``stdin`` as its input and
    its stdout and stderr captured, as a console script started by :func:`run_console_script`
    would see them (no terminal, empty input when ``stdin`` is None).

    What a command changes in the process is put back afterwards: the working folder, the
    environment, the standard streams, the root logger, the signal handlers it set, the
    warning filters. An exception that escapes ``main`` is written on stderr as a traceback
    with exit code 1, as the interpreter would; a command still running after ``timeout``
    seconds ends the test process with every thread's traceback (it cannot be stopped
    alone)."""
    from app.cli.main import main

    if threading.current_thread() is not threading.main_thread():
        raise RuntimeError(
            "run_cli changes process-wide state (cwd, environment, streams, signal handlers): "
            "call it from the main thread, or run_console_script from others"
        )
    environ = clean_env(home) | dict(env or {})
    # Without a terminal a child's width is the fallback of shutil.get_terminal_size;
    # this process may have one.
    environ.setdefault("COLUMNS", "80")
    environ.setdefault("LINES", "24")
    data = stdin.encode("utf-8") if isinstance(stdin, str) else (stdin or b"")
    out, err = io.BytesIO(), io.BytesIO()
    code = 1
    with _process_state(environ, cwd):
        stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
        stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace",
                                  write_through=True)  # fmt: skip
        faulthandler.dump_traceback_later(timeout, exit=True, file=sys.__stderr__)
        sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
        sys.stdout, sys.stderr = stdout, stderr
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse: --help, --version, a usage error
            if exc.code is None or isinstance(exc.code, int):
                code = exc.code or 0
            else:
                print(exc.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
        finally:
            faulthandler.cancel_dump_traceback_later()
            with contextlib.suppress(ValueError):  # a command may have closed one
                sys.stdout.flush()
                sys.stderr.flush()
    return subprocess.CompletedProcess(
        ["memory-tui", *args], code, _as_text(out.getvalue()), _as_text(err.getvalue())
    )


def _as_text(data: bytes) -> str:
    """Bytes read back as ``subprocess.run(text=True)`` reads a child's output: UTF-8 with
    universal newlines (``\\r\\n`` and ``\\r`` become ``\\n``)."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8").read()


@contextlib.contextmanager
def _process_state(environ: Mapping[str, str], cwd: Path) -> Iterator[None]:
    """``os.environ`` set to ``environ`` and the working folder to ``cwd`` for the block;
    these and the rest of the process-wide state a command may change put back after it."""
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    root = logging.getLogger()
    saved_handlers, saved_level = root.handlers[:], root.level
    saved_signals = {sig: signal.getsignal(sig) for sig in _HANDLED_SIGNALS}
    with warnings.catch_warnings():
        warnings.filters[:] = _DEFAULT_WARNINGS
        warnings.showwarning = _show_on_stderr  # the test runner's records them instead
        os.environ.clear()
        os.environ.update(environ)
        try:
            os.chdir(cwd)
            yield
        finally:
            sys.stdin, sys.stdout, sys.stderr = saved_streams
            os.chdir(saved_cwd)
            os.environ.clear()
            os.environ.update(saved_env)
            root.handlers[:] = saved_handlers
            root.setLevel(saved_level)
            for sig, handler in saved_signals.items():
                if handler is not None:
                    signal.signal(sig, handler)


def _show_on_stderr(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """A warning written on stderr, as an interpreter without a test runner shows it."""
    (file or sys.stderr).write(warnings.formatwarning(message, category, filename, lineno, line))


def run_console_script(
    *args: str,
    cwd: Path,
    home: Path,
    stdin: str | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 300,
) -> subprocess.CompletedProcess[str]:
    """Run the installed console script in a child process, with the environment of
    :func:`clean_env` (plus ``env``): for tests of the entry point itself."""
    assert CLI is not None, "the memory-tui console script is not installed"
    return subprocess.run(
        [CLI, *args],
        cwd=cwd,
        env=clean_env(home) | dict(env or {}),
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


def project_with_notes(root: Path) -> Path:
    """The project at ``root`` with one indexed knowledge file, two personal notes (a session
    one, a manual one) and one discovery, filled in this process with the fake embedder."""
    from fakes import FakeEmbedder

    from engine.embedding.base import DIMENSION
    from engine.embedding.default import default_embedder
    from engine.services.indexing import Indexer
    from engine.services.memory import Memory

    knowledge = root / ".claude" / "knowledge"
    knowledge.mkdir(parents=True)
    (knowledge / "gotchas.md").write_text("# Gotchas\n\nQuote the columns.\n", encoding="utf-8")
    # The real model's id: the CLI's index then finds the file unchanged, not re-embedded.
    fake = FakeEmbedder(dimension=DIMENSION, model_id=default_embedder().model_id)
    with Memory.open(root, embedder=fake) as memory:
        Indexer(memory).run()
        memory.add("Seed scripts need migrations first", category="gotcha", source="session")
        memory.add("Deploys run on Fridays", category="architecture", source="manual")
        memory.add("The parser lives in src/parse.py", category="discovery", source="discovery")
    return root


def sprocket_project(tmp_path: Path) -> Path:
    """A git repository under ``tmp_path`` whose memory holds one note about sprockets,
    filled in this process with the fake embedder (of the real model's dimension)."""
    from fakes import FakeEmbedder

    from engine.embedding.base import DIMENSION
    from engine.services.memory import Memory

    root = git_repo(tmp_path / "project")
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        memory.add("Sprocket grease schedule: weekly", category="pattern")
    return root


def assert_usage_error(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    """Exit 2, nothing on stdout, no traceback, and each of ``needles`` on stderr."""
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in result.stderr


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


TESTS = Path(__file__).resolve().parent


def fresh_python(
    code: str, *, home: Path | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` (dedented) in a fresh interpreter of this venv from the repository root,
    with ``tests/`` and the repository importable: for tests of what a process imports,
    which is process-wide. ``CLAUDE_MEMORY_*`` settings are left out; ``home`` is its HOME."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_MEMORY_")}
    if home is not None:
        env["HOME"] = str(home)
    paths = [str(TESTS), str(TESTS.parent), env.get("PYTHONPATH")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=TESTS.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
