"""``memory-tui promote`` and ``get`` through the real console script: a hostile knowledge
folder gets a clear error and loses nothing; a promoted entry's old id still answers."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cli_support import git_repo, run_cli
from fakes import FakeEmbedder

from engine.embedding.base import DIMENSION
from engine.services.memory import Memory
from engine.services.promote import promote

NOTE = "Seed scripts fail when migrations have not run yet"


def _clean_failure(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 1, result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr
    return result.stderr


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, str]:
    """A project whose memory holds one session gotcha; returns (root, its id)."""
    root = git_repo(tmp_path / "project")
    (root / ".claude" / "knowledge").mkdir(parents=True)
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        note = memory.add(NOTE, category="gotcha", source="session").entry
    return root, note.id


@pytest.mark.parametrize("dangling", [False, True])
def test_promote_through_a_symlinked_gotchas_md_is_refused_and_loses_nothing(
    project: tuple[Path, str], home: Path, tmp_path: Path, dangling: bool
) -> None:
    root, note_id = project
    outside = tmp_path / "outside.md"
    if not dangling:
        outside.write_text("# Someone else's file\n", encoding="utf-8")
    (root / ".claude" / "knowledge" / "gotchas.md").symlink_to(outside)

    stderr = _clean_failure(run_cli("promote", note_id, cwd=root, home=home))

    assert stderr == (
        "memory-tui: error: .claude/knowledge/gotchas.md: is a symlink; promotion never "
        "writes through a link; replace it with a regular file, or move the link away\n"
    )
    kept = run_cli("get", note_id, cwd=root, home=home)
    assert kept.returncode == 0 and NOTE in kept.stdout
    assert outside.exists() is not dangling
    if not dangling:
        assert outside.read_text(encoding="utf-8") == "# Someone else's file\n"


def test_get_of_a_promoted_id_answers_with_the_entry_that_holds_its_text(
    project: tuple[Path, str], home: Path
) -> None:
    root, note_id = project
    with Memory.open(root, embedder=FakeEmbedder(dimension=DIMENSION)) as memory:
        new = promote(memory, note_id).entries[0]

    result = run_cli("get", note_id, cwd=root, home=home)

    assert result.returncode == 0, result.stderr
    assert f"id:         {new.id}\n" in result.stdout
    assert "location:   .claude/knowledge/gotchas/seed-scripts-fail-when-" in result.stdout
    assert NOTE in result.stdout
    assert result.stderr.startswith(f"{note_id} was promoted: it is now {new.id} (")
