"""A hybrid search's two halves side by side in one thread (issue 49): the nearest query
is begun on LanceDB's runtime (:class:`engine.storage.lance_search.Underway`) and takes
its next steps while SQLite ranks by keyword (the read connection's progress handler)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fakes import FakeEmbedder

from engine.search.keyword import KeywordSearcher
from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage import lance_search
from engine.storage.lance_search import Underway, started
from engine.storage.mirror import EntryMirror
from engine.storage.mirror_reader import ReadConnection

LONG = (
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000)"
    " SELECT count(*) FROM n"
)
"""A statement of a few million virtual-machine instructions."""


async def turns(done: list[int], count: int) -> str:
    """A read that needs ``count`` turns of its loop, noting each."""
    for n in range(count):
        await asyncio.sleep(0)
        done.append(n)
    return "answered"


def test_a_read_moves_on_only_where_it_is_given_a_turn() -> None:
    done: list[int] = []
    pending = started(turns(done, 3))
    assert done == []  # begun up to its first wait, no further
    pending.step()
    assert done == [0]
    assert pending.result() == "answered"
    assert done == [0, 1, 2]
    pending.step()  # after its answer: nothing to do, no error
    pending.close()


def test_a_read_given_turns_during_a_long_statement_is_answered_by_its_end(
    tmp_path: Path,
) -> None:
    sqlite3.connect(tmp_path / "fts.sqlite").close()
    reader = ReadConnection(tmp_path / "fts.sqlite", 1.0)
    done: list[int] = []
    pending = started(turns(done, 5))
    steps: list[int] = []

    def between() -> None:
        steps.append(1)
        pending.step()

    assert reader.read(LONG, (), between) == [(200000,)]
    assert len(steps) > 5  # before the statement, then every STEP_INSTRUCTIONS
    assert done == [0, 1, 2, 3, 4]  # its turns came while SQLite counted
    assert pending.result() == "answered"
    given = len(steps)
    # the connection no longer calls it: a later statement runs without turns
    assert reader.read(LONG, ()) == [(200000,)]
    assert len(steps) == given


def test_a_turn_that_fails_does_not_abort_the_statement(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    sqlite3.connect(tmp_path / "fts.sqlite").close()
    reader = ReadConnection(tmp_path / "fts.sqlite", 1.0)
    calls: list[int] = []

    def failing() -> None:
        calls.append(1)
        if len(calls) > 1:  # the first call, before the statement, passes
            raise RuntimeError("loop gone")

    assert reader.read(LONG, (), failing) == [(200000,)]
    assert reader.is_open  # the read connection was not given up
    assert "loop gone" in caplog.text


def test_a_read_given_up_is_cancelled_and_leaves_no_loop_open() -> None:
    done: list[int] = []
    pending = started(turns(done, 3))
    pending.close()
    with pytest.raises(asyncio.CancelledError):
        pending.result()
    assert done == []


def test_a_read_already_answered_needs_no_turn() -> None:
    pending = Underway.ready([("a", 0.5)]).then(lambda hits: [h[0] for h in hits])
    pending.step()
    assert pending.result() == ["a"]


def test_hybrid_search_begins_its_nearest_query_before_ranking_by_keyword(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many(
            [NewEntry(f"gearbox oil note {n} about zeppelin hangars") for n in range(30)]
        )
        memory.search("warm up", mode="hybrid")
        order: list[str] = []
        real_start = lance_search.started
        real_ranked = EntryMirror.ranked_ids
        given: list[Any] = []

        def start(*args: Any) -> Underway[Any]:
            order.append("nearest begun")
            pending = real_start(*args)
            given.append(pending.step)
            return pending

        def ranked(self: EntryMirror, query: Any, between: Any = None) -> Any:
            order.append("keyword ranked")
            assert between is given[0]  # the ranking gives the query its turns
            return real_ranked(self, query, between)

        monkeypatch.setattr(lance_search, "started", start)
        monkeypatch.setattr(EntryMirror, "ranked_ids", ranked)
        hits = memory.search("gearbox zeppelin", mode="hybrid", limit=5).results
    assert order[:2] == ["nearest begun", "keyword ranked"]
    assert hits and all(r.explanation.vector_similarity is not None for r in hits)


def test_a_hybrid_search_interrupted_while_ranking_leaves_its_query_given_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(f"gearbox oil note {n}") for n in range(10)])
        memory.search("warm up", mode="hybrid")
        begun: list[Underway[Any]] = []
        real_start = lance_search.started

        def start(*args: Any) -> Underway[Any]:
            begun.append(real_start(*args))
            return begun[-1]

        def interrupted(*args: Any, **kwargs: Any) -> Any:
            raise KeyboardInterrupt

        monkeypatch.setattr(lance_search, "started", start)
        monkeypatch.setattr(KeywordSearcher, "ranks", interrupted)
        with pytest.raises(KeyboardInterrupt):
            memory.search("gearbox oil", mode="hybrid")
        assert len(begun) == 1
        with pytest.raises(asyncio.CancelledError):
            begun[0].result()  # given up: cancelled, its loop closed
        monkeypatch.undo()
        # the memory still searches
        assert memory.search("gearbox oil", mode="hybrid").results
        assert parts_of(memory).records.mirror.count() == 10


def test_a_batch_whose_entries_cannot_be_read_gives_its_vector_read_up() -> None:
    from engine.search.gate import gate_candidates
    from engine.search.scoring import QueryWeights

    begun: list[Underway[Any]] = []

    def similarities(_qvec: Any, _batch: Any) -> Underway[dict[str, float]]:
        begun.append(started(turns([], 3)))
        return begun[-1]

    def unreadable(_batch: Any, _between: Any) -> list[Any]:
        raise RuntimeError("mirror gone")

    query = QueryWeights(("gearbox",), {"gearbox": 1.0}, None, frozenset())
    qvec = np.zeros(4, dtype=np.float32)
    with pytest.raises(RuntimeError, match="mirror gone"):
        gate_candidates(
            query, qvec, ["a", "b"], unreadable, 5, min_score=0.0, similarities=similarities
        )
    assert len(begun) == 1
    with pytest.raises(asyncio.CancelledError):
        begun[0].result()  # given up: cancelled, its loop closed
