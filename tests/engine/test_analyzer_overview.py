"""The analyzer's project overview of an empty repository, and its counts in the singular."""

from __future__ import annotations

from pathlib import Path


def test_seed004_analyzer_overview_of_an_empty_repository(tmp_path: Path) -> None:
    from engine.analyzer import analyze
    from engine.analyzer.entries import discovery_drafts

    empty = tmp_path / "empty"
    (empty / ".git").mkdir(parents=True)
    overview = discovery_drafts(analyze(empty))[0]
    assert overview.section_title == "Project overview"
    assert "0 files in 0 directories" not in overview.content
    assert "no files to analyse yet" in overview.content
    one = tmp_path / "one"
    one.mkdir()
    (one / "main.py").write_text("print('hi')\n", encoding="utf-8")
    size = discovery_drafts(analyze(one))[0].content
    assert "Size: 1 file in " in size and "1 line (1 source file, 0 test files)" in size
