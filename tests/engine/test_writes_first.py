"""Writes first: while this process writes an add, its searches wait between their steps
(engine/search/writes_first.py), at most ``max_wait`` at each, and never when no add is
in progress."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from engine.core.writes_first import WritesFirst
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage.record_store import RecordStore


@pytest.fixture
def held_commit(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """The next store commit signals ``entered`` and waits for ``release``."""
    entered, release = threading.Event(), threading.Event()
    real_add = RecordStore.add

    def add(self: RecordStore, entries: Any, vectors: Any) -> None:
        entered.set()
        assert release.wait(30), "the test never released the commit"
        real_add(self, entries, vectors)

    monkeypatch.setattr(RecordStore, "add", add)
    return entered, release


def _in_thread(work: Any) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(work()), daemon=True)
    thread.start()
    return thread, out


def test_a_search_waits_for_the_add_in_progress(
    memory: Memory, held_commit: tuple[threading.Event, threading.Event]
) -> None:
    entered, release = held_commit
    release.set()
    memory.add("the deploy needs the VPN on port 8443")  # the store exists
    release.clear()
    entered.clear()
    parts_of(memory).writes_first.max_wait = 30.0
    adding, added = _in_thread(lambda: memory.add("the billing queue retries three times"))
    assert entered.wait(30)
    assert parts_of(memory).writes_first.writing_now == 1
    searching, found = _in_thread(lambda: memory.search("deploy VPN", mode="hybrid"))
    searching.join(0.5)
    assert searching.is_alive() and not found  # stepped aside for the add
    release.set()
    adding.join(30)
    searching.join(30)
    assert added[0].created
    assert [r.entry.content for r in found[0].results][:1] == [
        "the deploy needs the VPN on port 8443"
    ]
    assert parts_of(memory).writes_first.writing_now == 0


def test_a_search_waits_at_most_max_wait_at_a_step(
    memory: Memory, held_commit: tuple[threading.Event, threading.Event]
) -> None:
    entered, release = held_commit
    release.set()
    memory.add("the deploy needs the VPN on port 8443")
    release.clear()
    entered.clear()
    parts_of(memory).writes_first.max_wait = 0.01
    adding, _ = _in_thread(lambda: memory.add("the billing queue retries three times"))
    assert entered.wait(30)
    searching, found = _in_thread(lambda: memory.search("deploy VPN", mode="keyword"))
    searching.join(30)
    assert not searching.is_alive() and found[0].results  # answered with the add still held
    assert parts_of(memory).writes_first.writing_now == 1
    release.set()
    adding.join(30)


def test_an_add_that_fails_is_no_longer_in_progress(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory.add("the deploy needs the VPN on port 8443")

    def broken(*args: Any) -> None:
        raise RuntimeError("the near-duplicate check broke")

    monkeypatch.setattr("engine.services.adding.find_near_duplicate", broken)
    with pytest.raises(RuntimeError, match="near-duplicate"):
        memory.add("the billing queue retries three times")
    assert parts_of(memory).writes_first.writing_now == 0
    assert memory.search("deploy VPN", mode="keyword").results  # searches do not wait


def test_step_aside_returns_at_once_with_no_add_and_after_the_last_one() -> None:
    first = WritesFirst(max_wait=30.0)
    assert first.step_aside() == 0.0
    writing = first.writing()
    writing.__enter__()
    waiter, waited = _in_thread(first.step_aside)
    waiter.join(0.2)
    assert waiter.is_alive()
    with first.writing():  # a second add: the search waits for both
        writing.__exit__(None, None, None)
        waiter.join(0.2)
        assert waiter.is_alive()
    waiter.join(30)
    assert not waiter.is_alive() and waited[0] > 0
