"""Keyword search leaves unscored the rows that hold only terms too common to reach the
best hits, and ranks exactly as scoring every row does (issue 38: FTS5 scores every row
matching any term of a query before its LIMIT), in memories of every size (issue 49:
600 entries here)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from fakes import FakeEmbedder

from engine.search import keyword as keyword_module
from engine.search.keyword import KeywordHit, KeywordSearcher
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
    """600 notes: "zeppelin" in 12 (once or three times), "gearbox" in 150 (4 of them
    with "zeppelin" too), "sprocket" in 60, filler words of varied lengths around them."""
    rng = random.Random(seed)
    out = []
    for n in range(600):
        words = [*rng.sample(FILLER, rng.randint(3, 10)), f"note{n}"]
        if n < 12:
            words += ["zeppelin"] * (3 if n % 2 == 0 else 1)
        if 8 <= n < 158:
            words += ["gearbox"] * (1 + n % 3)
        if 200 <= n < 260:
            words += ["sprocket"] * (1 + n % 3)
        rng.shuffle(words)
        out.append(" ".join(words))
    return out


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
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


def unpruned(keyword: KeywordSearcher, query: Query, limit: int, phrases: bool) -> list[KeywordHit]:
    """The search with every row matching a term scored (no frequencies given)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(KeywordSearcher, "_with_frequencies", lambda self, asked, *_: asked)
        return keyword.search(query, limit, phrases=phrases)


def ranking(hits: list[KeywordHit]) -> list[tuple[str, float]]:
    return [(h.entry.id, h.bm25) for h in hits]


@pytest.mark.parametrize(("limit", "phrases"), [(3, False), (5, False), (5, True)])
def test_rows_holding_only_a_common_term_go_unscored_and_the_ranking_stays(
    memory: Memory, monkeypatch: pytest.MonkeyPatch, limit: int, phrases: bool
) -> None:
    keyword = parts_of(memory).searcher.keyword
    query = Query.parse("zeppelin gearbox")
    monkeypatch.setattr(keyword_module, "PHRASE_POOL", 5)
    whole = unpruned(keyword, query, limit, phrases)
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
    whole = unpruned(keyword, query, 20, False)
    seen = statements(keyword.mirror, monkeypatch)
    pruned = keyword.search(query, 20, phrases=False)
    assert ranking(pruned) == ranking(whole)
    assert not any("NOT" in s for s in seen)  # 12 rows could not fill 20: not even tried
    assert sum("zeppelin" not in h.entry.content for h in pruned) == 8


def test_a_common_term_weighing_too_much_to_leave_out_is_not_tried(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The term "sprocket" (60 of 600 notes) bounds a row's score at more than half what
    "zeppelin" (12) does: the 100th best row would most likely score less, so leaving its
    rows out is not even tried (mirror_keyword.PRUNE_BOUND_SHARE); "gearbox" (150) is."""
    keyword = parts_of(memory).searcher.keyword
    monkeypatch.setattr(keyword_module, "PHRASE_POOL", 5)
    for words, tried in (("zeppelin sprocket", False), ("zeppelin gearbox", True)):
        query = Query.parse(words)
        whole = unpruned(keyword, query, 5, True)
        with pytest.MonkeyPatch.context() as patch:
            seen = statements(keyword.mirror, patch)
            found = keyword.search(query, 5)
        assert ranking(found) == ranking(whole)
        assert any(" NOT " in s for s in seen) is tried, words


def test_term_frequencies_are_counted_again_after_an_edit_that_keeps_the_count(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kept frequencies follow the memory's version, not its entry count: an edit
    taking "zeppelin" out of notes moves its frequency, and the ranking stays exact."""
    keyword = parts_of(memory).searcher.keyword
    query = Query.parse("zeppelin gearbox")
    assert keyword.document_frequencies(["zeppelin"]) == {"zeppelin": 12}
    zeppelins = [h.entry for h in keyword.search(Query.parse("zeppelin"), 20)]
    for entry in zeppelins[:10]:
        memory.update(entry.id, content=entry.content.replace("zeppelin", "airship"), embed=False)
    assert keyword.document_frequencies(["zeppelin"]) == {"zeppelin": 2}
    assert ranking(keyword.search(query, 5)) == ranking(unpruned(keyword, query, 5, True))
