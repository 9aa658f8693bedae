"""Promotion of entries into curated markdown: where the text goes, what it keeps, and
what hostile knowledge folders (symlinks, FIFOs, files that index nothing) cannot do."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.core.errors import EngineError, InvalidInputError, NotFoundError
from engine.core.models import Entry
from engine.guards.files import FileRefusedError
from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.services.promote import promote, render_markdown, slugify
from engine.services.references import due_for_promotion

GOTCHAS = "# Gotchas\n\nOne section per gotcha.\n\n## Tests need the root\n\nRun pytest there.\n"


@pytest.fixture
def knowledge(memory: Memory) -> Path:
    folder = memory.paths.knowledge_dir
    folder.mkdir(parents=True)
    return folder


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
    memory.referenced([note.id])

    result = promote(memory, note.id)

    assert result.path.parent == memory.paths.knowledge_dir / "gotchas"
    assert result.entries, result.path.read_text()
    assert all(e.promoted and e.promoted_at for e in result.entries)
    assert all(e.reference_count == 1 and e.keywords == ("ci",) for e in result.entries)
    assert note.id not in {e.id for e in memory.list()}  # the note itself is gone
    assert memory.count() == len(result.entries)
    assert "\n".join(e.content for e in result.entries).count(content.splitlines()[-1]) >= 1


def test_a_gotcha_is_appended_to_gotchas_md_not_written_beside_it(
    memory: Memory, knowledge: Path
) -> None:
    (knowledge / "gotchas.md").write_text(GOTCHAS, encoding="utf-8")
    Indexer(memory).run()
    before = {e.id for e in memory.list()}
    note = memory.add(
        "Migrations must run before the seed script, or the seed fails on a missing table",
        category="gotcha",
        keywords=["migrations"],
        source="session",
    ).entry

    result = promote(memory, note.id)

    assert result.path == knowledge / "gotchas.md"
    assert not (knowledge / "gotchas").exists()
    text = result.path.read_text(encoding="utf-8")
    assert text.startswith(GOTCHAS)
    sentence = "Migrations must run before the seed script, or the seed fails on a missing table"
    # The one-sentence note is headed by its first words and said once, in the body.
    assert "\n## Migrations must run before the seed script, or …\n\n" + sentence in text
    assert text.count(sentence) == 1
    assert {e.id for e in memory.list()} >= before  # the other sections kept their entries
    assert [e.category.value for e in result.entries] == ["gotcha"]
    assert "migrations" in result.entries[0].content.lower()
    assert all(e.promoted and e.promoted_at for e in result.entries)

    with result.path.open("a", encoding="utf-8") as fh:  # a person adds a section after it
        fh.write("\n## Caches go stale\n\nClear them after a schema change.\n")
    Indexer(memory).run()
    promoted = {e.section_title: e.promoted for e in memory.list(source="markdown")}
    assert promoted == {
        "Gotchas": False,
        "Gotchas > Tests need the root": False,
        "Gotchas > Migrations must run before the seed script, or …": True,
        "Gotchas > Caches go stale": False,
    }


def test_a_new_file_is_named_and_headed_by_the_full_title(memory: Memory) -> None:
    title = "Retry the payment webhook with exponential backoff when the provider answers 503"
    note = memory.add(title + "\n\nWait 1, 2, 4 s.", category="pattern", source="session").entry

    result = promote(memory, note.id)

    assert result.path.name == (
        "retry-the-payment-webhook-with-exponential-backoff-when-the-provider-answers-503.md"
    )
    assert f"\n# {title}\n" in result.path.read_text(encoding="utf-8")
    assert "…" not in result.path.read_text(encoding="utf-8")


@pytest.mark.parametrize("appended", [False, True])
def test_the_old_id_answers_with_the_new_entry_even_after_meta_json_is_lost(
    memory: Memory, knowledge: Path, appended: bool
) -> None:
    if appended:
        (knowledge / "gotchas.md").write_text(GOTCHAS, encoding="utf-8")
    note = memory.add("Docker volumes keep stale node_modules", category="gotcha").entry
    result = promote(memory, note.id)

    assert memory.get(note.id) == result.entries[0]
    memory.paths.meta_path.unlink()
    Indexer(memory).run()
    assert memory.get(note.id) == result.entries[0]
    with pytest.raises(InvalidInputError, match="already lives in"):
        promote(memory, note.id)


def test_a_promoted_note_keeps_its_citations_and_goes_stale(memory: Memory) -> None:
    source = memory.paths.root / "shop" / "billing.py"
    source.parent.mkdir()
    source.write_text("def compute_total(items):\n    return sum(items)\n", encoding="utf-8")
    note = memory.add(
        "compute_total() in shop/billing.py rounds each price", source="session"
    ).entry

    result = promote(memory, note.id)
    new_ids = [e.id for e in result.entries]
    assert memory.stale_reasons(new_ids) == {}

    # Markdown entries record no citations of their own: these are the note's, carried
    # over, and the note's own are gone with it.
    source.write_text("def total_of(items):\n    return sum(items)\n", encoding="utf-8")
    assert memory.stale_reasons([*new_ids, note.id]) == {
        i: "compute_total is no longer defined in shop/billing.py" for i in new_ids
    }


# --- hostile knowledge folders: a clear error, nothing lost ------------------------------------


def _kept(memory: Memory, note: Entry) -> None:
    assert memory.get(note.id) == note


@pytest.mark.parametrize("dangling", [False, True])
def test_a_symlinked_category_file_is_refused(
    memory: Memory, knowledge: Path, tmp_path: Path, dangling: bool
) -> None:
    outside = tmp_path.parent / f"{tmp_path.name}-outside.md"
    if not dangling:
        outside.write_text("# Not yours\n", encoding="utf-8")
    (knowledge / "gotchas.md").symlink_to(outside)
    note = memory.add("Never write through links", category="gotcha").entry

    with pytest.raises(FileRefusedError, match=r"gotchas\.md: is a symlink"):
        promote(memory, note.id)

    _kept(memory, note)
    assert outside.exists() is not dangling
    if not dangling:
        assert outside.read_text(encoding="utf-8") == "# Not yours\n"


def test_a_symlinked_category_folder_is_refused(
    memory: Memory, knowledge: Path, tmp_path: Path
) -> None:
    outside = tmp_path.parent / f"{tmp_path.name}-elsewhere"
    outside.mkdir()
    (knowledge / "patterns").symlink_to(outside, target_is_directory=True)
    note = memory.add("Patterns stay home", category="pattern").entry

    with pytest.raises(FileRefusedError, match="patterns: is a symlink"):
        promote(memory, note.id)

    _kept(memory, note)
    assert list(outside.iterdir()) == []


def test_a_dangling_link_at_the_new_file_name_is_passed_over(
    memory: Memory, knowledge: Path, tmp_path: Path
) -> None:
    outside = tmp_path.parent / f"{tmp_path.name}-trap.md"
    (knowledge / "patterns").mkdir()
    (knowledge / "patterns" / "cache-the-tokenizer.md").symlink_to(outside)
    note = memory.add("Cache the tokenizer", category="pattern").entry

    result = promote(memory, note.id)

    assert result.path.name == "cache-the-tokenizer-2.md"
    assert not outside.exists()


def test_a_fifo_as_category_file_is_refused_without_hanging(
    memory: Memory, knowledge: Path
) -> None:
    os.mkfifo(knowledge / "gotchas.md")
    note = memory.add("FIFOs block readers", category="gotcha").entry

    with pytest.raises(FileRefusedError, match="a FIFO, not a regular file"):
        promote(memory, note.id)

    _kept(memory, note)


def test_a_file_that_indexes_nothing_is_put_back_and_the_entry_kept(
    memory: Memory, knowledge: Path
) -> None:
    unindexed = "<!-- vector-index: false -->\n# Gotchas\n\nKept out of the index.\n"
    (knowledge / "gotchas.md").write_text(unindexed, encoding="utf-8")
    note = memory.add("Nothing indexed means nothing deleted", category="gotcha").entry

    with pytest.raises(EngineError, match="put back as it was and the entry is kept") as info:
        promote(memory, note.id)

    assert info.value.code == "PROMOTE_FAILED"
    _kept(memory, note)
    assert (knowledge / "gotchas.md").read_text(encoding="utf-8") == unindexed
    assert sorted(p.name for p in knowledge.iterdir()) == ["gotchas.md"]


# --- the rest -----------------------------------------------------------------------------------


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
        memory.referenced([hot.id])

    assert [e.id for e in due_for_promotion(memory)] == [hot.id]


def test_render_and_slugify() -> None:
    assert slugify("Don't use `eval()`!") == "don-t-use-eval"
    assert slugify("¡¿") == "entry"
    assert slugify("alpha " * 30, max_length=20) == "alpha-alpha-alpha"

    text = render_markdown(Entry(id="i", content="one line", keywords=("a",)))
    assert text.startswith("---\ncategory: general\n") and "# one line\n\none line\n" in text
    assert "promoted_from: i\n" in text


def test_a_note_with_a_short_first_line_is_headed_by_it_and_not_repeated(
    memory: Memory, knowledge: Path
) -> None:
    note = memory.add(
        "Deploy freeze\nNo deploys on Fridays after noon: the on-call team is thin.",
        category="pattern",
    ).entry

    text = promote(memory, note.id).path.read_text(encoding="utf-8")

    assert "# Deploy freeze\n\nNo deploys on Fridays after noon" in text
    assert text.count("Deploy freeze") == 1
