"""Adjacent query words found next to each other in an entry raise its keyword rank
(engine/search/keyword.py, PHRASE_WEIGHT; engine/search/query.py, Query.phrases)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.core.hashing import content_hash
from engine.core.models import Category, Entry
from engine.search import keyword as keyword_module
from engine.search.keyword import PHRASE_POOL, KeywordSearcher
from engine.search.query import MAX_PHRASES, Query
from engine.storage.mirror import EntryMirror

# "apart" is shorter, so BM25 over the words alone ranks it above "adjacent".
ADJACENT = "Caroline went to the support group yesterday."
APART = "The group gave support to Caroline."


def make_entry(entry_id: str, content: str, category: Category = Category.GENERAL) -> Entry:
    return Entry(
        id=entry_id, content=content, category=category, content_hash=content_hash(content)
    )


class TestPhraseQuery:
    def test_adjacent_content_words_become_quoted_phrases(self) -> None:
        assert Query.parse("When did Caroline go to the LGBTQ support group?").phrases() == (
            '"caroline go" OR "lgbtq support" OR "support group"'
        )

    def test_no_pair_no_phrase_query(self) -> None:
        assert Query.parse("docker").phrases() is None
        assert Query.parse("what is the docker").phrases() is None  # stopwords break pairs
        assert Query.parse("").phrases() is None

    def test_operators_and_quotes_stay_words(self) -> None:
        assert Query.parse('NEAR "x" foo*').phrases() == '"near x" OR "x foo"'

    def test_the_word_being_typed_is_in_no_pair(self) -> None:
        assert Query.parse("support gro", prefix_last=True).phrases() is None
        assert Query.parse("support group ", prefix_last=True).phrases() == '"support group"'

    def test_terms_left_out_of_the_words_are_in_no_pair(self) -> None:
        """In very large memories a term in too many entries is left out (keyword.py,
        COMMON_TERM_SHARE): its postings are what made searches slow."""
        query = "argo sync wave order"
        assert Query.parse(query).phrases(frozenset({"sync"})) == ('"wave order"')

    def test_pairs_repeat_once_and_are_capped(self) -> None:
        assert Query.parse("video game video game").phrases() == '"video game" OR "game video"'
        many = " ".join(f"w{i}" for i in range(10_000))
        assert (Query.parse(many).phrases() or "").count(" OR ") + 1 == MAX_PHRASES


@pytest.fixture
def mirror(tmp_path: Path) -> Iterator[EntryMirror]:
    index = EntryMirror(tmp_path / "fts.sqlite")
    entries = [
        make_entry("adjacent", ADJACENT, Category.DOMAIN),
        make_entry("apart", APART, Category.DOMAIN),
        *[
            make_entry(f"other{i}", f"Melanie painted a lake at sunrise, take {i}.")
            for i in range(8)
        ],
    ]
    with index.transaction() as db:
        index.upsert(db, entries)
    yield index
    index.close()


def ids(
    mirror: EntryMirror,
    query: str,
    limit: int = 5,
    category: Category | None = None,
    *,
    phrases: bool = True,
) -> list[str]:
    asked = Query.parse(query, category=category)
    return [h.entry.id for h in KeywordSearcher(mirror).search(asked, limit, phrases=phrases)]


def test_the_words_alone_rank_the_shorter_entry_first(
    mirror: EntryMirror, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert ids(mirror, "Caroline support group", phrases=False)[:2] == ["apart", "adjacent"]
    monkeypatch.setattr(keyword_module, "PHRASE_WEIGHT", 0.0)
    assert ids(mirror, "Caroline support group")[:2] == ["apart", "adjacent"]


def test_the_hook_ranks_by_the_words_alone(
    mirror: EntryMirror, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The prompt hook's candidates are BM25's over the words (engine/search/relevance.py)."""
    from engine.search.relevance import relevant_hits

    calls: list[dict[str, object]] = []
    search = KeywordSearcher.search

    def spy(self: KeywordSearcher, query: str, limit: int, **kwargs: object) -> object:
        calls.append(kwargs)
        return search(self, query, limit, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(KeywordSearcher, "search", spy)
    relevant_hits(KeywordSearcher(mirror), "Caroline support group")

    assert calls == [{"phrases": False}]


def test_the_phrase_ranks_the_entry_holding_it_first(mirror: EntryMirror) -> None:
    hits = KeywordSearcher(mirror).search("Caroline support group", 5)

    assert [h.entry.id for h in hits[:2]] == ["adjacent", "apart"]
    assert hits[0].score == 1.0 and 0.0 < hits[1].score < 1.0
    assert hits[0].bm25 < hits[1].bm25 < 0  # lower is better, as FTS5's bm25()


def test_one_result_is_still_chosen_from_the_whole_pool(mirror: EntryMirror) -> None:
    assert PHRASE_POOL > 1
    assert ids(mirror, "Caroline support group", limit=1) == ["adjacent"]


def test_a_category_filter_keeps_the_phrase_ranking(mirror: EntryMirror) -> None:
    assert ids(mirror, "Caroline support group", category=Category.DOMAIN) == ["adjacent", "apart"]
    assert ids(mirror, "Caroline support group", category=Category.GOTCHA) == []


def test_an_entry_with_the_phrase_but_not_among_the_word_hits_is_not_added(
    mirror: EntryMirror,
) -> None:
    """The phrase reranks what the words found; it never brings in anything else (every
    entry holding the phrase holds its words, so this only guards the SQL's join)."""
    assert set(ids(mirror, "support group", limit=10)) == {"adjacent", "apart"}
