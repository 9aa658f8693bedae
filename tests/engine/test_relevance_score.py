"""Issue 36: the relevance score, the gate built on it, and the fusion's two properties.

The score is a fixed function of evidence that keeps its meaning across queries and
memories (cosine similarity, and the share of the query's informative words an entry
holds); the gate shows results only when one is relevant; results come sorted by it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from fakes import ControlledEmbedder, FakeEmbedder
from search_oracles import gate

from bench.search_oracles import fuse
from engine.core.models import Entry, ScoreExplanation, SearchResult
from engine.search.gate import fold_by_file, pooled
from engine.search.keyword import KeywordHit
from engine.search.query import WORD, Query, stem
from engine.search.scoring import (
    EVIDENCE_MIDPOINT,
    RELEVANT,
    UNSEEN_FORGIVEN_SHARE,
    QueryWeights,
    answering_relevance,
    coverage,
    matched_terms,
    query_weights,
    relevance,
)
from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.storage.lance_search import Underway


def entry(entry_id: str, content: str = "") -> Entry:
    return Entry(id=entry_id, content=content or f"content of {entry_id}")


def khit(entry_id: str, rank: int, bm25: float) -> KeywordHit:
    return KeywordHit(entry(entry_id), rank, 0.0, -bm25)


class TestFusionProperties:
    def test_near_the_top_of_both_lists_beats_first_in_one_and_far_down_the_other(
        self,
    ) -> None:
        # Issue 34's case: a chunk at keyword rank 1 (its BM25 far above the rest) and
        # vector rank 89 against one at vector rank 2 and keyword rank 10.
        vector = [(entry(f"v{i}"), 0.62 - 0.0035 * i) for i in range(100)]
        vector[1] = (entry("both"), vector[1][1])
        vector[88] = (entry("one_sided"), vector[88][1])
        keyword = [khit("one_sided", 1, 25.0)] + [
            khit(f"k{i}", i + 2, 15.0 - 0.12 * i) for i in range(99)
        ]
        keyword[9] = khit("both", 10, keyword[9].bm25 * -1)
        fused = fuse(vector, keyword, 60, 1.0, "zscore")
        assert fused[0].entry.id == "one_sided"  # the fusion picks both as candidates ...
        weights = query_weights(Query.parse("required flags"), {"required": 3, "flags": 10}, 100)
        texts = {"both": "required flags", "one_sided": "flags"}
        fused = [replace(r, entry=entry(r.entry.id, texts.get(r.entry.id, ""))) for r in fused]
        shown = gate(
            weights,
            np.zeros(4, dtype=np.float32),
            fused,
            5,
            min_score=0.2,
            similarities=lambda _q, _e: Underway.ready({}),
        )
        ranked = [r.entry.id for r in shown]  # ... and the one near the top of both leads
        assert ranked.index("both") < ranked.index("one_sided")
        assert [r.score for r in shown] == sorted((r.score for r in shown), reverse=True)

    def test_a_word_matching_a_single_entry_still_counts(self) -> None:
        # Issue 34's `search frobnicator`: the one note holding the word must rank above
        # an entry it does not match, even a little closer in meaning.
        vector = [(entry("label"), 0.31), (entry("note"), 0.30)] + [
            (entry(f"v{i}"), 0.29 - 0.001 * i) for i in range(50)
        ]
        keyword = [khit("note", 1, 7.5)]
        ranked = fuse(vector, keyword, 60, 1.0, "zscore", keyword_complete=True)
        assert ranked[0].entry.id == "note"
        # without knowing the keyword list is complete, a one-item list has no spread
        flat = fuse(vector, keyword, 60, 1.0, "zscore", keyword_complete=False)
        assert flat[0].entry.id == "label"


class TestScore:
    def test_informative_terms_leave_out_stopwords_and_single_letters(self) -> None:
        def informative(text: str) -> tuple[str, ...]:
            return Query.parse(text).informative

        assert informative("How do I add a --version option?") == ("add", "version", "option")
        assert informative("x") == informative("how do I") == ()
        assert informative("q 2 über") == ("über",)  # one letter of another script stays

    def test_coverage_weighs_each_word_by_its_rarity_here(self) -> None:
        # "option" is in 90 of 100 entries, "frobnicate" in 1, "banana" in none.
        weights = query_weights(
            Query.parse("option frobnicate banana"),
            {"option": 90, "frobnicate": 1, "banana": 0},
            100,
        )
        common = coverage(weights, entry("a", "an option"))
        rare = coverage(weights, entry("b", "how to frobnicate"))
        assert 0 < common < rare < 0.5  # the unseen word weighs the most: half is missing
        assert coverage(weights, entry("c", "frobnicate the option, banana")) == 1.0

    def test_relevance_is_one_curve_for_every_query(self) -> None:
        assert relevance(EVIDENCE_MIDPOINT, 0.0) == pytest.approx(RELEVANT)
        assert relevance(EVIDENCE_MIDPOINT + 0.2, 0.0) == pytest.approx(0.9, abs=0.01)
        assert relevance(EVIDENCE_MIDPOINT - 0.2, 0.0) == pytest.approx(0.1, abs=0.01)
        assert relevance(0.0, 1.0) == pytest.approx(RELEVANT)  # every word: relevant
        assert relevance(0.3, 0.5) > relevance(0.3, 0.2) > relevance(0.3, 0.0)


class TestGate:
    def candidates(self, sims: list[float]) -> list[SearchResult]:
        return [
            SearchResult(
                entry(f"e{i}"), 1.0, ScoreExplanation(vector_rank=i + 1, vector_similarity=s)
            )
            for i, s in enumerate(sims)
        ]

    def run(self, sims: list[float], min_score: float = 0.2) -> list[SearchResult]:
        weights = query_weights(Query.parse("unrelated words"), {}, 100)
        return gate(
            weights,
            np.zeros(4, dtype=np.float32),
            self.candidates(sims),
            5,
            min_score=min_score,
            similarities=lambda _q, _e: Underway.ready({}),
        )

    def test_nothing_shown_when_no_candidate_is_relevant(self) -> None:
        assert self.run([0.35, 0.34, 0.3, 0.3, 0.29, 0.28]) == []
        assert len(self.run([0.35, 0.34, 0.3], min_score=0.0)) == 3  # 0: no gate

    def test_once_one_is_relevant_the_others_down_to_min_score_follow_sorted(self) -> None:
        kept = self.run([0.3, 0.55, 0.05, 0.33])
        assert [r.entry.id for r in kept] == ["e1", "e3", "e0"]  # 0.05 is below 0.2
        scores = [r.score for r in kept]
        assert scores == sorted(scores, reverse=True) and scores[0] > RELEVANT > scores[-1]
        assert {r.explanation.gate for r in kept} == {"similarity"}  # no word of it here


@pytest.fixture
def crowded(tmp_path: Path) -> Memory:
    """Entries about one subject, and one long page cut in many chunks."""
    memory = Memory.open(tmp_path, embedder=FakeEmbedder())
    memory.add_many(
        [NewEntry(f"retry policy backoff jitter note {i} retry backoff") for i in range(8)]
    )
    return memory


def test_results_come_sorted_by_the_score_shown(crowded: Memory) -> None:
    for mode in ("hybrid", "vector", "keyword"):
        results = crowded.search("retry backoff", mode=mode, limit=8).results
        scores = [r.score for r in results]
        assert results and scores == sorted(scores, reverse=True), mode
    crowded.close()


def test_nonsense_and_stopword_queries_return_nothing(crowded: Memory) -> None:
    crowded.add("x marks the spot where the retry loop starts")
    for query in ("zzzz", "x", "how do I", "asdf qwerty"):
        for mode in ("hybrid", "vector"):
            assert crowded.search(query, mode=mode).results == (), (query, mode)
    # keyword mode lists what holds the words typed, the single letter too
    assert len(crowded.search("x", mode="keyword").results) == 1
    crowded.close()


def at(entry_id: str, path: str, score: float) -> SearchResult:
    return SearchResult(Entry(id=entry_id, content=entry_id, file_path=path), score)


def test_pooled_scores_never_rise_down_the_list_and_keep_their_mean() -> None:
    listed = pooled([at("a", "", 0.9), at("b", "", 0.4), at("c", "", 0.6), at("d", "", 0.1)])
    assert [r.entry.id for r in listed] == ["a", "b", "c", "d"]  # the order stays
    assert [r.score for r in listed] == pytest.approx([0.9, 0.5, 0.5, 0.1])


def test_a_files_sections_past_its_best_two_are_folded_under_its_best() -> None:
    results = [at("a1", "a.md", 0.9), at("a2", "a.md", 0.8), at("n1", "", 0.7),
               at("a3", "a.md", 0.6), at("n2", "", 0.5), at("a4", "a.md", 0.4)]  # fmt: skip
    listed = fold_by_file(results)
    assert [r.entry.id for r in listed] == ["a1", "a2", "n1", "n2"]  # never moved down
    assert [r.explanation.folded for r in listed] == [2, 0, 0, 0]


class TestUnseenWords:
    """A word no entry holds counts against every entry alike. One among several the
    memory knows (a flag spelled ``-vvv``, an abbreviation the texts spell out) is left
    out when the gate decides whether the query is answered; more than a quarter of the
    query's words keep their weight, so a query about something else stays covered by
    nothing. The score shown and the order keep the plain coverage."""

    def test_a_few_unseen_words_are_left_out_of_the_decision(self) -> None:
        assert UNSEEN_FORGIVEN_SHARE == 0.25
        known = {"boolean": 3, "flag": 5, "verbosity": 1}
        weights = query_weights(Query.parse("boolean flag verbosity raise"), known, 100)
        assert weights.unseen == {"raise"}
        assert weights.covered_total == pytest.approx(weights.total - weights.weights["raise"])
        held = coverage(weights, entry("a", "a boolean flag sets the verbosity"))
        assert held < 0.75  # the score's coverage: the unseen word weighs the most
        assert answering_relevance(0.0, held, weights) == pytest.approx(relevance(0.0, 1.0))

    def test_many_unseen_words_keep_their_weight(self) -> None:
        weights = query_weights(Query.parse("boolean flag zorblax quuxify"), {"boolean": 3}, 100)
        assert weights.unseen == {"flag", "zorblax", "quuxify"}
        assert weights.covered_total == weights.total  # three of four: about something else
        assert coverage(weights, entry("a", "a boolean")) < 0.5
        nothing_known = query_weights(Query.parse("zorblax quuxify"), {}, 100)
        assert nothing_known.covered_total == nothing_known.total
        empty_memory = query_weights(Query.parse("boolean flag verbosity raise"), {}, 0)
        assert empty_memory.unseen == frozenset()  # an empty memory has seen nothing

    def test_a_question_with_one_word_the_memory_spells_otherwise_finds_its_answer(
        self, tmp_path: Path
    ) -> None:
        answer = "Count a boolean flag each time it is repeated to set the verbosity level."
        question = "Can a boolean flag be repeated to raise the verbosity level?"
        off_topic = "boolean zorblax quuxify flibbertigibbet"
        others = [f"Note {i} about caching, retries and timeouts of the server." for i in range(12)]
        # Meaning far apart (cosine 0.05): only the words can make the answer relevant.
        vectors = {question: [1.0, 0.0], off_topic: [1.0, 0.0], answer: [0.05, 0.99875]}
        vectors |= {text: [0.0, 0.0, 1.0] for text in others}
        memory = Memory.open(tmp_path, embedder=ControlledEmbedder(vectors))
        memory.add_many([NewEntry(answer), *(NewEntry(t) for t in others)])

        found = memory.search(question).results
        assert [r.entry.content for r in found][:1] == [answer]  # "raise" is in no entry
        assert found[0].explanation.coverage < 1.0  # shown as held: "raise" missing
        assert memory.search(question, mode="vector").results[0].entry.content == answer
        assert memory.search(off_topic).results == ()  # three unseen words of four
        memory.close()


def test_a_part_of_a_snake_case_name_finds_it_as_the_keyword_index_does(
    tmp_path: Path,
) -> None:
    """FTS5 separates ``XDG_CONFIG_HOME`` into three words, so keyword search finds it
    for ``xdg``; the gate, reading the same words, shows it in hybrid search too."""
    answer = "Set `${XDG_CONFIG_HOME:-~/.config}` to move the settings file."
    others = [f"Note {i} about caching, retries and timeouts of the server." for i in range(12)]
    vectors = {"xdg": [1.0, 0.0], answer: [0.3, 0.954]}  # meaning apart: the words decide
    vectors |= {text: [0.0, 0.0, 1.0] for text in others}
    memory = Memory.open(tmp_path, embedder=ControlledEmbedder(vectors))
    memory.add_many([NewEntry(answer), *(NewEntry(t) for t in others)])
    assert [r.entry.content for r in memory.search("xdg", mode="keyword").results] == [answer]
    found = memory.search("xdg").results
    assert [r.entry.content for r in found] == [answer]
    assert found[0].explanation.coverage == 1.0
    memory.close()


def held_by_every_stem(weights: QueryWeights, text: str) -> list[str]:
    """The oracle: every word of the text stemmed, each query word looked up."""
    runs = {w.lower() for w in WORD.findall(text)}
    parts = {part for w in runs if "_" in w for part in w.split("_") if part}

    def held(found: set[str]) -> list[str]:
        stems = {stem(w) for w in found}
        return [
            t
            for t in weights.terms
            if t in found
            or stem(t) in stems
            or (t == weights.partial and any(w.startswith(t) for w in found))
        ]

    # the parts of joined names (unicode61's tokens) only where no word is held as written
    return held(runs) or held(runs | parts)


@pytest.mark.parametrize(
    ("query", "text", "held"),
    [
        ("happiness of turnips", "Happy turnip farmers", ["happiness", "turnips"]),
        ("relational databases", "how the relation between tables works", ["relational"]),
        ("crème brûlée recipes", "Une crème BRÛLÉE, a recipe", ["crème", "brûlée", "recipes"]),
        ("parse_args v2", "call parse_args() in v2 of the API", ["parse_args", "v2"]),
        ("xdg config paths", "set XDG_CONFIG_HOME first", ["xdg", "config"]),
        ("config paths", "config of XDG_DATA_PATHS", ["config"]),  # a word held: no parts
        ("generalizations", "generalization and its generalized forms", ["generalizations"]),
        ("s3 buckets", "the bucket's s", ["buckets"]),
        ("configur", "the configuration file", ["configur"]),
        ("dying stars", "a star dies as it burns out", ["stars"]),
    ],
)
def test_the_words_an_entry_holds_are_found_by_stem_as_the_index_finds_them(
    query: str, text: str, held: list[str]
) -> None:
    """Only the words starting as a wanted stem does are stemmed, and ASCII text is read
    by an ASCII pattern: the words found are those of stemming every word."""
    parsed = Query.parse(query)
    weights = query_weights(parsed, {}, 0, every_word=True)
    found = matched_terms(weights, entry("a", text))
    assert found == held_by_every_stem(weights, text)
    assert found == held
