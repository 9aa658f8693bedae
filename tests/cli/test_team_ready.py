"""Ready for a team, through the real console script: ``status`` tells the project's state,
commands that need a memory say so (exit 2) and create nothing, a failed ``init`` exits
non-zero saying what failed and what to do, and progress shows on a terminal only."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from cli_support import CLI, clean_env, git_repo, run_cli
from fakes import FakeEmbedder

from engine.embedding.base import DIMENSION
from engine.embedding.default import default_embedder
from engine.services.indexing import Indexer
from engine.services.memory import Memory

NEEDS_INIT = [
    ("search", "anything", "--mode", "keyword"),
    ("list",),
    ("get", "0123"),
    ("delete", "0123"),
    ("stats",),
    ("promote", "0123"),
    ("promote", "--all-notes", "--yes"),
    ("stale",),
    ("compact",),
    ("watch",),
]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A repository with one indexed knowledge file, two personal notes, one discovery."""
    root = git_repo(tmp_path / "project")
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


@pytest.mark.parametrize("args", NEEDS_INIT, ids=[" ".join(a) for a in NEEDS_INIT])
def test_a_command_that_needs_a_memory_says_to_init_and_creates_nothing(
    tmp_path: Path, home: Path, args: tuple[str, ...]
) -> None:
    root = git_repo(tmp_path / "never-initialised")

    result = run_cli(*args, cwd=root, home=home)

    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert "memory-tui init" in result.stderr and "Traceback" not in result.stderr
    assert not (root / ".claude").exists()


def test_status_of_a_repository_never_initialised_says_so_and_creates_nothing(
    tmp_path: Path, home: Path
) -> None:
    root = git_repo(tmp_path / "fresh")

    text = run_cli("status", cwd=root, home=home)
    data = run_cli("status", "--json", cwd=root, home=home)

    assert text.returncode == 0, text.stderr
    assert "memory:    not initialised: run `memory-tui init`" in text.stdout
    assert json.loads(data.stdout)["initialised"] is False
    assert not (root / ".claude").exists()


def test_status_counts_sources_personal_notes_and_files_to_index(project: Path, home: Path) -> None:
    (project / ".claude" / "knowledge" / "new.md").write_text("# New\n\nText.\n")

    result = run_cli("status", "--json", cwd=project, home=home)

    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["initialised"] is True
    assert data["by_source"] == {"markdown": 1, "session": 1, "manual": 1, "discovery": 1}
    assert data["by_category"]["gotcha"] == 2
    assert data["unpromoted_notes"] == 2  # session and manual; discovery is not a note
    assert data["knowledge_files"] == 2 and data["files_to_index"] == 1
    assert set(data["hooks"].values()) == {"absent"}
    assert isinstance(data["on_path"], bool)


def test_status_text_points_at_what_to_do(project: Path, home: Path) -> None:
    result = run_cli("status", cwd=project, home=home)

    assert result.returncode == 0, result.stderr
    assert "notes:     2 personal, not shared until promoted" in result.stdout
    assert "`memory-tui promote --all-notes`" in result.stdout
    assert "knowledge: 1 files; index up to date" in result.stdout
    assert "hooks:     0 of 3 installed" in result.stdout


def test_init_that_cannot_write_its_folders_exits_non_zero_saying_what_to_do(
    tmp_path: Path, home: Path
) -> None:
    root = git_repo(tmp_path / "blocked")
    (root / ".claude").write_text("a file where the folder should be\n")

    result = run_cli("init", "--no-hooks", "--skip-analyze", "--skip-index", cwd=root, home=home)

    assert result.returncode == 1
    assert result.stdout == "" and "Traceback" not in result.stderr
    assert "init failed while writing the project files" in result.stderr
    assert "run `memory-tui init` again" in result.stderr


def test_init_with_a_broken_mcp_json_exits_non_zero_and_says_it_is_incomplete(
    tmp_path: Path, home: Path
) -> None:
    root = git_repo(tmp_path / "broken")
    (root / ".mcp.json").write_text("{not json\n")

    result = run_cli("init", "--no-hooks", "--skip-analyze", "--skip-index", cwd=root, home=home)

    assert result.returncode == 1
    assert result.stdout.startswith(f"Initialised {root}, with errors\n")
    assert ".mcp.json is not valid JSON" in result.stderr
    assert "init is incomplete" in result.stderr
    assert (root / ".mcp.json").read_text() == "{not json\n"


def test_progress_shows_on_a_terminal_and_never_in_a_pipe(project: Path, home: Path) -> None:
    assert CLI is not None
    piped = run_cli("index", "--force", cwd=project, home=home)
    controller, terminal = os.openpty()
    try:
        on_tty = subprocess.run(
            [CLI, "index", "--force"],
            cwd=project,
            env={**clean_env(home), "TERM": "xterm", "COLUMNS": "120"},
            stdout=subprocess.PIPE,
            stderr=terminal,
            timeout=300,
            check=False,
        )
        os.close(terminal)
        drawn = b""
        while chunk := _read(controller):
            drawn += chunk
    finally:
        os.close(controller)

    assert piped.returncode == 0 and on_tty.returncode == 0
    assert "Indexing" not in piped.stderr and "\x1b" not in piped.stderr
    assert b"Indexing" in drawn and b"ETA" in drawn


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, 65536)
    except OSError:  # the terminal side is closed and drained
        return b""
