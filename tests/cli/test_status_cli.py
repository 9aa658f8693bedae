"""``status`` tells the project's state (never initialised, counts, the machine path init
wrote, what to do next), and commands that need a memory say to run ``init`` (exit 2) and
create nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import CLI, git_repo, project_with_notes, run_cli

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
    return project_with_notes(git_repo(tmp_path / "project"))


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
    env = {"PATH": "/usr/bin:/bin"}
    init = run_cli("init", "--no-hooks", "--skip-analyze", "--skip-index", cwd=root, home=home,
                   env=env)  # fmt: skip
    assert init.returncode == 0, init.stderr

    result = run_cli("status", cwd=root, home=home, env=env)

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


def test_status_counts_the_projects_files_by_the_rule_that_decided(
    project: Path, home: Path
) -> None:
    """Issue 50: "3 doc files" on a documented project shows as a problem."""
    catalog = project / "Sources" / "Kit" / "Kit.docc"
    catalog.mkdir(parents=True)
    (catalog / "Kit.md").write_text("# ``Kit``\n\nA kit.\n")
    (project / "tests").mkdir()
    (project / "tests" / "fixture.md").write_text("# Fixture\n")
    (project / "LICENSE.md").write_text("MIT\n")

    text = run_cli("status", cwd=project, home=home)
    data = run_cli("status", "--json", cwd=project, home=home)

    assert text.returncode == 0, text.stderr
    line = "docs 1 (docc 1) · code 0 · left out: licence 1, tests 1"
    assert f"sources:   {line} (`memory-tui sources --explain`)" in text.stdout.splitlines()
    assert json.loads(data.stdout)["sources"].startswith(line)
