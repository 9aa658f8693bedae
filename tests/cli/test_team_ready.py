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
    assert isinstance(data["on_path"], bool) and data["local_bin"] is None


def test_status_names_the_machine_path_init_wrote_when_not_on_path(
    tmp_path: Path, home: Path
) -> None:
    root = git_repo(tmp_path / "offpath")
    env = clean_env(home) | {"PATH": "/usr/bin:/bin"}
    assert CLI is not None
    subprocess.run(
        [CLI, "init", "--no-hooks", "--skip-analyze", "--skip-index"],
        cwd=root, env=env, capture_output=True, check=True, timeout=300,
    )  # fmt: skip

    result = subprocess.run(
        [CLI, "status"], cwd=root, env=env, capture_output=True, text=True, timeout=300
    )

    assert result.returncode == 0, result.stderr
    assert f"on PATH:   no: this machine uses {CLI} (.claude/settings.local.json)" in (
        result.stdout
    )


def test_status_text_points_at_what_to_do(project: Path, home: Path) -> None:
    result = run_cli("status", cwd=project, home=home)

    assert result.returncode == 0, result.stderr
    assert "notes:     2 personal, not shared until promoted" in result.stdout
    assert "`memory-tui promote --all-notes`" in result.stdout
    assert "knowledge: 1 file; index up to date" in result.stdout
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


# --- promote --all-notes -------------------------------------------------------------------


def _knowledge_files(root: Path) -> set[str]:
    folder = root / ".claude" / "knowledge"
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*.md")}


def _on_a_terminal(root: Path, home: Path, answer: str) -> subprocess.CompletedProcess[bytes]:
    """``promote --all-notes`` with stdin a terminal on which ``answer`` is typed."""
    assert CLI is not None
    controller, terminal = os.openpty()
    try:
        os.write(controller, answer.encode() + b"\n")
        return subprocess.run(
            [CLI, "promote", "--all-notes"],
            cwd=root,
            env=clean_env(home),
            stdin=terminal,
            capture_output=True,
            timeout=600,
            check=False,
        )
    finally:
        os.close(terminal)
        os.close(controller)


def test_promote_all_notes_refuses_without_yes_when_nobody_can_answer(
    project: Path, home: Path
) -> None:
    before = _knowledge_files(project)

    result = run_cli("promote", "--all-notes", cwd=project, home=home, stdin="y\n")

    assert result.returncode == 2
    assert result.stdout == ""
    assert "2 personal note(s) will be written" in result.stderr
    assert "Seed scripts need migrations first" in result.stderr
    assert "Deploys run on Fridays" in result.stderr
    assert "stdin is not a terminal" in result.stderr and "--yes" in result.stderr
    assert _knowledge_files(project) == before
    status = json.loads(run_cli("status", "--json", cwd=project, home=home).stdout)
    assert status["unpromoted_notes"] == 2


def test_promote_all_notes_declined_on_a_terminal_promotes_nothing(
    project: Path, home: Path
) -> None:
    before = _knowledge_files(project)

    result = _on_a_terminal(project, home, "n")

    assert result.returncode == 1
    assert b"Promote them all?" in result.stderr and b"nothing promoted" in result.stderr
    assert result.stdout == b""
    assert _knowledge_files(project) == before


@pytest.mark.slow
def test_promote_all_notes_confirmed_writes_every_note_and_commits_nothing(
    project: Path, home: Path
) -> None:
    result = _on_a_terminal(project, home, "y")

    assert result.returncode == 0, result.stderr.decode()
    written = result.stdout.decode().split()
    assert len(written) == 2
    texts = "".join((project / rel).read_text() for rel in written)
    assert "Seed scripts need migrations first" in texts and "Deploys run on Fridays" in texts
    assert b"not committed" in result.stderr
    status = json.loads(run_cli("status", "--json", cwd=project, home=home).stdout)
    assert status["unpromoted_notes"] == 0 and status["by_source"]["discovery"] == 1
    untracked = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=project,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert all(f"?? {rel}" in untracked for rel in written)  # left for a review, not staged
