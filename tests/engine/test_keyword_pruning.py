"""Keyword search in a large memory leaves unscored the rows that hold only terms too
common to reach the best hits, and ranks exactly as scoring every row does (issue 38:
FTS5 scores every row matching any term of a query before its LIMIT)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from fakes import FakeEmbedder

from engine.search import keyword as keyword_module
from engine.search.keyword import KeywordHit
from engine.search.query import Query
from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.services.parts import parts_of
from engine.storage.mirror import EntryMirror

FILLER = [
    "lorem",
    "ipsum",
    "dolor",
    "sit",
    "amet",
    "consectetur",
    "adipiscing",
    "elit",
    "sed",
    "eiusmod",
    "tempor",
]


def texts(seed: int) -> list[str]:
    """600 notes: "zeppelin" in 12 (once or three times), "gearbox" in 60 (4 of them
    with "zeppelin" too), filler words of varied lengths around them."""
    rng = random.Random(seed)
    out = []
    for n in range(600):
        words = [*rng.sample(FILLER, rng.randint(3, 10)), f"note{n}"]
        if n < 12:
            words += ["zeppelin"] * (3 if n % 2 == 0 else 1)
        if 8 <= n < 68:
            words += ["gearbox"] * (1 + n % 3)
        rng.shuffle(words)
        out.append(" ".join(words))
    return out


@pytest.fixture
def memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Memory]:
    monkeypatch.setattr(keyword_module, "COMMON_TERM_MIN_ENTRIES", 100)
    with Memory.open(tmp_path, embedder=FakeEmbedder()) as memory:
        memory.add_many([NewEntry(t) for t in texts(38)])
        yield memory


def statements(mirror: EntryMirror, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The SQL and parameters of every read of the mirror from now on."""
    seen: list[str] = []
    real = mirror._read

    def read(sql: str, params: object = ()) -> list[object]:
        seen.append(" ".join([sql, *map(str, params)]))  # type: ignore[call-overload]
        return real(sql, params)  # type: ignore[arg-type]

    monkeypatch.setattr(mirror, "_read", read)
    return seen


def ranking(hits: list[KeywordHit]) -> list[tuple[str, float]]:
    return [(h.entry.id, h.bm25) for h in hits]


@pytest.mark.parametrize(("limit", "phrases"), [(3, False), (5, False), (5, True)])
def test_rows_holding_only_a_common_term_go_unscored_and_the_ranking_stays(
    memory: Memory, monkeypatch: pytest.MonkeyPatch, limit: int, phrases: bool
) -> None:
    keyword = parts_of(memory).searcher.keyword
    query = Query.parse("zeppelin gearbox")
    monkeypatch.setattr(keyword_module, "COMMON_TERM_MIN_ENTRIES", 10**9)
    whole = keyword.search(query, limit, phrases=phrases)  # every row scored
    monkeypatch.setattr(keyword_module, "COMMON_TERM_MIN_ENTRIES", 100)
    monkeypatch.setattr(keyword_module, "PHRASE_POOL", 5)
    seen = statements(keyword.mirror, monkeypatch)
    pruned = keyword.search(query, limit, phrases=phrases)
    assert ranking(pruned) == ranking(whole)
    assert len(pruned) == limit
    assert any('NOT (("gearbox") NOT ("zeppelin"))' in s for s in seen)


def test_a_bound_not_met_ranks_the_whole_query(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The 12 rows holding the rare term cannot fill 20 places: rows holding only the
    common one are ranked too, as before."""
    keyword = parts_of(memory).searcher.keyword
    query = Query.parse("zeppelin gearbox")
    monkeypatch.setattr(keyword_module, "COMMON_TERM_MIN_ENTRIES", 10**9)
    whole = keyword.search(query, 20, phrases=False)
    monkeypatch.setattr(keyword_module, "COMMON_TERM_MIN_ENTRIES", 100)
    seen = statements(keyword.mirror, monkeypatch)
    pruned = keyword.search(query, 20, phrases=False)
    assert ranking(pruned) == ranking(whole)
    assert not any("NOT" in s for s in seen)  # 12 rows could not fill 20: not even tried
    assert sum("zeppelin" not in h.entry.content for h in pruned) == 8
