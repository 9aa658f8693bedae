"""Large memories leave very common query terms out of keyword search (speed); small ones
keep every term."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.models import Entry
from engine.search import keyword as fts_module
from engine.search.keyword import KeywordSearcher
from engine.search.query import Query
from engine.storage.mirror import EntryMirror


def entry(n: int, text: str) -> Entry:
    return Entry(id=f"e{n}", content=text, created_at=f"2026-01-{n % 28 + 1:02d}T00:00:00")


@pytest.fixture
def index(tmp_path: Path) -> KeywordSearcher:
    fts = EntryMirror(tmp_path / "fts.sqlite")
    texts = [f"kubernetes cluster note {n}" for n in range(30)]
    texts += ["kubernetes cluster with a flaky etcd", "etcd compaction schedule"]
    with fts.transaction() as db:
        fts.upsert(db, [entry(n, t) for n, t in enumerate(texts)])
    return KeywordSearcher(fts)


def test_small_memories_keep_every_term(index: KeywordSearcher) -> None:
    assert index._common_terms(Query.parse("kubernetes etcd", prefix_last=False)) == frozenset()
    hits = index.search("kubernetes etcd", 100)
    assert len(hits) == 32  # "kubernetes" alone matches 31


def test_large_memories_leave_common_terms_out(
    index: KeywordSearcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fts_module, "COMMON_TERM_MIN_ENTRIES", 10)
    assert index._common_terms(Query.parse("kubernetes etcd", prefix_last=False)) == {"kubernetes"}
    hits = index.search("kubernetes etcd", 100)
    assert {h.entry.id for h in hits} == {"e30", "e31"}  # only what "etcd" finds


def test_the_rarest_term_and_the_word_being_typed_stay(
    index: KeywordSearcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fts_module, "COMMON_TERM_MIN_ENTRIES", 10)
    # Both common: the rarer one ("cluster" and "kubernetes" tie; one of them) stays.
    assert len(index._common_terms(Query.parse("kubernetes cluster", prefix_last=False))) == 1
    assert index.search("kubernetes cluster", 5)
    # The last word while typing is a prefix and is never left out.
    assert index._common_terms(Query.parse("etcd kuber", prefix_last=True)) == frozenset()


def test_counts_are_refreshed_when_the_memory_changes(
    index: KeywordSearcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fts_module, "COMMON_TERM_MIN_ENTRIES", 10)
    assert "etcd" not in index._common_terms(Query.parse("kubernetes etcd", prefix_last=False))
    with index.mirror.transaction() as db:
        index.mirror.upsert(db, [entry(100 + n, f"etcd member {n}") for n in range(40)])
    assert "etcd" in index._common_terms(Query.parse("kubernetes etcd", prefix_last=False))


def test_match_query_leaves_out_terms_unless_nothing_would_remain() -> None:
    assert Query.parse("alpha beta").match(frozenset({"alpha"})) == '"beta"'
    assert Query.parse("alpha").match(frozenset({"alpha"})) == '"alpha"'
