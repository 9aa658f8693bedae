"""An unchanged documentation page keeps its entries, ids included, however the rest of
the memory grows (issue 45, item 6): its share of the memory (the page cap, issue 34) is
worked out when its bytes change, and ``index --force`` chunks it as it was chunked then."""

from __future__ import annotations

import json
from pathlib import Path

from engine.markdown.pages import page_cap
from engine.services.entries import NewEntry
from engine.services.indexing import Indexer
from engine.services.memory import Memory


def _project(root: Path) -> None:
    """A README of 30 short sections beside 14 one-section pages: enough files for the
    share to cap the README (``page_cap``), which then holds a few merged entries."""
    sections = "".join(
        f"\n## Section {i}\n\nSection {i} explains option {i}: how the flag opt{i} changes "
        "the search, which files it reads and what it prints when it finishes.\n"
        for i in range(30)
    )
    (root / "README.md").write_text(f"# Tool\n\nA tool that does things.\n{sections}", "utf-8")
    docs = root / "docs"
    docs.mkdir()
    for i in range(14):
        (docs / f"p{i}.md").write_text(f"# Page {i}\n\nPage {i} describes topic {i}.\n", "utf-8")


def _readme(memory: Memory) -> dict[str, str]:
    return {e.id: e.content for e in memory.list(limit=10_000) if e.file_path == "README.md"}


def test_an_unchanged_page_keeps_its_entry_ids_when_notes_are_added(
    tmp_path: Path, memory: Memory
) -> None:
    _project(tmp_path)
    Indexer(memory).run()
    before = _readme(memory)
    others = memory.count() - len(before)
    assert 1 < len(before) < 30  # capped: its sections merged into its share
    # Enough notes that the README's share now is one chunk more than when it was indexed.
    added = next(n for n in range(1, 20) if page_cap(others + n, 16) != page_cap(others, 16))
    memory.add_many([NewEntry(f"note number {n} about billing") for n in range(added)])

    forced = Indexer(memory).run(force=True)
    assert (forced.entries_created, forced.entries_deleted) == (0, 0)
    assert _readme(memory) == before
    plain = Indexer(memory).run()
    assert (plain.files_processed, plain.entries_created, plain.entries_deleted) == (0, 0, 0)
    assert _readme(memory) == before


def test_a_changed_page_gets_its_share_of_the_memory_now(tmp_path: Path, memory: Memory) -> None:
    _project(tmp_path)
    note = tmp_path / ".claude" / "knowledge" / "gotchas.md"
    note.parent.mkdir(parents=True)
    note.write_text("# Gotchas\n\nQuote camelCase columns in LanceDB filters.\n", "utf-8")
    Indexer(memory).run()
    before = _readme(memory)
    memory.add_many([NewEntry(f"note number {n} about billing") for n in range(40)])
    readme = tmp_path / "README.md"
    readme.write_text(readme.read_text("utf-8") + "\n## Last\n\nOne more short section.\n")
    Indexer(memory).run()
    assert len(_readme(memory)) > len(before)  # a larger memory: a larger share
    meta = json.loads(memory.paths.meta_path.read_text("utf-8"))
    assert meta["pageCaps"]["README.md"] == len(_readme(memory))
    assert ".claude/knowledge/gotchas.md" not in meta["pageCaps"]  # a note has no cap
