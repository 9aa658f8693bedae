"""Concurrent adds of one process written in one commit: every add answered,
nothing lost, fewer store commits than adds, and each add's own error kept its own."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from engine.services.add_batch import AddBatcher
from engine.services.entries import AddResult, NewEntry
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage.record_store import RecordStore


def _at_once(count: int, work: Callable[[int], Any]) -> tuple[list[Any], list[BaseException]]:
    """``work(n)`` for n in range(count), in as many threads started together."""
    results: list[Any] = [None] * count
    errors: list[BaseException] = []
    start = threading.Barrier(count)

    def run(n: int) -> None:
        start.wait()
        try:
            results[n] = work(n)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, errors


@pytest.fixture
def slow_first_commit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first commit takes 0.3 s: the other adds arrive while it runs."""
    real_add = RecordStore.add
    calls = []

    def add(self: RecordStore, entries: Any, vectors: Any) -> None:
        calls.append(len(entries))
        if len(calls) == 1:
            threading.Event().wait(0.3)
        real_add(self, entries, vectors)

    monkeypatch.setattr(RecordStore, "add", add)


def test_sixteen_concurrent_adds_are_all_stored_in_fewer_commits(
    memory: Memory, slow_first_commit: None
) -> None:
    memory.add("an entry before the others: the store exists")
    commits = parts_of(memory).store().commits
    results, errors = _at_once(16, lambda n: memory.add(f"session {n} learned fact {n}"))
    assert errors == []
    assert all(r.created for r in results)
    assert len({r.entry.id for r in results}) == 16
    assert parts_of(memory).store().commits - commits < 16  # several adds per commit
    for n, result in enumerate(results):
        assert memory.get(result.entry.id) is not None
        found = memory.search(f"session {n} learned fact {n}", mode="keyword").results
        assert found and found[0].entry.id == result.entry.id
    assert parts_of(memory).store().count() == parts_of(memory).mirror.count() == 17


def test_the_same_text_added_at_once_is_stored_once(
    memory: Memory, slow_first_commit: None
) -> None:
    memory.add("an entry before the others: the store exists")
    results, errors = _at_once(6, lambda n: memory.add("the deploy needs the VPN"))
    assert errors == []
    assert len({r.entry.id for r in results}) == 1
    assert sum(r.created for r in results) == 1
    assert parts_of(memory).mirror.count() == 2


def test_an_add_that_fails_in_a_batch_fails_alone(memory: Memory) -> None:
    """The batch is written again one add at a time: the bad add gets its own error, the
    others are stored."""
    memory.add("an entry before the others: the store exists")
    entries = parts_of(memory).entries
    release = threading.Event()
    batches: list[int] = []

    def add_many(items: Any) -> list[AddResult]:
        batches.append(len(items))
        if len(batches) == 1:
            release.wait(5)  # the first batch of one holds the others back
        if any(p.entry.content == "the bad note" for p in items):
            raise OSError("the store refused it")
        return entries.add_prepared(items)

    batcher = AddBatcher(add_many)
    texts = ["first", *(f"fine note {n}" for n in range(4)), "the bad note"]

    def add(n: int) -> AddResult:
        if n > 0:
            while not batches:
                threading.Event().wait(0.01)
            release.set()
        (prepared,) = entries.prepare([NewEntry(texts[n])])
        return batcher.add(prepared)

    results, errors = _at_once(len(texts), add)
    assert [type(e) for e in errors] == [OSError]
    stored = [r for r in results if r is not None]
    assert len(stored) == len(texts) - 1 and all(r.created for r in stored)
    assert max(batches) > 1  # the others were batched, and the failed batch retried alone
    assert parts_of(memory).mirror.count() == len(texts)
