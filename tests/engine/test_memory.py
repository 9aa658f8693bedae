"""The Memory front door on real LanceDB and SQLite files: writes, reads, validation,
crash consistency and concurrent writers."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
from fakes import FakeEmbedder
from read_back import assert_shown_as_stored, from_the_store, of_file, shown

from engine.core.config import Config
from engine.core.errors import (
    ContentTooLongError,
    InvalidInputError,
    NotFoundError,
    SecretDetectedError,
)
from engine.core.hashing import content_hash
from engine.core.models import MAX_CONTENT_LENGTH, Category, Entry, SearchMode, Source
from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.services.parts import parts_of

GITHUB_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run by a fresh interpreter with the tests' helpers importable."""
    tests_dir = Path(__file__).resolve().parents[1]
    root = tests_dir.parent
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=root,
        env={**os.environ, "PYTHONPATH": f"{tests_dir}{os.pathsep}{root}"},
    )


def reopen(memory: Memory, embedder: FakeEmbedder | None = None) -> Memory:
    memory.close()
    return Memory.open(memory.paths.root, embedder=embedder or FakeEmbedder())


class TestAdd:
    def test_add_returns_the_created_entry(self, memory: Memory) -> None:
        result = memory.add(
            "  LanceDB needs double quotes\r\naround camelCase columns  ",
            category=" Gotcha",
            source="session",
            keywords=["lancedb", " sql ", "lancedb", ""],
            section_title=" Filters ",
        )
        entry = result.entry
        assert result.created
        assert result.redactions == ()
        assert entry.content == "LanceDB needs double quotes\naround camelCase columns"
        assert entry.category is Category.GOTCHA
        assert entry.source is Source.SESSION
        assert entry.keywords == ("lancedb", "sql")
        assert entry.section_title == "Filters"
        assert entry.content_hash == content_hash(entry.content)
        assert entry.created_at == entry.updated_at != ""
        assert len(entry.id) == 32
        assert memory.get(entry.id) == entry
        assert from_the_store(memory) == {entry.id: entry}
        assert memory.count() == 1

    def test_identical_content_returns_the_existing_entry(self, memory: Memory) -> None:
        first = memory.add("Line one\nLine two")
        for variant in ("Line one\r\nLine two", "  Line one\nLine two\n\n", "\tLine one\rLine two"):
            again = memory.add(variant, category="gotcha", source="session")
            assert not again.created
            assert again.entry == first.entry
        assert memory.count() == 1
        assert list(from_the_store(memory)) == [first.entry.id]

    def test_different_content_is_a_new_entry(self, memory: Memory) -> None:
        memory.add("Line one")
        assert memory.add("Line one.").created
        assert memory.count() == 2

    def test_add_many_dedups_within_a_batch(self, memory: Memory) -> None:
        results = memory.add_many(
            [NewEntry("alpha note"), NewEntry(" alpha note\r\n"), NewEntry("beta note")]
        )
        assert memory.count() == 2
        assert results[0].entry.id == results[1].entry.id
        assert results[0].entry.id != results[2].entry.id
        assert results[0].created
        assert results[2].created

    def test_add_many_reports_in_batch_duplicates_as_not_created(self, memory: Memory) -> None:
        results = memory.add_many([NewEntry("alpha note"), NewEntry(" alpha note\r\n")])
        assert [r.created for r in results] == [True, False]

    def test_add_many_embeds_in_one_batch(
        self, memory: Memory, fake_embedder: FakeEmbedder
    ) -> None:
        calls = fake_embedder.calls
        memory.add_many([NewEntry(f"note number {i}") for i in range(20)])
        assert fake_embedder.calls == calls + 1
        assert fake_embedder.texts_embedded == 20

    def test_duplicate_is_not_re_embedded(
        self, memory: Memory, fake_embedder: FakeEmbedder
    ) -> None:
        memory.add("embedded once")
        memory.add("embedded once")
        assert fake_embedder.texts_embedded == 1

    def test_duplicates_across_non_markdown_sources(self, memory: Memory) -> None:
        first = memory.add("shared fact", source="session")
        assert not memory.add("shared fact", source="manual").created
        assert memory.get(first.entry.id) is not None

    def test_add_after_delete_creates_again(self, memory: Memory) -> None:
        first = memory.add("comes back")
        memory.delete(first.entry.id)
        again = memory.add("comes back")
        assert again.created
        assert again.entry.id != first.entry.id


