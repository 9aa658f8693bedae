"""Linked git worktrees share the main worktree's memory (a real ``git worktree add``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cli_support import run_cli, sprocket_project


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git repository whose memory holds one note about sprockets."""
    return sprocket_project(tmp_path)


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def test_seed002_worktree_sharing_one_memory(project: Path, home: Path, tmp_path: Path) -> None:
    (project / "README.md").write_text("# Sprockets\n", encoding="utf-8")
    _git("add", "README.md", cwd=project)
    _git("commit", "-q", "-m", "first", cwd=project)
    linked = tmp_path / "linked"
    _git("worktree", "add", "-q", str(linked), cwd=project)
    deep = linked / "src" / "deep"
    deep.mkdir(parents=True)
    found = run_cli("search", "sprocket", "--mode", "keyword", "--json", cwd=deep, home=home)
    assert found.returncode == 0, found.stderr
    assert "Sprocket grease schedule" in found.stdout
    stats = run_cli("stats", "--json", cwd=linked, home=home)
    assert stats.returncode == 0, stats.stderr
    assert '"project": "' + str(project.resolve()) + '"' in stats.stdout
    assert not (linked / ".claude" / "memory").exists()
