"""A docs page whose title is not written as a heading (front matter, or only the file's
name, as MkDocs shows it) keeps that title on its chunks (issue 34)."""

from __future__ import annotations

from pathlib import Path

from engine.markdown.chunking import chunk_markdown
from engine.markdown.pages import page_title
from engine.services.indexing import Indexer
from engine.services.memory import Memory


def test_the_title_comes_from_front_matter_else_the_file_name() -> None:
    assert page_title("docs/v3/getting-started.md", {}) == "Getting started"
    assert page_title("docs/flags/index.md", {}) == "Flags"
    assert page_title("docs/flags/basics.md", {"title": "Flag  basics"}) == "Flag basics"
    assert page_title("README.md", {}) == ""  # the project's own front page


def test_a_page_without_a_top_heading_opens_every_path_with_its_title() -> None:
    text = "Being a programmer can be lonely; a greeter app helps.\n\n## Run it\n\nGo run it.\n"
    titles = [c.title for c in chunk_markdown(text, page_title="Greet")]
    assert titles == ["Greet", "Greet > Run it"]
    own = "# Welcome\n\nThe manual starts here with some words.\n"
    assert [c.title for c in chunk_markdown(own, page_title="Index")] == ["Welcome"]


def test_an_untitled_docs_page_is_found_by_its_name(tmp_path: Path, memory: Memory) -> None:
    page = tmp_path / "docs" / "quokka-setup.md"
    page.parent.mkdir()
    page.write_text("---\ntags: [v3]\n---\n\nFirst run the installer, then start it.\n")
    assert Indexer(memory).run().errors == []
    found = memory.search("quokka setup", mode="keyword").results
    assert [(r.entry.file_path, r.entry.section_title) for r in found] == [
        ("docs/quokka-setup.md", "Quokka setup")
    ]
