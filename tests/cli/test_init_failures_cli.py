"""A failed ``init`` exits non-zero saying what failed and what to do."""

from __future__ import annotations

from pathlib import Path

from cli_support import git_repo, run_cli


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
