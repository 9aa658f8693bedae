"""The server's one writer (app/mcp/writer.py): the adds of many sessions at once, over the
streamable HTTP server and the SDK's client, are all stored and written in batches, and
searches answer while an add is being written; each add refused in a batch is refused
alone, and a closing server writes what it was handed."""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp_helpers import call, serving

from app.mcp.server import MemoryServer
from app.mcp.writer import Writer
from engine import AddResult, InvalidInputError, Memory, NewEntry, add_together

SESSIONS = 8


class HeldWriter(Writer):
    """A writer whose first batch waits for :attr:`release`: the adds arriving meanwhile
    queue behind it. Counts the adds handed to it."""

    def __init__(self) -> None:
        super().__init__(self._held_add_together)
        self.holding = threading.Event()
        self.release = threading.Event()
        self._arrivals = threading.Semaphore(0)

    def _held_add_together(self, memory: Memory, items: Sequence[NewEntry]) -> list[AddResult]:
        if not self.holding.is_set():
            self.holding.set()
            assert self.release.wait(30)
        return add_together(memory, items)

    def add(self, memory: Memory, item: NewEntry) -> AddResult:
        self._arrivals.release()
        return super().add(memory, item)

    def wait_for_arrivals(self, count: int) -> None:
        for _ in range(count):
            assert self._arrivals.acquire(timeout=30)
        threading.Event().wait(0.2)  # from the count to the queue


async def test_many_sessions_adding_and_searching_lose_nothing_and_adds_are_batched(
    server: MemoryServer, memory: Memory
) -> None:
    known = memory.add("The deploy pipeline runs on Fridays").entry.id
    writer = server.state.writer = HeldWriter()
    added: dict[int, dict[str, Any]] = {}
    found: list[str] = []

    async def add(client: Client, n: int) -> None:
        added[n] = await call(client, "memory_add", content=f"session {n} learned fact {n}")

    async def search(client: Client) -> None:
        result = await call(client, "memory_search", query="deploy pipeline", mode="keyword")
        assert not writer.release.is_set()  # answered while the first add was held
        found.extend(r["id"] for r in result["results"])

    async with serving(server) as url, contextlib.AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(Client(url, cache=None)) for _ in range(SESSIONS)
        ]
        async with anyio.create_task_group() as sessions:
            sessions.start_soon(add, clients[0], 0)
            await anyio.to_thread.run_sync(writer.holding.wait)
            for n, client in enumerate(clients):
                if n:
                    sessions.start_soon(add, client, n)
            async with anyio.create_task_group() as searches:
                for client in clients:
                    searches.start_soon(search, client)
            await anyio.to_thread.run_sync(writer.wait_for_arrivals, SESSIONS)
            writer.release.set()
    assert found == [known] * SESSIONS
    assert sorted(added) == list(range(SESSIONS))
    assert all(a["created"] for a in added.values())
    for n, answer in added.items():
        entry = memory.get(answer["id"])
        assert entry is not None and entry.content == f"session {n} learned fact {n}"
    assert writer.adds == SESSIONS
    assert writer.batches < SESSIONS  # the adds that waited were written together
    assert memory.count() == SESSIONS + 1


def _in_threads(count: int, work: Callable[[int], AddResult]) -> list[AddResult | BaseException]:
    """``work(n)`` for n in range(count), each in a thread; its result or exception."""
    out: list[AddResult | BaseException] = [RuntimeError("not run")] * count

    def run(n: int) -> None:
        try:
            out[n] = work(n)
        except BaseException as exc:
            out[n] = exc

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return out


def test_an_add_refused_in_a_batch_is_refused_alone(memory: Memory) -> None:
    memory.add("an entry before the others: the store exists")
    writer = HeldWriter()
    texts = ["first", "fine note one", "   ", "fine note two"]

    def add(n: int) -> AddResult:
        if n:
            writer.holding.wait(30)
        return writer.add(memory, NewEntry(texts[n]))

    def release_when_all_arrived() -> None:
        writer.wait_for_arrivals(len(texts))
        writer.release.set()

    releaser = threading.Thread(target=release_when_all_arrived)
    releaser.start()
    outcomes = _in_threads(len(texts), add)
    releaser.join(60)
    writer.close()
    refused = outcomes.pop(2)
    assert isinstance(refused, InvalidInputError)
    assert all(isinstance(r, AddResult) and r.created for r in outcomes)
    assert memory.count() == 4
    # the first alone, the other three together (refused), then each of them alone
    assert writer.batches == 5 and writer.adds == 4


def test_a_failure_of_any_kind_answers_the_add_and_the_writer_goes_on(memory: Memory) -> None:
    class Stop(BaseException):
        pass

    calls: list[int] = []

    def failing_once(mem: Memory, items: Sequence[NewEntry]) -> list[AddResult]:
        calls.append(len(items))
        if len(calls) == 1:
            raise Stop
        return add_together(mem, items)

    writer = Writer(failing_once)
    with pytest.raises(Stop):
        writer.add(memory, NewEntry("lost to the failure"))
    assert writer.add(memory, NewEntry("stored after it")).created
    writer.close()
    assert memory.count() == 1


def test_closing_writes_what_was_handed_over_then_refuses(
    memory: Memory, caplog: pytest.LogCaptureFixture
) -> None:
    Writer().close()  # never started: nothing to wait for
    writer = HeldWriter()
    results: list[AddResult] = []
    adder = threading.Thread(
        target=lambda: results.append(writer.add(memory, NewEntry("handed over before closing")))
    )
    adder.start()
    assert writer.holding.wait(30)
    with caplog.at_level(logging.WARNING, logger="memory_tui.mcp"):
        writer.close(timeout=0.1)  # the held batch outlasts the wait: said, not lost
    assert "still being written" in caplog.text
    writer.release.set()
    adder.join(30)
    assert results and results[0].created
    assert memory.get(results[0].entry.id) is not None
    with pytest.raises(RuntimeError, match="closing"):
        writer.add(memory, NewEntry("too late"))


async def test_searches_run_a_few_at_a_time_and_an_add_does_not_wait_for_them(
    server: MemoryServer, memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 49: sixteen sessions searching at once each took their turn with the writer;
    the server runs ``searches_at_once`` of them and the rest wait, while an add passes."""
    known = memory.add("The deploy pipeline runs on Fridays").entry.id
    server.state.writer = Writer(searches_at_once=2)
    inside = threading.Semaphore(0)
    release = threading.Event()
    running = [0, 0]  # now, most at once
    counting = threading.Lock()
    real = memory.search

    def held(*args: Any, **kwargs: Any) -> Any:
        with counting:
            running[0] += 1
            running[1] = max(running)
        inside.release()
        try:
            assert release.wait(30)
            return real(*args, **kwargs)
        finally:
            with counting:
                running[0] -= 1

    monkeypatch.setattr(memory, "search", held)
    found: list[str] = []

    async def search(client: Client) -> None:
        result = await call(client, "memory_search", query="deploy pipeline", mode="keyword")
        found.extend(r["id"] for r in result["results"])

    async with serving(server) as url, contextlib.AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(Client(url, cache=None)) for _ in range(SESSIONS)
        ]
        async with anyio.create_task_group() as searches:
            for client in clients[1:]:
                searches.start_soon(search, client)
            for _ in range(2):
                assert await anyio.to_thread.run_sync(inside.acquire, True, 30)
            added = await call(clients[0], "memory_add", content="added while they wait")
            assert added["created"] and not release.is_set()
            assert running == [2, 2]  # the other searches wait their turn
            release.set()
    assert found == [known] * (SESSIONS - 1)
    assert running == [0, 2]