class TestMarkdownDedup:
    PARAGRAPH = "Identical paragraph that two knowledge files both contain."

    def md(self, path: str, text: str | None = None) -> NewEntry:
        return NewEntry(text or self.PARAGRAPH, "architecture", "markdown", file_path=path)

    def test_same_paragraph_in_two_files_is_two_entries(self, memory: Memory) -> None:
        results = memory.add_many([self.md("a.md"), self.md("b.md")])
        assert [r.created for r in results] == [True, True]
        assert results[0].entry.id != results[1].entry.id
        assert memory.count() == 2
        again = memory.add_many([self.md("a.md")])[0]
        assert not again.created
        assert again.entry.id == results[0].entry.id
        assert memory.count() == 2

    def test_removing_one_files_entries_keeps_the_other(self, memory: Memory) -> None:
        memory.add_many([self.md("a.md"), self.md("b.md"), self.md("a.md", "Only in a.")])
        a_ids = [e.id for e in of_file(memory, "a.md")]
        assert len(a_ids) == 2
        # what an index run does when a.md is removed (markdown entries are not deleted
        # one by one: the file is their source)
        assert parts_of(memory).entries.delete_many(a_ids) == 2
        left = memory.search("identical paragraph", mode="keyword").results
        assert [r.entry.file_path for r in left] == ["b.md"]
        assert [e.file_path for e in from_the_store(memory).values()] == ["b.md"]

    def test_markdown_and_separate_files_added_one_by_one(self, memory: Memory) -> None:
        memory.add(self.PARAGRAPH, source="markdown", file_path="a.md")
        second = memory.add(self.PARAGRAPH, source="markdown", file_path="b.md")
        assert second.created
        assert {e.file_path for e in memory.list()} == {"a.md", "b.md"}


class TestValidation:
    @pytest.mark.parametrize(
        "content",
        ["", "   ", "\n\t\r\n", "<private>secret</private>", "  <PRIVATE>a\nb</private>\n"],
    )
    def test_empty_content(self, memory: Memory, content: str) -> None:
        with pytest.raises(InvalidInputError, match="empty") as info:
            memory.add(content)
        assert info.value.code == "INVALID_INPUT"
        assert memory.count() == 0

    def test_content_must_be_text(self, memory: Memory) -> None:
        with pytest.raises(InvalidInputError):
            memory.add(None)  # type: ignore[arg-type]

    def test_too_long(self, memory: Memory) -> None:
        with pytest.raises(ContentTooLongError, match="10,000") as info:
            memory.add("x" * (MAX_CONTENT_LENGTH + 1))
        assert info.value.code == "CONTENT_TOO_LONG"
        assert memory.count() == 0

    def test_exactly_the_limit_is_accepted(self, memory: Memory) -> None:
        assert memory.add("y" * MAX_CONTENT_LENGTH).created
        # Surrounding whitespace is trimmed before the length is checked.
        assert memory.add("\n" + "z" * MAX_CONTENT_LENGTH + "\n  ").created

    def test_unknown_category_lists_the_categories(self, memory: Memory) -> None:
        with pytest.raises(InvalidInputError) as info:
            memory.add("text", category="gotchas")
        message = str(info.value)
        assert "'gotchas'" in message
        for category in Category:
            assert category.value in message

    def test_unknown_source(self, memory: Memory) -> None:
        with pytest.raises(InvalidInputError, match="manual"):
            memory.add("text", source="robot")

    def test_keywords(self, memory: Memory) -> None:
        with pytest.raises(InvalidInputError, match="keywords"):
            memory.add("text", keywords=[f"k{i}" for i in range(11)])
        ok = memory.add("text", keywords=[f"k{i}" for i in range(10)] + ["k0", " "])
        assert len(ok.entry.keywords) == 10
        assert memory.add("other", keywords="a, b ,c").entry.keywords == ("a", "b", "c")

    def test_a_bad_item_stores_nothing_of_its_batch(self, memory: Memory) -> None:
        with pytest.raises(InvalidInputError):
            memory.add_many([NewEntry("fine"), NewEntry(""), NewEntry("also fine")])
        assert memory.count() == 0
        assert from_the_store(memory) == {}

    def test_private_blocks_are_redacted(self, memory: Memory) -> None:
        entry = memory.add("Deploy key is <private>hunter2</private>, rotate monthly").entry
        assert entry.content == "Deploy key is [redacted: private], rotate monthly"
        assert memory.search("hunter2", mode="keyword").results == ()

    def test_secret_is_rejected_by_default(self, memory: Memory) -> None:
        with pytest.raises(SecretDetectedError, match="github-pat") as info:
            memory.add(f"CI uses token {GITHUB_TOKEN} for releases")
        assert info.value.code == "SECRET_DETECTED"
        assert "<private>" in str(info.value)
        assert memory.count() == 0

    def test_secret_is_redacted_with_the_redact_policy(
        self, tmp_path: Path, fake_embedder: FakeEmbedder
    ) -> None:
        config = replace(Config(), secret_policy="redact")
        with Memory.open(tmp_path, config=config, embedder=fake_embedder) as memory:
            result = memory.add(f"CI uses token {GITHUB_TOKEN} for releases")
            assert result.created
            assert result.redactions == ("github-pat",)
            assert result.entry.content == "CI uses token [redacted: github-pat] for releases"
            [stored] = from_the_store(memory).values()
            assert stored.content == result.entry.content

    def test_secret_policy_override_per_batch(self, memory: Memory) -> None:
        [result] = memory.add_many([NewEntry(f"t {GITHUB_TOKEN}")], secret_policy="redact")
        assert result.redactions == ("github-pat",)

    def test_update_validates_too(self, memory: Memory) -> None:
        entry = memory.add("valid").entry
        with pytest.raises(ContentTooLongError):
            memory.update(entry.id, content="x" * (MAX_CONTENT_LENGTH + 1))
        with pytest.raises(SecretDetectedError):
            memory.update(entry.id, content=GITHUB_TOKEN)
        with pytest.raises(InvalidInputError):
            memory.update(entry.id, category="nope")
        assert memory.get(entry.id) == entry


