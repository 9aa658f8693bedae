"""Issue 45, items 9 and 13: what a newcomer is told outside a git repository, and the
missing-meta.json warning, once and with its path right."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest
from cli_support import git_repo, project_with_notes, run_cli


def _outside_git(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    found = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"], cwd=folder, capture_output=True, check=False
    )
    if found.returncode == 0:
        pytest.skip("the temporary folder lies inside a git repository")
    return folder


@pytest.mark.parametrize("command", [["search", "deploys"], ["list"]])
def test_outside_git_the_commands_say_so_and_what_project_does(
    command: list[str], tmp_path: Path, home: Path
) -> None:
    folder = _outside_git(tmp_path)

    done = run_cli(*command, cwd=folder, home=home)

    assert done.returncode == 2
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert f"{folder} is not inside a git repository" in line
    assert "--project DIR" in line
    assert f"`memory-tui --project {shlex.quote(str(folder))} init`" in line
    assert "run `memory-tui init` first" not in line  # init refuses here
    assert not (folder / ".claude").exists()


def test_outside_git_status_says_so_and_the_advice_works(tmp_path: Path, home: Path) -> None:
    folder = _outside_git(tmp_path)

    status = run_cli("status", cwd=folder, home=home)
    plain_init = run_cli("init", cwd=folder, home=home)
    advised = run_cli(  # (without the analysis, whose entries would load the model)
        "--project", str(folder), "init", "--skip-analyze", "--no-embed", cwd=folder, home=home
    )
    listed = run_cli("--project", str(folder), "list", cwd=folder, home=home)

    assert status.returncode == 0
    assert f"{folder} is not inside a git repository" in status.stdout
    assert "--project DIR" in status.stdout
    assert plain_init.returncode == 2  # what the old message advised
    assert advised.returncode == 0, advised.stderr
    assert listed.returncode == 0, listed.stderr
    assert (folder / ".claude" / "memory").is_dir()


def test_in_a_repository_without_memory_init_is_still_the_advice(
    tmp_path: Path, home: Path
) -> None:
    root = git_repo(tmp_path / "project")

    done = run_cli("list", cwd=root, home=home)

    assert done.returncode == 2
    assert f"no memory in {root} yet: run `memory-tui init` first" in done.stderr


def test_a_missing_meta_json_is_reported_once_with_its_path(tmp_path: Path, home: Path) -> None:
    root = project_with_notes(git_repo(tmp_path / "project"))
    (root / ".claude" / "memory" / "meta.json").unlink()

    for verbose in ([], ["-v"]):
        (root / ".claude" / "memory" / "meta.json").unlink(missing_ok=True)
        done = run_cli("index", "--no-embed", *verbose, cwd=root, home=home)

        assert done.returncode == 0, done.stderr
        mentions = [line for line in done.stderr.splitlines() if "meta.json" in line]
        assert mentions == [
            "memory-tui: warning: .claude/memory/meta.json: was missing; it is rebuilt now "
            "(unchanged chunks are kept)"
        ]
    assert (root / ".claude" / "memory" / "meta.json").is_file()
