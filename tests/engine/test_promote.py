"""Promotion of entries into curated markdown."""

from __future__ import annotations

import pytest

from engine.core.errors import InvalidInputError, NotFoundError
from engine.services.memory import Memory
from engine.services.promote import due_for_promotion, promote, render_markdown, slugify


@pytest.mark.parametrize(
    "content",
    [
        "Run ruff before pushing: CI fails on lint",
        "A long first line " + "word " * 30 + "\nand a second line with details",
        "# Already a heading\n\nWith a body.",
    ],
)
def test_promoted_text_is_indexed_once_and_marked(memory: Memory, content: str) -> None:
    note = memory.add(content, category="gotcha", keywords=["ci"], source="session").entry
    memory.record_references([note.id])

    result = promote(memory, note.id)

    assert result.path.parent == memory.paths.knowledge_dir / "gotchas"
    assert result.entries, result.path.read_text()
    assert all(e.promoted and e.promoted_at for e in result.entries)
    assert all(e.reference_count == 1 and e.keywords == ("ci",) for e in result.entries)
    assert memory.get(note.id) is None
    assert memory.count() == len(result.entries)
    assert "\n".join(e.content for e in result.entries).count(content.splitlines()[-1]) >= 1


def test_promoting_twice_picks_a_new_file_name(memory: Memory) -> None:
    first = promote(memory, memory.add("Same title here", source="session").entry.id)
    second = promote(memory, memory.add("Same title here!", source="session").entry.id)

    assert first.path != second.path and second.path.name == "same-title-here-2.md"


def test_markdown_entries_and_unknown_ids_are_refused(memory: Memory) -> None:
    note = promote(memory, memory.add("x marks the spot", source="session").entry.id)

    with pytest.raises(InvalidInputError, match="already lives in"):
        promote(memory, note.entries[0].id)
    with pytest.raises(NotFoundError):
        promote(memory, "nope")


def test_due_for_promotion_uses_the_threshold(memory: Memory) -> None:
    hot = memory.add("found again and again", source="session").entry
    memory.add("found once", source="session")
    for _ in range(memory.config.promote_threshold):
        memory.record_references([hot.id])

    assert [e.id for e in due_for_promotion(memory)] == [hot.id]


def test_render_and_slugify() -> None:
    assert slugify("Don't use `eval()`!") == "don-t-use-eval"
    assert slugify("¡¿") == "entry"
    from engine.core.models import Entry

    text = render_markdown(Entry(id="i", content="one line", keywords=("a",)))
    assert text.startswith("---\ncategory: general\n") and "# one line\n\none line\n" in text
