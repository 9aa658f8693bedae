"""Folders outside the project through the real console script: every command stops with
the key to fix, and the prompt hook stays silent (it never blocks a prompt)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cli_support import git_repo, run_cli
from fakes import FakeEmbedder

from engine.embedding.base import DIMENSION
from engine.services.memory import Memory


def _clean_failure(result: subprocess.CompletedProcess[str]) -> str:
    """The one-line message of a configuration error (exit code 2), without a traceback."""
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr
    return result.stderr


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, str]:
    """A project whose memory holds one note; returns (root, its id)."""
    root = git_repo(tmp_path / "project")
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        note = memory.add("Seed scripts fail when migrations have not run yet").entry
    return root, note.id


def test_a_knowledge_dir_outside_the_project_stops_every_command_with_the_key(
    project: tuple[Path, str], home: Path
) -> None:
    root, _ = project
    config = root / ".claude" / "memory.config.toml"
    config.write_text('knowledge_dir = "../x"\n', encoding="utf-8")

    for command in (("list",), ("index",), ("search", "seed", "--mode", "keyword")):
        stderr = _clean_failure(run_cli(*command, cwd=root, home=home))
        assert stderr.startswith(f"memory-tui: error: {config}: key 'knowledge_dir': '../x' "), (
            command,
            stderr,
        )
        assert "outside the project" in stderr


def test_the_prompt_hook_stays_silent_when_the_memory_folder_leads_outside(
    project: tuple[Path, str], home: Path, tmp_path: Path
) -> None:
    root, _ = project
    memory_dir = root / ".claude" / "memory"
    outside = tmp_path / "moved-memory"
    memory_dir.rename(outside)
    memory_dir.symlink_to(outside, target_is_directory=True)
    before = sorted(p.name for p in outside.iterdir())

    result = run_cli("hook", cwd=root, home=home, stdin='{"prompt": "seed scripts migrations"}')
    listing = run_cli("list", cwd=root, home=home)

    assert (result.returncode, result.stdout) == (0, "")
    assert "Traceback" not in result.stderr
    assert "the memory folder .claude/memory: '.claude/memory' leads through a symlink" in (
        _clean_failure(listing)
    )
    assert sorted(p.name for p in outside.iterdir()) == before


def test_init_writes_nothing_when_the_knowledge_folder_links_outside(
    tmp_path: Path, home: Path
) -> None:
    root = git_repo(tmp_path / "fresh")
    outside = tmp_path / "dotfiles"
    outside.mkdir()
    (root / ".claude").mkdir()
    (root / ".claude" / "knowledge").symlink_to(outside, target_is_directory=True)

    stderr = _clean_failure(run_cli("init", "--skip-analyze", cwd=root, home=home))

    assert stderr.startswith("memory-tui: error: knowledge_dir (default '.claude/knowledge'): ")
    assert f"leads through a symlink to {outside.resolve()}, outside the project" in stderr
    assert list(outside.iterdir()) == []
    assert sorted(p.name for p in (root / ".claude").iterdir()) == ["knowledge"]


@pytest.mark.parametrize(
    "command",
    [
        ("index",),
        ("init", "--skip-analyze"),
        ("search", "seed", "--mode", "keyword"),
        ("list",),
        ("stats",),
        ("discover",),
        ("add", "a note", "--category", "gotcha"),
    ],
    ids=lambda command: command[0],
)
def test_an_absolute_knowledge_dir_outside_stops_with_one_line_and_exit_code_2(
    project: tuple[Path, str], home: Path, tmp_path: Path, command: tuple[str, ...]
) -> None:
    root, _ = project
    outside = tmp_path / "notes"
    outside.mkdir()
    config = root / ".claude" / "memory.config.toml"
    config.write_text(f'knowledge_dir = "{outside}"\n', encoding="utf-8")
    before = sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))

    stderr = _clean_failure(run_cli(*command, cwd=root, home=home))

    assert stderr == (
        f"memory-tui: error: {config}: key 'knowledge_dir': '{outside}' leads to {outside}, "
        f"outside the project {root.resolve()}; memory-tui reads and writes only inside the "
        'project: use a folder inside it such as ".claude/knowledge"\n'
    )
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == before
    assert list(outside.iterdir()) == []
