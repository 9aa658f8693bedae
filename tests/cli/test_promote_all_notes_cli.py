"""``promote --all-notes``: refused without ``--yes`` when nobody can answer, asks on a
terminal (a pty, the real console script), and writes every note without committing."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from cli_support import CLI, clean_env, git_repo, project_with_notes, run_cli


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return project_with_notes(git_repo(tmp_path / "project"))


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
