"""Knowledge files are the source of their entries, on the command line: deleting such an entry
is refused naming the file, and ``init --force`` re-reads every knowledge file.

Projects are filled in-process with the fake embedder (of the real model's dimension), so
the commands run here never load the embedding model.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_support import git_repo, run_cli, sprocket_project
from fakes import FakeEmbedder

from engine.embedding.base import DIMENSION
from engine.services.indexing import Indexer
from engine.services.memory import Memory


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git repository whose memory holds one note about sprockets."""
    return sprocket_project(tmp_path)


def test_seed004_deleting_a_knowledge_file_entry_is_refused_the_file_is_the_source(
    project: Path, home: Path
) -> None:
    knowledge = project / ".claude" / "knowledge"
    knowledge.mkdir(parents=True)
    (knowledge / "gears.md").write_text("# Gears\n\nEvery gear is oiled monthly.\n", "utf-8")
    embedder = FakeEmbedder(dimension=DIMENSION)
    with Memory.open(project, embedder=embedder) as memory:
        Indexer(memory).run()
        by_source = {e.source.value: e.id for e in memory.list()}
    from_file, note = by_source["markdown"], by_source["manual"]

    result = run_cli("delete", from_file, note, cwd=project, home=home)

    assert result.returncode == 1
    assert f"deleted {note}" in result.stderr  # the others are still deleted
    assert ".claude/knowledge/gears.md" in result.stderr
    assert "the file is the source" in result.stderr and "Traceback" not in result.stderr
    with Memory.open(project, embedder=embedder) as memory:
        assert memory.get(note) is None
        Indexer(memory).run(force=True)
        assert [e.id for e in memory.list()] == [from_file]  # nothing came back or went


def test_seed000_init_force_reindexes_every_knowledge_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # In-process (the CLI's own main) with the fake embedder: re-indexing embeds.
    import engine.services.memory as memory_module
    from app.cli.main import main

    monkeypatch.setattr(memory_module, "default_embedder", lambda: FakeEmbedder(DIMENSION))
    root = git_repo(tmp_path / "fresh")
    knowledge = root / ".claude" / "knowledge"
    knowledge.mkdir(parents=True)
    (knowledge / "gears.md").write_text("# Gears\n\nEvery gear is oiled monthly.\n", "utf-8")
    init = ["--project", str(root), "init", "--skip-analyze", "--no-hooks"]

    def knowledge(argv: list[str]) -> tuple[int, int]:
        """(files, files unchanged) of the init report."""
        assert main(argv) == 0
        found = re.search(r"indexed: (\d+) knowledge files? and (\d+) doc files?; [\d,]+ "
                          r"(?:entry|entries) created, (\d+) files? unchanged",
                          capsys.readouterr().out)  # fmt: skip
        assert found is not None
        return int(found[1]) + int(found[2]), int(found[3])

    files, _ = knowledge(init)
    assert files >= 1
    assert knowledge(init) == (files, files)  # a plain re-run skips unchanged files
    assert knowledge([*init, "--force"]) == (files, 0)  # --force re-reads every one
