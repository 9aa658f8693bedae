"""What a search lets through: ``min_score`` for one search in place of the configured
gate's floor, the gate's every-word check on Porter stems, and a one-letter word searched
as a word, not as a prefix.
"""

from __future__ import annotations

import pytest

from engine.core.errors import InvalidInputError
from engine.services.memory import Memory

CLOSE = "sprocket grease schedule weekly"


FAR = "sprocket alignment jig workshop"


def _ids(memory: Memory, query: str, **kwargs: object) -> set[str]:
    return {r.entry.content for r in memory.search(query, **kwargs).results}  # type: ignore[arg-type]


def test_seed003_f6_min_score_per_search_overrides_the_configured_gate(memory: Memory) -> None:
    memory.add(CLOSE)
    memory.add(FAR)
    query = "sprocket grease schedule"
    # The configured gate (0.2) lets the loosely related note through in vector mode ...
    assert _ids(memory, query, mode="vector") == {CLOSE, FAR}
    # ... a stricter floor for this one search keeps only the close one ...
    assert _ids(memory, query, mode="vector", min_score=0.7) == {CLOSE}
    assert _ids(memory, query, mode="hybrid", min_score=0.7) == {CLOSE}
    # ... and the configuration is unchanged for the next search.
    assert _ids(memory, query, mode="vector") == {CLOSE, FAR}


def test_seed003_f6_min_score_is_checked_and_ignored_in_keyword_mode(memory: Memory) -> None:
    memory.add(CLOSE)
    with pytest.raises(InvalidInputError, match="min_score"):
        memory.search("sprocket", min_score=1.5)
    response = memory.search("sprocket", mode="keyword", min_score=0.99)
    assert [r.entry.content for r in response.results] == [CLOSE]
    assert any("keyword mode" in w for w in response.warnings)


def test_seed003_f2_gate_all_terms_check_uses_porter_stems(memory: Memory) -> None:
    from bench.search_oracles import covers_all_terms

    entry = memory.add("Plant the turnip seed in spring").entry
    assert covers_all_terms("turnips planting", entry)
    assert covers_all_terms("seeds", entry)
    assert not covers_all_terms("turnips autumn", entry)
    # In hybrid search the fake embedder sees no shared word ("turnips" ≠ "turnip"), so
    # only the stemmed all-terms check lets the keyword hit through the gate.
    found = memory.search("turnips", mode="hybrid").results
    assert [r.entry.id for r in found] == [entry.id]
    assert (found[0].explanation.vector_similarity or 0.0) < 0.2


def test_seed003_f2_single_letter_terms_do_not_match_everything(memory: Memory) -> None:
    from engine.search.query import Query

    notes = ["Sprocket grease weekly", "Slow start of the server", "The C compiler flags"]
    for note in notes:
        memory.add(note)

    def found(query: str, prefix_last: bool) -> list[str]:
        hits = memory.search(query, mode="keyword", prefix_last=prefix_last).results
        return [r.entry.content for r in hits]

    # Typing "s": a one-letter prefix would match every word starting with s.
    assert found("s", prefix_last=True) == []
    assert Query.parse("s", prefix_last=True).match() == '"s"'
    assert found("c", prefix_last=True) == ["The C compiler flags"]  # the word "c"
    assert sorted(found("sl", prefix_last=True)) == ["Slow start of the server"]
    assert found("c", prefix_last=False) == ["The C compiler flags"]


def test_a_judged_result_keeps_every_other_field_of_its_explanation() -> None:
    """``judged`` makes the explanation anew: a field added to it must not be dropped."""
    from dataclasses import fields

    from engine.core.models import Entry, Gate, ScoreExplanation, SearchResult
    from engine.search.gate import judged
    from engine.search.scoring import QueryWeights

    kept = {"vector_rank": 3, "keyword_rank": 2, "keyword_score": 7.5, "fused_score": 1.25}
    why = ScoreExplanation(**kept, vector_weight=0.75, folded=4, gate=Gate.TERMS)
    result = SearchResult(Entry("e1", "gearbox oil"), 0.1, why, True, "moved")
    query = QueryWeights(("gearbox",), {"gearbox": 1.0}, None, frozenset())
    after = judged(result, 0.5, query)
    changed = {"vector_similarity", "coverage", "gate"}
    for f in fields(ScoreExplanation):
        if f.name not in changed:
            assert getattr(after.explanation, f.name) == getattr(why, f.name), f.name
    assert after.explanation.vector_similarity == 0.5 and after.explanation.coverage == 1.0
    assert (after.entry, after.stale, after.stale_reason) == (result.entry, True, "moved")
