"""What an index run could not read reaches stderr one way, from every command that
indexes: one line per file, escape sequences in its name made inert."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cli_support import run_cli

ESCAPED_NAME = "bad\x1b[31mred.md"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "docs").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "docs" / "ok.md").write_text("# Ok\n\nSome words about deployments.\n")
    (root / "docs" / ESCAPED_NAME).write_bytes(b"# T\n\n\xff\xfe not UTF-8\n")
    return root


@pytest.mark.parametrize("argv", [("import", "docs/"), ("index",)])
def test_a_file_that_cannot_be_indexed_is_named_with_its_escapes_made_inert(
    project: Path, tmp_path: Path, argv: tuple[str, ...]
) -> None:
    if argv == ("index",):
        (project / ".claude").mkdir()
        (project / ".claude" / "memory.config.toml").write_text('sources = ["/docs/**"]\n')
    done = run_cli(*argv, cwd=project, home=tmp_path / "home")

    assert done.returncode == 1, done.stderr
    errors = [line for line in done.stderr.splitlines() if "not UTF-8" in line]
    assert len(errors) == 1, done.stderr
    assert errors[0].startswith("memory-tui: error: docs/bad")
    assert "\x1b" not in done.stderr
