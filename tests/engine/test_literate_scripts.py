"""F# literate scripts in the documentation folder are pages (fsdocs' "Literate Scripts"):
their ``(** … *)`` markdown is read as markdown, its headings as the sections' titles, and
the code between as F# blocks. ``literate/perf.fsx`` is fsprojects/Argu's ``docs/perf.fsx``
(8dcad5b), which the memory chunked as code titled by its bindings ("checkStructure,
parser, AppArgs") and its prose lines in code blocks."""

from __future__ import annotations

import shutil
from pathlib import Path

from engine.analyzer.doc_kinds import prose_dialect
from engine.core.config import load_config
from engine.markdown.parse import parse_markdown
from engine.markdown.rst import as_markdown
from engine.services.sources import SourceSet

SCRIPT = Path(__file__).parent / "literate" / "perf.fsx"


def test_a_script_in_the_docs_folder_is_a_literate_page() -> None:
    assert prose_dialect("docs/perf.fsx") == "fsdocs"
    assert prose_dialect("docs/guide/tutorial.fsx") == "fsdocs"
    assert prose_dialect("build.fsx") is None  # FAKE's build script: code
    assert prose_dialect("tests/Argu.Tests/tests.fsx") is None


def test_the_markdown_comments_are_the_page_and_the_code_is_fenced() -> None:
    text = SCRIPT.read_text(encoding="utf-8")
    page = as_markdown(text, "docs/perf.fsx", prose_dialect("docs/perf.fsx"))
    lines = page.split("\n")
    assert len(lines) == len(text.split("\n"))  # line for line: chunks cite the script's lines
    assert "(**" not in page and "*)" not in page
    assert "open Argu" not in page  # the code a ``(*** hide ***)`` hides
    assert lines[lines.index("let checkStructure =") - 1] == "```fsharp"
    assert "## Bypassing structure checks" in lines  # a heading, a section's title
    assert parse_markdown(page, "docs/perf.fsx").body.count("```") == 4  # two blocks of code


def test_the_docs_folder_scripts_are_sources_and_a_build_script_is_not(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    shutil.copy(SCRIPT, tmp_path / "docs" / "perf.fsx")
    (tmp_path / "build.fsx").write_text('#r "nuget: Fake.Core.Target"\n', encoding="utf-8")
    cfg = load_config(tmp_path)
    files = sorted(rel for rel, _ in SourceSet(tmp_path, cfg, tmp_path / cfg.knowledge_dir).files())
    assert files == ["docs/perf.fsx"]
