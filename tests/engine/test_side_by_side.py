"""A hybrid search's two halves side by side (issue 49): the nearest query is handed to
the store's read loop (:class:`engine.storage.lance_search.ReadLoop`, a thread of its
own) and runs while this thread ranks by keyword in SQLite."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from concurrent.futures import CancelledError
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fakes import FakeEmbedder

from engine.search.keyword import KeywordSearcher
from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage.lance_search import ReadLoop, SearchTable, Underway
from engine.storage.mirror import EntryMirror


async def gated(gate: threading.Event, done: list[str]) -> str:
    """A read that waits for ``gate`` (set by the caller's thread) without blocking its
    loop, then notes that it ran."""
    while not gate.is_set():
        await asyncio.sleep(0.001)
    done.append(threading.current_thread().name)
    return "answered"


async def where() -> threading.Thread:
    """The thread a read runs on."""
    return threading.current_thread()


def reads_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name == "memory-tui-reads"}


def test_a_read_runs_on_the_loop_thread_while_the_caller_works_on() -> None:
    loop = ReadLoop()
    gate, done = threading.Event(), []
    pending = loop.start(gated(gate, done))
    gate.set()  # the caller's work: the read could not finish before it
    assert pending.result() == "answered"
    assert done == ["memory-tui-reads"]
    assert pending.result() == "answered"  # asked again, the same answer
    loop.close()


def test_reads_from_many_threads_share_the_loop_and_do_not_queue() -> None:
    loop = ReadLoop()
    gate, done = threading.Event(), []
    first = loop.start(gated(gate, done))
    second = loop.start(gated(gate, done))  # begun while the first still waits
    gate.set()
    assert (first.result(), second.result()) == ("answered", "answered")
    loop.close()


def test_a_read_given_up_is_cancelled() -> None:
    loop = ReadLoop()
    gate, done = threading.Event(), []
    pending = loop.start(gated(gate, done))
    pending.close()
    with pytest.raises(CancelledError):
        pending.result()
    gate.set()
    loop.close()
    assert done == []


def test_a_closed_loop_stops_its_thread_and_a_later_read_starts_it_again() -> None:
    loop = ReadLoop()
    first = loop.start(where()).result()
    assert first is not threading.current_thread()
    loop.close()
    assert not first.is_alive()
    second = loop.start(where()).result()
    assert second is not first and second.is_alive()
    loop.close()
    assert not second.is_alive()


def test_a_read_already_answered_needs_no_loop() -> None:
    pending = Underway.ready([("a", 0.5)]).then(lambda hits: [h[0] for h in hits])
    assert pending.result() == ["a"]


def test_hybrid_search_begins_its_nearest_query_before_ranking_by_keyword(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = reads_threads()
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many(
            [NewEntry(f"gearbox oil note {n} about zeppelin hangars") for n in range(30)]
        )
        memory.search("warm up", mode="hybrid")
        order: list[str] = []
        real_start = SearchTable.start
        real_ranked = EntryMirror.ranked_ids

        def start(self: SearchTable, *args: Any) -> Underway[Any]:
            order.append("nearest begun")
            return real_start(self, *args)

        def ranked(self: EntryMirror, query: Any) -> Any:
            order.append("keyword ranked")
            return real_ranked(self, query)

        monkeypatch.setattr(SearchTable, "start", start)
        monkeypatch.setattr(EntryMirror, "ranked_ids", ranked)
        hits = memory.search("gearbox zeppelin", mode="hybrid", limit=5).results
    assert order[:2] == ["nearest begun", "keyword ranked"]
    assert hits and all(r.explanation.vector_similarity is not None for r in hits)
    assert not reads_threads() - before  # the memory closed its read loop


def test_a_hybrid_search_interrupted_while_ranking_leaves_its_query_given_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(f"gearbox oil note {n}") for n in range(10)])
        memory.search("warm up", mode="hybrid")
        begun: list[Underway[Any]] = []
        real_start = SearchTable.start

        def start(self: SearchTable, *args: Any) -> Underway[Any]:
            begun.append(real_start(self, *args))
            return begun[-1]

        def interrupted(*args: Any, **kwargs: Any) -> Any:
            raise KeyboardInterrupt

        monkeypatch.setattr(SearchTable, "start", start)
        monkeypatch.setattr(KeywordSearcher, "ranks", interrupted)
        with pytest.raises(KeyboardInterrupt):
            memory.search("gearbox oil", mode="hybrid")
        assert len(begun) == 1
        with contextlib.suppress(CancelledError):  # given up, unless answered already
            begun[0].result()
        monkeypatch.undo()
        # the memory still searches
        assert memory.search("gearbox oil", mode="hybrid").results
        assert parts_of(memory).records.mirror.count() == 10


def test_a_batch_whose_entries_cannot_be_read_gives_its_vector_read_up() -> None:
    from engine.search.gate import gate_candidates
    from engine.search.scoring import QueryWeights

    loop = ReadLoop()
    gate = threading.Event()
    begun: list[Underway[Any]] = []

    def similarities(_qvec: Any, _batch: Any) -> Underway[Any]:
        begun.append(loop.start(gated(gate, [])))
        return begun[-1]

    def unreadable(_batch: Any) -> list[Any]:
        raise RuntimeError("mirror gone")

    query = QueryWeights(("gearbox",), {"gearbox": 1.0}, None, frozenset())
    qvec = np.zeros(4, dtype=np.float32)
    with pytest.raises(RuntimeError, match="mirror gone"):
        gate_candidates(
            query, qvec, ["a", "b"], unreadable, 5, min_score=0.0, similarities=similarities
        )
    assert len(begun) == 1
    with pytest.raises(CancelledError):
        begun[0].result()  # given up: cancelled
    gate.set()
    loop.close()


def test_the_near_duplicate_query_of_adds_runs_in_the_adding_thread(tmp_path: Path) -> None:
    """The writer's check waits behind no search's read: no read loop is started for it."""
    before = reads_threads()
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(f"gearbox oil note {n}") for n in range(5)])
        asked: list[int] = []
        store = parts_of(memory).records.store()
        real = store.nearest_each

        def nearest_each(*args: Any, **kwargs: Any) -> Any:
            asked.append(1)
            return real(*args, **kwargs)

        store.nearest_each = nearest_each  # type: ignore[method-assign]
        memory.add("gearbox oil note 5, changed weekly")
        assert asked  # the check ran
        assert not reads_threads() - before


def test_adds_and_searches_from_a_coroutine_use_the_read_loop(tmp_path: Path) -> None:
    """A caller whose thread runs an event loop (one loop cannot run inside another)."""

    async def work(memory: Memory) -> int:
        memory.add_many([NewEntry(f"gearbox oil note {n}") for n in range(5)])
        memory.add("gearbox oil note 5, changed weekly")
        return len(memory.search("gearbox oil", mode="hybrid").results)

    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        assert asyncio.run(work(memory)) > 0
