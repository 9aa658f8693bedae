"""Two-phase indexing on real LanceDB and SQLite (fake embedder): the first phase makes
every chunk searchable by keyword, the second gives each its vector, resumably; hybrid
search says which results it judged by their keywords alone."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from fakes import FakeEmbedder
from read_back import store_alone
from search_oracles import wait_until

from engine.core.errors import LockTimeoutError
from engine.core.models import SearchMode, Source
from engine.search.gate import VECTOR_PENDING
from engine.services.embedding_backlog import EmbeddingBacklog
from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.services.watch import FileChange, KnowledgeWatcher


def write_corpus(root: Path, files: int = 6) -> None:
    folder = root / ".claude" / "knowledge"
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(files):
        (folder / f"topic{n}.md").write_text(
            f"# Topic {n}\n\nThe quokka{n} lives on islands and eats leaves{n}.\n\n"
            f"## Care\n\nFeed the wombat{n} carrots twice a day.\n",
            encoding="utf-8",
        )


def store_state(memory: Memory) -> tuple[int, int, set[str]]:
    """(entries in the store, entries there still waiting for their vector, their ids),
    read back from the store of record alone."""
    with store_alone(memory) as fresh:
        ids = {entry.id for entry in fresh.list()}
        return len(ids), fresh.vectors_waiting(), ids


@pytest.fixture
def embedder() -> FakeEmbedder:
    return FakeEmbedder()


@pytest.fixture
def mem(tmp_path: Path, embedder: FakeEmbedder) -> Memory:
    write_corpus(tmp_path)
    memory = Memory.open(tmp_path, embedder=embedder)
    yield memory
    memory.close()


def test_the_first_phase_makes_every_chunk_keyword_searchable_without_the_model(
    mem: Memory, embedder: FakeEmbedder
) -> None:
    report = Indexer(mem).run(embed=False)

    assert report.entries_created == 12 and report.pending == 12
    assert embedder.texts_embedded == 0  # the model never ran
    assert mem.vectors_waiting() == 12
    assert store_state(mem)[:2] == (12, 12)  # rows in the store, placeholders as vectors
    assert mem.search("quokka3", mode="keyword").results
    assert mem.search("quokka3", mode="vector").results == ()


def test_hybrid_search_keeps_unembedded_entries_on_their_keywords_and_says_so(
    mem: Memory,
) -> None:
    Indexer(mem).run(embed=False)

    # "quokka3 penguin": the entry contains only one of the two terms, so the gate would
    # drop it if it had to judge by terms; with no vector yet its keyword match decides.
    response = mem.search("quokka3 penguin", mode="hybrid")

    assert response.used is SearchMode.HYBRID
    [result] = [r for r in response.results if "quokka3" in r.entry.content]
    assert result.explanation.gate == VECTOR_PENDING
    assert result.explanation.vector_rank is None
    assert result.explanation.vector_similarity is None
    assert result.explanation.keyword_rank is not None

    Indexer(mem).run()  # the second phase: the same search now has the vector half
    after = mem.search("quokka3 islands leaves3", mode="hybrid").results
    assert after and after[0].explanation.gate != VECTOR_PENDING
    assert after[0].explanation.vector_rank is not None
    assert all(r.explanation.gate != VECTOR_PENDING for r in after)


def test_the_second_phase_embeds_each_entry_once_and_vector_search_finds_all(
    mem: Memory, embedder: FakeEmbedder
) -> None:
    Indexer(mem).run(embed=False)
    report = Indexer(mem).run()

    assert report.pending == 0 and report.embedded == 12
    assert embedder.texts_embedded == 12
    rows, placeholders, ids = store_state(mem)
    assert (rows, placeholders) == (12, 0)
    assert ids == {e.id for e in mem.list()}
    for entry in mem.list():
        found = mem.search(entry.content, mode="vector", limit=1).results
        assert found and found[0].entry.id == entry.id


def test_text_already_in_the_embedding_cache_never_waits(mem: Memory) -> None:
    Indexer(mem).run()
    report = Indexer(mem).run(force=True, embed=False)  # re-chunks every file

    assert report.pending == 0
    assert mem.vectors_waiting() == 0


def test_an_entry_deleted_while_it_waits_is_not_brought_back(mem: Memory) -> None:
    Indexer(mem).run(embed=False)
    victim = mem.list()[0]
    batch = parts_of(mem).mirror.unembedded(100)
    parts_of(mem).entries.delete_many([victim.id])

    written = EmbeddingBacklog(parts_of(mem).records, parts_of(mem).embedder).embed(batch)

    assert written == 11
    assert mem.get(victim.id) is None
    assert victim.id not in store_state(mem)[2]
    assert mem.vectors_waiting() == 0


def test_new_content_written_by_update_is_embedded_and_no_longer_waits(mem: Memory) -> None:
    Indexer(mem).run(embed=False)
    entry = mem.list()[0]
    assert mem.vectors_waiting() == 12

    mem.update(entry.id, content="Ostriches run fast across the savanna.")

    assert mem.vectors_waiting() == 11
    assert mem.search("ostriches savanna", mode="vector").results[0].entry.id == entry.id


def test_marks_are_rebuilt_from_the_store_when_the_keyword_index_is_lost(
    tmp_path: Path, mem: Memory, embedder: FakeEmbedder
) -> None:
    folder = tmp_path / ".claude" / "knowledge"
    aside = tmp_path / "aside"
    aside.mkdir()
    for n in range(3):  # three files indexed with their vectors, three without
        (folder / f"topic{n}.md").rename(aside / f"topic{n}.md")
    Indexer(mem).run()
    for n in range(3):
        (aside / f"topic{n}.md").rename(folder / f"topic{n}.md")
    Indexer(mem).run(embed=False)
    assert mem.vectors_waiting() == 6
    mem.close()
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / ".claude" / "memory" / f"fts.sqlite{suffix}").unlink(missing_ok=True)

    reopened = Memory.open(tmp_path, embedder=embedder)
    try:
        assert reopened.count() == 12
        assert reopened.vectors_waiting() == 6  # the store's placeholders
        assert Indexer(reopened).run().pending == 0
        assert store_state(reopened)[1] == 0
    finally:
        reopened.close()


def test_a_batch_written_to_the_store_but_not_the_mirror_is_not_embedded_again(
    mem: Memory, embedder: FakeEmbedder
) -> None:
    """A writer killed between the store's commit and the mirror's: the next open repairs
    the marks from the store, so the batch that reached the store is done."""
    Indexer(mem).run(embed=False)
    batch = mem.list()[:4]  # all twelve wait for their vector
    vectors = embedder.embed_documents([e.content for e in batch])
    parts_of(mem).mirror.mark_pending()
    parts_of(mem).store().upsert(batch, vectors)  # ... and the process dies here

    root = mem.paths.root
    mem.close()
    reopened = Memory.open(root, embedder=embedder)
    try:
        assert reopened.vectors_waiting() == 8
        for entry in batch:  # its vector is there: a vector search finds it
            found = reopened.search(entry.content, mode="vector", limit=1).results
            assert [r.entry.id for r in found] == [entry.id]
    finally:
        reopened.close()


def test_a_stopped_run_leaves_the_rest_for_the_next(mem: Memory) -> None:
    Indexer(mem).run(embed=False)
    stop = threading.Event()
    backlog = EmbeddingBacklog(parts_of(mem).records, parts_of(mem).embedder, batch_size=5)

    report = backlog.run(progress=lambda done, total, _: stop.set(), stop=stop)

    assert (report.embedded, report.pending) == (5, 7)
    assert backlog.run().pending == 0
    assert store_state(mem)[1] == 0


def test_a_second_embedder_leaves_the_backlog_to_the_one_at_work(mem: Memory) -> None:
    Indexer(mem).run(embed=False)
    backlog = EmbeddingBacklog(parts_of(mem).records, parts_of(mem).embedder)
    other = EmbeddingBacklog(parts_of(mem).records, parts_of(mem).embedder)

    with other.lock.hold():
        report = backlog.run(wait=False)

    assert report.busy and report.embedded == 0 and report.pending == 12


def test_the_background_embedder_empties_the_backlog(mem: Memory) -> None:
    Indexer(mem).run(embed=False)
    worker = mem.background_embedder()
    worker.poll_seconds = 60
    worker.start()
    try:
        assert wait_until(lambda: worker.embedded == 12)
    finally:
        worker.stop(timeout=5)

    assert mem.vectors_waiting() == 0 and worker.embedded == 12
    assert not worker.running


def test_a_watched_edit_is_keyword_searchable_at_once_and_embedded_in_the_background(
    mem: Memory, tmp_path: Path
) -> None:
    Indexer(mem).run()
    watcher = KnowledgeWatcher(mem)
    rel = ".claude/knowledge/topic1.md"
    with (tmp_path / rel).open("a", encoding="utf-8") as f:
        f.write("\n## Edit\n\nThe platypus1 lays eggs.\n")

    watcher.apply([FileChange("modified", rel)])
    [hit] = mem.search("platypus1", mode="keyword").results
    assert mem.vectors_waiting() == 1  # the edit's new chunk
    waiting = mem.search("platypus1 eggs", mode="vector", min_score=-1, limit=50).results
    assert hit.entry.id not in {r.entry.id for r in waiting}

    watcher.embedder.start()
    try:
        assert wait_until(lambda: watcher.embedder.embedded >= 1)
        assert wait_until(lambda: mem.vectors_waiting() == 0)
    finally:
        watcher.embedder.stop(timeout=5)
    assert mem.search("platypus1 eggs", mode="vector").results[0].entry.id == hit.entry.id
    assert mem.count(source=Source.MARKDOWN) == 13


def test_placeholders_are_never_returned_by_a_vector_search(
    tmp_path: Path, embedder: FakeEmbedder
) -> None:
    write_corpus(tmp_path, files=2)
    with Memory.open(tmp_path, embedder=embedder) as memory:
        Indexer(memory).run()
        memory.search("warm", mode="vector")
        (tmp_path / ".claude/knowledge/extra.md").write_text("# Extra\n\nA kiwi bird.\n")
        Indexer(memory).run(embed=False)

        found = memory.search("kiwi bird", mode="vector", limit=50, min_score=-1).results
        assert len(found) == 4  # every entry with its vector, none of the placeholder
        assert all("kiwi" not in r.entry.content for r in found)
        Indexer(memory).run()
        assert "kiwi" in memory.search("kiwi bird", mode="vector").results[0].entry.content
        assert store_state(memory)[:2] == (5, 0)  # no placeholder left in the store


def test_a_foreground_run_that_waits_too_long_for_another_embedder_says_so(
    mem: Memory,
) -> None:
    Indexer(mem).run(embed=False)
    backlog = EmbeddingBacklog(parts_of(mem).records, parts_of(mem).embedder)
    backlog.lock.timeout = 0.2
    other = EmbeddingBacklog(parts_of(mem).records, parts_of(mem).embedder)

    with other.lock.hold(), pytest.raises(LockTimeoutError) as caught:
        backlog.run()

    assert "embed.lock" in caught.value.message and "memory is busy" in caught.value.message
    assert mem.vectors_waiting() == 12  # nothing half done