class TestUpdate:
    def test_update_re_embeds_and_keeps_identity(
        self, memory: Memory, fake_embedder: FakeEmbedder
    ) -> None:
        old = memory.add("apples oranges pears", category="general").entry
        time.sleep(0.001)
        embedded = fake_embedder.texts_embedded
        new = memory.update(old.id, content="submarine torpedo periscope")
        assert fake_embedder.texts_embedded == embedded + 1
        assert new.id == old.id
        assert new.created_at == old.created_at
        assert new.updated_at > old.updated_at
        assert new.content_hash == content_hash("submarine torpedo periscope")
        assert memory.get(old.id) == new
        assert from_the_store(memory) == {old.id: new}
        assert memory.count() == 1
        vector = memory.search("torpedo periscope", mode="vector").results
        assert [r.entry.id for r in vector] == [old.id]
        assert memory.search("apples oranges", mode="vector").results == ()
        assert memory.search("apples", mode="keyword").results == ()

    def test_update_metadata_only(self, memory: Memory) -> None:
        old = memory.add("some content").entry
        new = memory.update(old.id, category="pattern", keywords=["x", "y"], section_title=" T ")
        assert (new.category, new.keywords, new.section_title) == (
            Category.PATTERN,
            ("x", "y"),
            "T",
        )
        assert new.content == old.content
        assert memory.list(category="pattern") == [new]
        assert memory.search("some content", category="pattern", mode="vector").results

    def test_update_does_not_lose_a_concurrent_reference(
        self, memory: Memory, fake_embedder: FakeEmbedder, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        entry = memory.add("original text").entry
        real_embed = fake_embedder.embed_documents

        def embed_while_someone_searches(texts: list[str]) -> object:
            memory.referenced([entry.id])  # lands between update's read and write
            return real_embed(texts)

        monkeypatch.setattr(fake_embedder, "embed_documents", embed_while_someone_searches)
        memory.update(entry.id, content="edited text")
        assert memory.require(entry.id).reference_count == 1

    def test_update_unknown_id(self, memory: Memory) -> None:
        with pytest.raises(NotFoundError, match="nope") as info:
            memory.update("nope", content="x")
        assert info.value.code == "NOT_FOUND"


class TestDeleteRestore:
    def test_delete(self, memory: Memory) -> None:
        a, b = (memory.add(t).entry for t in ("first entry", "second entry"))
        assert memory.delete(a.id)
        assert not memory.delete(a.id)
        assert memory.get(a.id) is None
        assert from_the_store(memory) == {b.id: b}
        assert [r.entry.id for r in memory.search("entry", mode="keyword").results] == [b.id]

    def test_delete_many_counts_existing(self, memory: Memory) -> None:
        ids = [memory.add(f"entry {i}").entry.id for i in range(4)]
        assert parts_of(memory).entries.delete_many([ids[0], ids[1], "missing", ids[0]]) == 2
        assert memory.count() == 2
        assert parts_of(memory).store().count() == 2
        assert parts_of(memory).entries.delete_many([]) == 0

    def test_restore_puts_entries_back_exactly(
        self, memory: Memory, fake_embedder: FakeEmbedder
    ) -> None:
        a = memory.add("restorable entry about gardening", keywords=["garden"]).entry
        memory.referenced([a.id])
        a = memory.require(a.id)
        memory.delete(a.id)
        embedded = fake_embedder.texts_embedded
        memory.restore([a])
        assert fake_embedder.texts_embedded == embedded  # vector came from the cache
        assert memory.get(a.id) == a
        assert from_the_store(memory) == {a.id: a}
        assert memory.search("gardening", mode="vector").results[0].entry == a
        memory.restore([])
        assert_shown_as_stored(memory)


class TestReferences:
    def test_record_references_counts_in_the_mirror_then_the_store(self, memory: Memory) -> None:
        a, b = (memory.add(t).entry for t in ("first", "second"))
        version = parts_of(memory).store().version
        memory.referenced([a.id, a.id, b.id, "missing"])
        memory.referenced([a.id])
        memory.referenced([])
        assert memory.require(a.id).reference_count == 3  # each occurrence counts
        assert memory.require(b.id).reference_count == 1
        assert parts_of(memory).store().version == version  # a search never writes the store
        assert parts_of(memory).mirror.reference_backlog() == {a.id: 3, b.id: 1}
        memory.add("a later write leaves a small backlog where it is")
        assert parts_of(memory).store().version == version + 1  # the add's own commit only
        assert parts_of(memory).mirror.reference_backlog() == {a.id: 3, b.id: 1}
        parts_of(memory).records.flush_references()  # what closing a process does
        stored = parts_of(memory).store().get_many([a.id, b.id])
        assert stored[a.id].reference_count == 3
        assert stored[b.id].reference_count == 1
        assert parts_of(memory).mirror.reference_backlog() == {}
        assert parts_of(memory).store().version == version + 2  # all counts in one commit
        assert_shown_as_stored(memory)

    def test_a_full_backlog_is_folded_by_the_next_write_in_one_commit(self, memory: Memory) -> None:
        from engine.storage.records import REFERENCE_FOLD_BATCH

        notes = [NewEntry(f"note number {i}") for i in range(REFERENCE_FOLD_BATCH)]
        entries = [e.entry for e in memory.add_many(notes)]
        for n, entry in enumerate(entries):
            memory.referenced([entry.id] * (1 + n % 3))
        version = parts_of(memory).store().version
        memory.add("this write folds the counts first")
        assert parts_of(memory).store().version == version + 2  # one commit for all counts, one add
        assert parts_of(memory).mirror.reference_backlog() == {}
        stored = parts_of(memory).store().get_many([e.id for e in entries])
        assert [stored[e.id].reference_count for e in entries] == [
            1 + n % 3 for n in range(len(entries))
        ]
        assert_shown_as_stored(memory)

    def test_recording_references_opens_no_store(self, tmp_path: Path) -> None:
        with Memory.open(tmp_path, embedder=FakeEmbedder()) as writer:
            entry = writer.add("referenced entry").entry
        # A process that only counts (the prompt hook, a search) neither imports LanceDB
        # nor opens the store, not even when it closes: the count waits in the index.
        code = (
            "import sys;"
            "from fakes import FakeEmbedder;"
            "from engine.services.memory import Memory;"
            f"m = Memory.open({str(tmp_path)!r}, embedder=FakeEmbedder());"
            f"m.referenced([{entry.id!r}]);"
            "print('lancedb' in sys.modules);"
            "m.close();"
            "print('lancedb' in sys.modules)"
        )
        out = run_python(code)
        assert out.returncode == 0, out.stderr
        assert out.stdout.split() == ["False", "False"]
        with Memory.open(tmp_path, embedder=FakeEmbedder()) as again:
            assert again.require(entry.id).reference_count == 1  # every face reads this
            assert from_the_store(again)[entry.id].reference_count == 0  # still waiting
            again.compact()  # hands the waiting counts to the store
            assert from_the_store(again)[entry.id].reference_count == 1

    def test_a_repair_keeps_counts_the_store_has_not_received(self, memory: Memory) -> None:
        a = memory.add("counted entry").entry
        memory.referenced([a.id, a.id])
        parts_of(memory).mirror.mark_pending()  # as if another writer had died mid-way
        reopened = reopen(memory)
        try:
            assert reopened.require(a.id).reference_count == 2
            assert from_the_store(reopened)[a.id].reference_count == 2
            assert_shown_as_stored(reopened)
        finally:
            reopened.close()

    def test_handing_counts_over_twice_does_not_double_them(self, memory: Memory) -> None:
        # A writer killed between the store update and clearing the backlog repeats it.
        a = memory.add("counted once").entry
        memory.referenced([a.id])
        backlog = parts_of(memory).mirror.reference_backlog()
        parts_of(memory).store().set_reference_counts(backlog)
        parts_of(memory).store().set_reference_counts(backlog)
        memory.add("next write folds the same backlog again")
        assert parts_of(memory).store().get_many([a.id])[a.id].reference_count == 1
        assert memory.require(a.id).reference_count == 1

    def test_only_unknown_ids_is_a_no_op(self, memory: Memory) -> None:
        memory.referenced(["missing"])
        assert memory.count() == 0


class TestReads:
    def test_list_newest_first_with_filters(self, memory: Memory) -> None:
        a = memory.add("oldest", category="gotcha").entry
        b = memory.add("middle", source="session").entry
        c = memory.add("newest", category="gotcha", source="session").entry
        assert [e.id for e in memory.list()] == [c.id, b.id, a.id]
        assert [e.id for e in memory.list(category="gotcha")] == [c.id, a.id]
        assert [e.id for e in memory.list(source=Source.SESSION)] == [c.id, b.id]
        assert [e.id for e in memory.list(category="gotcha", source="session")] == [c.id]
        assert [e.id for e in memory.list(limit=1, offset=1)] == [b.id]
        with pytest.raises(InvalidInputError):
            memory.list(category="nope")

    def test_count_and_stats(self, memory: Memory) -> None:
        memory.add_many(
            [
                NewEntry("one", "gotcha"),
                NewEntry("two", "gotcha", "session"),
                NewEntry("three", "architecture", "markdown", file_path="arch.md"),
                NewEntry("four", "architecture", "markdown", file_path="arch.md"),
                NewEntry("five", "domain", "markdown", file_path="domain.md"),
            ]
        )
        assert memory.count() == 5
        assert memory.count(category="gotcha") == 2
        assert memory.count(category=Category.PATTERN) == 0
        stats = memory.stats()
        assert stats["entries"] == 5
        assert stats["by_category"] == {"gotcha": 2, "architecture": 2, "domain": 1}
        assert stats["by_source"] == {"manual": 1, "session": 1, "markdown": 3}
        assert stats["files"] == 2
        assert stats["project"] == str(memory.paths.root)
        assert stats["config"] == "defaults"

    def test_require(self, memory: Memory) -> None:
        with pytest.raises(NotFoundError):
            memory.require("missing")

    def test_reads_need_neither_lancedb_nor_the_model(self, tmp_path: Path) -> None:
        with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
            memory.add_many([NewEntry("alpha keyword entry"), NewEntry("beta", "gotcha")])
        code = (
            "import sys;"
            "from fakes import FakeEmbedder;"
            "from engine.services.memory import Memory;"
            f"m = Memory.open({str(tmp_path)!r}, embedder=FakeEmbedder());"
            "assert len(m.search('alpha', mode='keyword').results) == 1;"
            "assert len(m.list()) == 2 and m.count() == 2 and m.stats()['entries'] == 2;"
            "print(sorted(x for x in ('lancedb', 'torch', 'sentence_transformers')"
            " if x in sys.modules))"
        )
        out = run_python(code)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "[]"


class TestCrashConsistency:
    def test_fresh_memory_is_consistent(self, memory: Memory) -> None:
        assert memory.last_repair is not None
        assert not memory.last_repair.changed
        reopened = reopen(memory)
        assert reopened.last_repair is None  # nothing pending: no repair, no store access
        reopened.close()

    def test_crash_between_store_and_mirror_on_add(
        self, memory: Memory, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        kept = memory.add("written before the crash").entry

        def crash(*args: object, **kwargs: object) -> None:
            raise RuntimeError("killed before the mirror was updated")

        monkeypatch.setattr(parts_of(memory).mirror, "upsert", crash)
        with pytest.raises(RuntimeError):
            memory.add("written to the store only")
        assert len(from_the_store(memory)) == 2
        assert list(shown(memory)) == [kept.id]
        reopened = reopen(memory)
        try:
            assert reopened.last_repair is not None
            assert (reopened.last_repair.added, reopened.last_repair.removed) == (1, 0)
            assert_shown_as_stored(reopened)
            assert reopened.get(kept.id) == kept
            hits = reopened.search("store only", mode="keyword").results
            assert hits[0].entry.content == "written to the store only"
            # The repaired entry deduplicates again.
            assert not reopened.add("written to the store only").created
            reopened = reopen(reopened)
            assert reopened.last_repair is None  # the repair cleared the pending mark
        finally:
            reopened.close()

    def test_crash_between_store_and_mirror_on_delete(
        self, memory: Memory, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        a = memory.add("to be deleted").entry
        memory.add("to be kept")

        def crash(*args: object, **kwargs: object) -> None:
            raise RuntimeError("killed")

        monkeypatch.setattr(parts_of(memory).mirror, "delete", crash)
        with pytest.raises(RuntimeError):
            memory.delete(a.id)
        reopened = reopen(memory)
        try:
            assert reopened.last_repair is not None
            assert reopened.last_repair.removed == 1
            assert reopened.get(a.id) is None
            assert_shown_as_stored(reopened)
        finally:
            reopened.close()

    def test_failed_reference_count_changes_nothing(
        self, memory: Memory, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        a = memory.add("referenced").entry
        counted = parts_of(memory).mirror.count_references

        def count_then_fail(db: object, counts: object) -> None:
            counted(db, counts)  # type: ignore[arg-type]
            raise OSError("disk full")

        with monkeypatch.context() as patch:
            patch.setattr(parts_of(memory).mirror, "count_references", count_then_fail)
            memory.referenced([a.id])  # bookkeeping: logged, never raised
        assert memory.require(a.id).reference_count == 0  # the transaction rolled back whole
        reopened = reopen(memory)
        try:
            assert reopened.require(a.id).reference_count == 0
            reopened.compact()  # hands any waiting count to the store: none waits
            assert from_the_store(reopened)[a.id].reference_count == 0
            assert_shown_as_stored(reopened)
        finally:
            reopened.close()

    def test_process_killed_after_the_store_write(self, memory: Memory) -> None:
        # What a writer killed mid-way leaves behind: pending set, store ahead of the mirror.
        ghost = Entry(
            id="ghost",
            content="entry whose writer died",
            created_at="2025-01-01T00:00:00+00:00",
            updated_at="2025-01-01T00:00:00+00:00",
            content_hash=content_hash("entry whose writer died"),
        )
        memory.add("normal entry")
        parts_of(memory).mirror.mark_pending()
        parts_of(memory).store().add(
            [ghost], parts_of(memory).embedder.embed_documents([ghost.content])
        )
        reopened = reopen(memory)
        try:
            assert reopened.get("ghost") == ghost
            assert_shown_as_stored(reopened)
        finally:
            reopened.close()

    def test_later_write_does_not_hide_an_earlier_crash(
        self, memory: Memory, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        with monkeypatch.context() as patch:
            patch.setattr(
                parts_of(memory).mirror, "upsert", lambda *a, **k: (_ for _ in ()).throw(OSError)
            )
            with pytest.raises(OSError):
                memory.add("lost from the mirror")
        memory.add("a later, successful write")
        reopened = reopen(memory)
        try:
            assert_shown_as_stored(reopened)
        finally:
            reopened.close()

    def test_deleted_index_is_rebuilt_from_the_store(self, memory: Memory) -> None:
        entries = [r.entry for r in memory.add_many([NewEntry(f"entry {i}") for i in range(25)])]
        memory.referenced([entries[0].id])
        memory.close()  # hands the reference count to the store
        for suffix in ("", "-wal", "-shm"):
            Path(str(memory.paths.fts_path) + suffix).unlink(missing_ok=True)
        reopened = Memory.open(memory.paths.root, embedder=FakeEmbedder())
        try:
            assert reopened.count() == 25
            assert reopened.last_repair is not None
            assert reopened.last_repair.added == 25
            assert_shown_as_stored(reopened)
            assert reopened.require(entries[0].id).reference_count == 1
            assert len(reopened.search("entry", mode="keyword", limit=100).results) == 25
        finally:
            reopened.close()

    def test_corrupt_index_is_rebuilt_from_the_store(self, memory: Memory) -> None:
        memory.add_many([NewEntry(f"entry {i}") for i in range(5)])
        memory.close()
        memory.paths.fts_path.write_bytes(os.urandom(8192))
        for suffix in ("-wal", "-shm"):
            Path(str(memory.paths.fts_path) + suffix).unlink(missing_ok=True)
        reopened = Memory.open(memory.paths.root, embedder=FakeEmbedder())
        try:
            assert reopened.count() == 5
            assert_shown_as_stored(reopened)
        finally:
            reopened.close()

    def test_rebuild_index(self, memory: Memory) -> None:
        memory.add_many([NewEntry(f"entry {i}") for i in range(3)])
        with parts_of(memory).mirror.transaction() as db:
            parts_of(memory).mirror.clear(db)
        assert parts_of(memory).records.rebuild_index() == 3
        assert_shown_as_stored(memory)

    def test_repair_index_on_demand(self, memory: Memory) -> None:
        memory.add_many([NewEntry(f"entry {i}") for i in range(3)])
        with parts_of(memory).mirror.transaction() as db:
            parts_of(memory).mirror.delete(db, [memory.list()[0].id])
        report = parts_of(memory).records.repair_index()
        assert (report.added, report.removed) == (1, 0)
        assert not parts_of(memory).records.repair_index().changed


class TestConcurrency:
    def test_threads_adding_through_one_memory(self, memory: Memory) -> None:
        errors: list[BaseException] = []

        def writer(n: int) -> None:
            try:
                for i in range(5):
                    memory.add(f"thread {n} note {i}")
                    memory.search(f"thread {n}", mode=SearchMode.HYBRID)
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert errors == []
        assert memory.count() == 15
        assert len(from_the_store(memory)) == 15
        assert_shown_as_stored(memory)

    def test_separate_memories_on_one_project(self, tmp_path: Path) -> None:
        """Like separate processes: own connections, shared files, the flock serialises."""
        Memory.open(tmp_path, embedder=FakeEmbedder()).close()
        errors: list[BaseException] = []
        start = threading.Barrier(3)

        def writer(n: int) -> None:
            try:
                with Memory.open(tmp_path, embedder=FakeEmbedder()) as mine:
                    start.wait(timeout=30)
                    mine.add("the same note from every writer")
                    mine.add_many([NewEntry(f"writer {n} note {i}") for i in range(4)])
                    mine.referenced([e.id for e in mine.list(limit=2)])
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert errors == []
        with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
            assert memory.last_repair is None
            assert memory.count() == 13  # 3 x 4 distinct + 1 shared, never duplicated
            assert len(from_the_store(memory)) == 13
            assert_shown_as_stored(memory)
            total_refs = sum(e.reference_count for e in memory.list())
            assert total_refs == 6
