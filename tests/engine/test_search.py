"""Vector, keyword and hybrid search through Memory, RRF fusion and the relevance gate."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from fakes import FailingEmbedder, FakeEmbedder

from bench.search_oracles import covers_all_terms, fuse
from engine.core.config import Config
from engine.core.errors import InvalidInputError
from engine.core.models import Category, Entry, SearchMode
from engine.search.fusion import vector_weight
from engine.search.keyword import KeywordHit
from engine.search.query import Query
from engine.search.scoring import EVIDENCE_MIDPOINT, RELEVANT, keyword_relevance
from engine.search.searcher import NOTHING_TO_SEARCH
from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.services.parts import parts_of

NOTES = [
    ("LanceDB needs double quotes around camelCase column names in filters", "gotcha"),
    ("The indexer hashes knowledge files and skips unchanged files", "component"),
    ("SQLite WAL mode lets readers proceed while one writer commits", "architecture"),
    ("Reciprocal rank fusion merges vector and keyword rankings", "pattern"),
    ("Deploy with docker compose; the worker reads the queue", "domain"),
]
FILLER = (
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november "
    "oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu amber basalt "
    "cobalt dune ember fjord glacier harbor island jungle kelp lagoon meadow"
)


@pytest.fixture
def notes(memory: Memory) -> dict[str, Entry]:
    results = memory.add_many([NewEntry(text, category) for text, category in NOTES])
    return {r.entry.content.split()[0].lower(): r.entry for r in results}


def entry(entry_id: str) -> Entry:
    return Entry(id=entry_id, content=f"content of {entry_id}")


def khit(entry_id: str, rank: int, score: float = 1.0) -> KeywordHit:
    return KeywordHit(entry(entry_id), rank, score, -score)


class TestFuse:
    def test_rrf_formula(self) -> None:
        k = 60
        results = fuse(
            [(entry("a"), 0.9), (entry("b"), 0.8)],
            [khit("b", 1), khit("c", 2, 0.5)],
            k,
            method="rrf",
        )
        by_id = {r.entry.id: r for r in results}
        assert by_id["a"].explanation.fused_score == pytest.approx(1 / (k + 1))
        assert by_id["b"].explanation.fused_score == pytest.approx(1 / (k + 2) + 1 / (k + 1))
        assert by_id["c"].explanation.fused_score == pytest.approx(1 / (k + 2))
        assert [r.entry.id for r in results] == ["b", "a", "c"]

    def test_entry_in_both_lists_is_merged(self) -> None:
        results = fuse(
            [(entry("a"), 0.7), (entry("b"), 0.6)], [khit("a", 2, 0.4)], 60, method="rrf"
        )
        assert [r.entry.id for r in results].count("a") == 1
        merged = next(r for r in results if r.entry.id == "a")
        assert merged.explanation.vector_rank == 1
        assert merged.explanation.vector_similarity == pytest.approx(0.7)
        assert merged.explanation.keyword_rank == 2
        assert merged.explanation.keyword_score == pytest.approx(0.4)  # the raw BM25
        only_vector = next(r for r in results if r.entry.id == "b")
        assert only_vector.explanation.keyword_rank is None

    def test_first_in_both_scores_one(self) -> None:
        for k in (1, 60, 1000):
            results = fuse([(entry("a"), 0.5), (entry("b"), 0.4)], [khit("a", 1)], k, method="rrf")
            assert results[0].score == pytest.approx(1.0)
            assert all(0.0 < r.score <= 1.0 for r in results)

    def test_first_in_one_list_only_scores_half(self) -> None:
        results = fuse([(entry("a"), 0.5)], [], 60, method="rrf")
        assert results[0].score == pytest.approx(0.5)
        assert results[0].explanation.keyword_rank is None

    def test_empty(self) -> None:
        assert fuse([], [], 60, method="rrf") == []


class TestFuseZscores:
    def test_z_scores_of_each_list_are_summed_with_the_keyword_weight(self) -> None:
        vector = [(entry("a"), 0.9), (entry("b"), 0.5)]
        keyword = [khit("b", 1, 10.0), khit("c", 2, 2.0)]  # raw BM25 10 and 2
        results = fuse(vector, keyword, 60, 1.2, "zscore")
        by_id = {r.entry.id: r.explanation.fused_score for r in results}
        # vector z: a +1, b -1; keyword z: b +1, c -1; a missing list gives its lowest z
        assert by_id["a"] == pytest.approx(1 - 1.2)
        assert by_id["b"] == pytest.approx(-1 + 1.2)
        assert by_id["c"] == pytest.approx(-1 - 1.2)
        assert [r.entry.id for r in results] == ["b", "a", "c"]
        assert [r.score for r in results] == pytest.approx([1.0, 2.0 / 2.4, 0.0])

    def test_a_keyword_hit_far_above_the_rest_beats_a_flat_vector_list(self) -> None:
        vector = [(entry(f"v{i}"), 0.50 - i * 0.001) for i in range(10)]
        keyword = [khit("k", 1, 30.0), khit("v0", 2, 3.0)] + [
            khit(f"x{i}", i + 3, 3.0) for i in range(8)
        ]
        # v0 is high in both lists by rank, but k's BM25 stands far above everything else
        assert fuse(vector, keyword, 60, 1.0, "rrf")[0].entry.id == "v0"
        assert fuse(vector, keyword, 60, 1.0, "zscore")[0].entry.id == "k"

    def test_flat_and_empty_lists(self) -> None:
        assert fuse([], [], 60, 1.2, "zscore") == []
        flat = fuse([(entry("a"), 0.5), (entry("b"), 0.5)], [], 60, 1.2, "zscore")
        assert {r.entry.id for r in flat} == {"a", "b"}
        assert all(r.explanation.fused_score == 0.0 for r in flat)
        assert all(r.score == 1.0 for r in flat)  # alike: each reads as the best
        single = fuse([(entry("a"), 0.5)], [khit("a", 1)], 60, 1.2, "zscore")
        assert [r.score for r in single] == [1.0]


class TestVectorWeight:
    """The vector list's weight per query follows how much its head agrees with
    keyword's (issue 23: the weaker half must not push keyword's right answers out)."""

    def test_agreement_sets_the_weight(self) -> None:
        ten = [f"d{i}" for i in range(10)]
        assert vector_weight(ten, ten) == 1.0
        assert vector_weight(ten, ten[:5] + [f"k{i}" for i in range(5)]) == 1.0  # half shared
        assert vector_weight(ten, [f"k{i}" for i in range(10)]) == 0.5
        assert vector_weight(ten, ten[:1] + [f"k{i}" for i in range(9)]) == pytest.approx(0.6)
        assert vector_weight(ten, ["d0", "k0"]) == 1.0  # the shorter list's head decides
        assert vector_weight(ten, []) == 1.0 and vector_weight([], ten) == 1.0

    def test_disagreeing_lists_halve_the_vector_z_scores(self) -> None:
        vector = [(entry("a"), 0.9), (entry("b"), 0.5)]
        keyword = [khit("c", 1, 10.0), khit("d", 2, 2.0)]  # no entry in common
        results = fuse(vector, keyword, 60, 1.0, "zscore")
        by_id = {r.entry.id: r.explanation for r in results}
        # vector z: a +1, b -1, halved; keyword z: c +1, d -1; missing: the list's lowest
        assert by_id["a"].fused_score == pytest.approx(0.5 - 1)
        assert by_id["c"].fused_score == pytest.approx(-0.5 + 1)
        assert results[0].entry.id == "c"
        assert {e.vector_weight for e in by_id.values()} == {0.5}
        rrf = fuse(vector, keyword, 60, 1.0, "rrf")
        assert {r.explanation.vector_weight for r in rrf} == {None}


class TestCoversAllTerms:
    def test_all_content_terms_needed(self) -> None:
        e = Entry(id="x", content="Use the FooBar client", keywords=("retry",))
        assert covers_all_terms("foobar client", e)
        assert covers_all_terms("the foobar retry", e)  # stopwords ignored, keywords count
        assert not covers_all_terms("foobar server", e)
        assert not covers_all_terms("the", e)  # nothing to cover

    def test_prefix_last_applies_to_the_last_word_only(self) -> None:
        e = Entry(id="x", content="LanceDB camelCase columns")
        assert covers_all_terms("columns camelc", e, prefix_last=True)
        assert not covers_all_terms("columns camelc", e)
        assert not covers_all_terms("columns camelc ", e, prefix_last=True)
        assert not covers_all_terms("camelc columns", e, prefix_last=True)


class TestModes:
    def test_keyword_mode(self, memory: Memory, notes: dict[str, Entry]) -> None:
        response = memory.search("camelcase columns", mode="keyword")
        assert response.used is SearchMode.KEYWORD
        assert [r.entry.id for r in response.results] == [notes["lancedb"].id]
        top = response.results[0]
        weights = parts_of(memory).searcher.keyword.query_weights(Query.parse("camelcase columns"))
        assert top.score == pytest.approx(keyword_relevance(top.explanation.keyword_score, weights))
        assert 0.0 < top.score < 1.0  # a calibrated relevance, not "1.0 for the first"
        assert top.explanation.keyword_rank == 1
        assert top.explanation.vector_rank is None

    def test_vector_mode(self, memory: Memory, notes: dict[str, Entry]) -> None:
        response = memory.search("readers writer commits", mode=SearchMode.VECTOR)
        assert response.used is SearchMode.VECTOR
        top = response.results[0]
        assert top.entry.id == notes["sqlite"].id
        assert top.explanation.vector_rank == 1
        why = top.explanation
        assert why.vector_similarity is not None and why.coverage is not None
        assert why.keyword_rank is None
        # listed by meaning alone, scored on the one relevance scale (never rising)
        sims = [r.explanation.vector_similarity or 0.0 for r in response.results]
        scores = [r.score for r in response.results]
        assert sims == sorted(sims, reverse=True) and scores == sorted(scores, reverse=True)
        assert 0.0 < scores[0] < 1.0

    def test_hybrid_merges_both_retrievers(self, memory: Memory, notes: dict[str, Entry]) -> None:
        response = memory.search("vector keyword fusion", mode="hybrid")
        assert response.used is SearchMode.HYBRID
        assert response.warnings == ()
        ids = [r.entry.id for r in response.results]
        assert ids[0] == notes["reciprocal"].id
        assert len(ids) == len(set(ids))
        top = response.results[0].explanation
        assert top.vector_rank == 1
        assert top.keyword_rank == 1
        assert top.fused_score == max(r.explanation.fused_score for r in response.results)
        scores = [r.score for r in response.results]
        assert scores == sorted(scores, reverse=True) and scores[0] < 1.0

    def test_default_mode_and_limit_come_from_config(self, tmp_path: Path) -> None:
        config = replace(Config(), search_mode=SearchMode.KEYWORD, default_limit=2)
        with Memory.open(tmp_path, config=config, embedder=FakeEmbedder()) as memory:
            memory.add_many([NewEntry(f"shared word entry {i}") for i in range(5)])
            response = memory.search("shared")
            assert response.mode is SearchMode.KEYWORD
            assert len(response.results) == 2

    def test_limit_is_respected(self, memory: Memory) -> None:
        memory.add_many([NewEntry(f"common topic number {i}") for i in range(12)])
        for mode in SearchMode:
            assert len(memory.search("common topic", mode=mode, limit=7).results) == 7

    @pytest.mark.parametrize("mode", list(SearchMode))
    def test_fts_syntax_in_queries(
        self, memory: Memory, notes: dict[str, Entry], mode: SearchMode
    ) -> None:
        # FTS5 operators in user text are searched as words: the keyword index answers
        # (a failure there would only be a warning and a fallback, so both are checked)
        # and the words next to the operators still find their entry.
        for query in ["lancedb*", "(camelcase", "NEAR(a b)", "\x00lancedb"]:
            response = memory.search(query, mode=mode)
            assert response.warnings == (), (query, response.warnings)
            assert response.used is mode, (query, response.used)
        for query in ['"', "NOT", "x:y"]:  # no informative word: nothing (and why)
            response = memory.search(query, mode=mode)
            assert response.results == (), query
            if mode is not SearchMode.KEYWORD:
                assert response.warnings == (NOTHING_TO_SEARCH,), query
        for query in ["lancedb*", "(camelcase", "\x00lancedb"]:
            if mode is SearchMode.VECTOR:  # one word against a note: too far in meaning
                continue
            results = memory.search(query, mode=mode).results
            assert results and results[0].entry == notes["lancedb"], (query, results)

    def test_invalid_requests(self, memory: Memory) -> None:
        for bad in ("", "   \n"):
            with pytest.raises(InvalidInputError):
                memory.search(bad)
        with pytest.raises(InvalidInputError, match="limit"):
            memory.search("x", limit=0)
        with pytest.raises(InvalidInputError, match="limit"):
            memory.search("x", limit=1001)
        with pytest.raises(InvalidInputError, match="vector, keyword, hybrid"):
            memory.search("x", mode="fuzzy")
        with pytest.raises(InvalidInputError, match="gotcha"):
            memory.search("x", category="gotchas")


class TestCategoryFilter:
    @pytest.fixture
    def crowded(self, memory: Memory) -> Memory:
        general = [
            NewEntry(f"cache eviction policy note {i}: cache eviction policy", "general")
            for i in range(30)
        ]
        gotchas = [NewEntry(f"gotcha {i} cache eviction surprise", "gotcha") for i in range(5)]
        memory.add_many(general + gotchas)
        return memory

    @pytest.mark.parametrize("mode", list(SearchMode))
    def test_returns_limit_results_of_the_category(self, crowded: Memory, mode: SearchMode) -> None:
        unfiltered = crowded.search("cache eviction policy", mode=mode, limit=5).results
        assert all(r.entry.category is Category.GENERAL for r in unfiltered)  # the premise
        filtered = crowded.search("cache eviction policy", mode=mode, limit=5, category="gotcha")
        assert len(filtered.results) == 5
        assert all(r.entry.category is Category.GOTCHA for r in filtered.results)


class TestRelevanceGate:
    @pytest.mark.parametrize("mode", [SearchMode.HYBRID, SearchMode.VECTOR])
    def test_unrelated_query_returns_nothing(
        self, memory: Memory, notes: dict[str, Entry], mode: SearchMode
    ) -> None:
        assert memory.search("banana smoothie recipe", mode=mode).results == ()

    def test_exact_term_keyword_match_survives(self, memory: Memory) -> None:
        # A long entry mentions the identifier once: semantically far, lexically exact.
        target = memory.add(f"xyzzy {FILLER}").entry
        hybrid = memory.search("xyzzy", mode="hybrid").results
        assert [r.entry.id for r in hybrid] == [target.id]
        why = hybrid[0].explanation
        assert why.vector_similarity is not None and why.vector_similarity < EVIDENCE_MIDPOINT
        assert (why.coverage, why.gate) == (1.0, "terms")  # its words carried it
        assert hybrid[0].score >= RELEVANT

    def test_partial_keyword_match_is_gated(self, memory: Memory) -> None:
        memory.add(f"xyzzy {FILLER}")
        assert memory.search("xyzzy plugh", mode="hybrid").results == ()
        assert len(memory.search("xyzzy plugh", mode="keyword").results) == 1

    def test_keyword_only_candidates_get_their_similarity(self, memory: Memory) -> None:
        memory.add(f"xyzzy {FILLER}")
        result = memory.search("xyzzy", mode="hybrid").results[0]
        assert result.explanation.keyword_rank == 1
        assert result.explanation.vector_similarity is not None

    def test_prefix_of_the_word_being_typed_survives(
        self, memory: Memory, notes: dict[str, Entry]
    ) -> None:
        results = memory.search("camelcas", mode="hybrid", prefix_last=True).results
        assert [r.entry.id for r in results] == [notes["lancedb"].id]

    def test_min_score_setting_is_used(self, tmp_path: Path) -> None:
        config = replace(Config(), min_score=-1.0)
        with Memory.open(tmp_path, config=config, embedder=FakeEmbedder()) as memory:
            memory.add_many([NewEntry(text, category) for text, category in NOTES])
            assert len(memory.search("banana smoothie", mode="vector").results) == len(NOTES)


class TestDegradation:
    def test_embedder_failure_falls_back_to_keywords(self, tmp_path: Path) -> None:
        with Memory.open(tmp_path, embedder=FailingEmbedder()) as memory:
            memory.add_many([NewEntry(text, category) for text, category in NOTES])
            for mode in (SearchMode.HYBRID, SearchMode.VECTOR):
                response = memory.search("camelcase columns", mode=mode)
                assert response.mode is mode
                assert response.used is SearchMode.KEYWORD
                assert any("vector search unavailable" in w for w in response.warnings)
                assert len(response.results) == 1
                assert "camelCase" in response.results[0].entry.content

    def test_keyword_failure_falls_back_to_vectors(
        self, memory: Memory, notes: dict[str, Entry], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        def broken(*args: object, **kwargs: object) -> list[KeywordHit]:
            raise RuntimeError("fts is broken")

        keyword_searcher = parts_of(memory).searcher.keyword
        monkeypatch.setattr(keyword_searcher, "search", broken)
        monkeypatch.setattr(keyword_searcher, "ranks", broken)  # hybrid's ranking by id
        response = memory.search("readers writer commits", mode="hybrid")
        assert response.used is SearchMode.VECTOR
        assert any("keyword search unavailable" in w for w in response.warnings)
        assert response.results[0].entry.id == notes["sqlite"].id
        keyword = memory.search("readers", mode="keyword")
        assert keyword.results == ()
        assert keyword.warnings

    def test_model_still_loading_gives_keyword_results(
        self, memory: Memory, notes: dict[str, Entry], fake_embedder: FakeEmbedder
    ) -> None:
        fake_embedder.loaded = False
        queries = fake_embedder.queries
        response = memory.search("camelcase", mode="hybrid", wait_for_model=False)
        assert response.used is SearchMode.KEYWORD
        assert response.warnings
        assert [r.entry.id for r in response.results] == [notes["lancedb"].id]
        assert fake_embedder.queries == queries  # the model was not asked
        waited = memory.search("camelcase", mode="hybrid", wait_for_model=True)
        assert waited.used is SearchMode.HYBRID

    def test_the_keyword_stand_in_is_gated_while_the_model_loads(
        self, memory: Memory, notes: dict[str, Entry], fake_embedder: FakeEmbedder
    ) -> None:
        fake_embedder.loaded = False
        memory.add("The capital letters of a constant name are kept", category="pattern")
        keyword = memory.search("capital of Australia", mode="keyword")
        assert keyword.results  # keyword mode lists what holds the words typed
        for mode in ("hybrid", "vector"):
            loading = memory.search("capital of Australia", mode=mode, wait_for_model=False)
            assert loading.used is SearchMode.KEYWORD and loading.results == ()

    def test_missing_vector_store_does_not_fail_keyword_search(self, memory: Memory) -> None:
        assert memory.search("anything", mode="keyword").results == ()
        assert memory.search("anything", mode="hybrid").results == ()


class TestLongLivedSearch:
    """A long-lived process answers like a fresh one and follows other writers."""

    def test_same_results_as_the_store_and_follows_other_writers(
        self, tmp_path: Path, fake_embedder: FakeEmbedder
    ) -> None:
        writer = Memory.open(tmp_path, embedder=fake_embedder)
        for i in range(30):  # each note a different similarity to the query: no ties
            filler = " ".join(f"w{i}x{j}" for j in range(i))
            writer.add(f"queues {filler}", category="general")
        writer.add("queues drain slowly under load", category="gotcha")
        reader = Memory.open(tmp_path, embedder=fake_embedder)

        for mode in ("vector", "hybrid"):
            for category in (None, "gotcha"):
                fast = reader.search("queues load", mode=mode, limit=5, category=category)
                slow = writer.search("queues load", mode=mode, limit=5, category=category)
                assert [r.entry.id for r in fast.results] == [r.entry.id for r in slow.results]
                assert [round(r.score, 5) for r in fast.results] == [
                    round(r.score, 5) for r in slow.results
                ]

        added = writer.add("backpressure protects the queues", category="pattern").entry
        assert added.id in {
            r.entry.id for r in reader.search("backpressure", mode="vector").results
        }
        writer.delete(added.id)
        assert added.id not in {
            r.entry.id for r in reader.search("backpressure", mode="vector").results
        }
        version = parts_of(reader).mirror.state("vectors_version")
        writer.referenced([e.id for e in writer.list(limit=3)])
        assert (
            parts_of(reader).mirror.state("vectors_version") == version
        )  # counting is not a vector change
        writer.close()
        reader.close()


def test_the_vector_weight_reaches_the_json_explanation(memory: Memory) -> None:
    """An agent reading ``fusedScore`` sees the weight the vector list had in it."""
    from engine.output.serialize import result_json

    memory.add_many(
        [NewEntry(t) for t in ("gearbox oil change", "gearbox noise at speed", "coffee beans")]
    )
    hybrid = memory.search("gearbox oil", mode="hybrid").results
    keyword = memory.search("gearbox oil", mode="keyword").results

    weights = {result_json(r, 1)["explanation"]["vectorWeight"] for r in hybrid}
    assert weights == {hybrid[0].explanation.vector_weight}
    assert all(w is not None and 0.5 <= w <= 1.0 for w in weights)
    assert {result_json(r, 1)["explanation"]["vectorWeight"] for r in keyword} == {None}
