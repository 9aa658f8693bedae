"""The in-process runner of the command line (``cli_support.run_cli``) answers as the installed
console script does, and leaves this process as it found it."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import warnings
from pathlib import Path

import pytest
from cli_support import git_repo, run_cli, run_console_script
from fakes import FakeEmbedder

from engine.embedding.base import DIMENSION
from engine.services.memory import Memory


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git repository whose memory holds two notes."""
    root = git_repo(tmp_path / "project")
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        memory.add("Sprocket grease schedule: weekly", category="pattern")
        memory.add("Deploys run on Fridays\r\nafter the standup", category="architecture")
    return root


COMMANDS = [
    ("--help",),
    ("list", "--json"),
    ("list",),
    ("get", "0123456789"),
    ("search", "x", "--mode", "sideways"),
    ("--quiet", "stats", "--json"),
    ("hook",),
]


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(a) for a in COMMANDS])
def test_in_process_output_is_the_console_script_output(
    project: Path, home: Path, argv: tuple[str, ...]
) -> None:
    stdin = "not the hook's JSON" if argv == ("hook",) else None

    inside = run_cli(*argv, cwd=project, home=home, stdin=stdin)
    child = run_console_script(*argv, cwd=project, home=home, stdin=stdin)

    assert (inside.returncode, inside.stdout, inside.stderr) == (
        child.returncode,
        child.stdout,
        child.stderr,
    )


def test_the_environment_variables_given_are_seen_and_then_gone(project: Path, home: Path) -> None:
    bad = {"CLAUDE_MEMORY_DEFAULT_LIMIT": "zero"}

    inside = run_cli("list", cwd=project, home=home, env=bad)
    child = run_console_script("list", cwd=project, home=home, env=bad)

    assert inside.returncode == child.returncode == 2
    assert inside.stderr == child.stderr and "CLAUDE_MEMORY_DEFAULT_LIMIT" in inside.stderr
    assert "CLAUDE_MEMORY_DEFAULT_LIMIT" not in os.environ


def test_the_process_is_left_as_it_was(
    project: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.cli import commands

    def sets_a_handler(args: argparse.Namespace, root: Path) -> int:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # as ``watch`` does
        warnings.simplefilter("error")
        os.environ["LEFT_BEHIND"] = "1"
        return 0

    monkeypatch.setattr(commands, "open_app", sets_a_handler)

    def process_state() -> tuple[object, ...]:
        root_logger = logging.getLogger()
        return (
            os.getcwd(),
            dict(os.environ),
            root_logger.handlers[:],
            root_logger.level,
            (sys.stdin, sys.stdout, sys.stderr),
            signal.getsignal(signal.SIGINT),
            warnings.filters[:],
        )

    before = process_state()

    bare = run_cli(cwd=project, home=home)
    verbose = run_cli("-v", "list", cwd=project, home=home)

    assert bare.returncode == verbose.returncode == 0, bare.stderr + verbose.stderr
    assert process_state() == before


def test_an_exception_escaping_main_is_a_traceback_and_exit_1(
    project: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.cli import commands

    def fails(args: argparse.Namespace, root: Path) -> int:
        raise RuntimeError("a defect")

    monkeypatch.setattr(commands, "open_app", fails)

    result = run_cli(cwd=project, home=home)

    assert result.returncode == 1
    assert "Traceback" in result.stderr and "RuntimeError: a defect" in result.stderr


def test_a_command_runs_as_in_a_fresh_interpreter(
    project: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.cli import commands

    def warns_and_prints(args: argparse.Namespace, root: Path) -> int:
        warnings.warn("an old API", DeprecationWarning, stacklevel=1)
        warnings.warn("heads up", UserWarning, stacklevel=1)
        print("one\r\ntwo\rthree")
        return 0

    monkeypatch.setattr(commands, "open_app", warns_and_prints)
    warnings.simplefilter("error")  # the test runner's filters are not the command's

    result = run_cli(cwd=project, home=home)

    assert result.returncode == 0, result.stderr
    assert result.stdout == "one\ntwo\nthree\n"  # as subprocess.run(text=True) reads it
    assert "UserWarning: heads up" in result.stderr and "old API" not in result.stderr


def test_only_the_main_thread_may_run_it(project: Path, home: Path) -> None:
    raised: list[BaseException] = []

    def run() -> None:
        try:
            run_cli("list", cwd=project, home=home)
        except RuntimeError as exc:
            raised.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)

    assert len(raised) == 1 and "run_console_script" in str(raised[0])
