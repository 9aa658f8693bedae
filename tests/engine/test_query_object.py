"""One query object per search (engine/search/query.py), and the keyword SQL where the
storage is (engine/storage/mirror_keyword.py): the query text is tokenised once, BM25's
column weights are matched to the FTS5 columns by name, the search layer writes no SQL."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import engine.search.query as query_module
from engine.core.hashing import content_hash
from engine.core.models import Category, Entry
from engine.search.keyword import BM25_WEIGHTS, KeywordSearcher
from engine.search.query import Query
from engine.services.entries import NewEntry
from engine.services.memory import Memory
from engine.storage.mirror import EntryMirror
from engine.storage.mirror_keyword import MatchQuery, bm25_weights

SEARCH_PACKAGE = Path(query_module.__file__).parent

NOTES = [
    NewEntry("LanceDB needs double quotes around camelCase column names in filters", "gotcha"),
    NewEntry("The indexer hashes knowledge files and skips unchanged files", "component"),
    NewEntry("Columns of a LanceDB table keep their case; filters quote them", "pattern"),
]


class _CountingPattern:
    """Stands in for the tokenizer's compiled pattern, counting what it is given."""

    def __init__(self, pattern: re.Pattern[str], seen: list[str]) -> None:
        self._pattern, self._seen = pattern, seen

    def findall(self, text: str) -> list[Any]:
        self._seen.append(text)
        return self._pattern.findall(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pattern, name)


@pytest.fixture
def tokenised(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text the search package's tokenizer is given, wherever a module holds it
    (``words`` or its pattern ``WORD``, imported by name or used through the module)."""
    seen: list[str] = []
    real_words, real_pattern = query_module.words, query_module.WORD

    def counting_words(text: str) -> list[str]:
        seen.append(text)
        return [t.lower() for t in real_pattern.findall(text)]

    pattern = _CountingPattern(real_pattern, seen)
    for module in list(sys.modules.values()):
        if not isinstance(module, ModuleType) or not module.__name__.startswith("engine"):
            continue
        for name, value in list(vars(module).items()):
            if value is real_words:
                monkeypatch.setattr(module, name, counting_words)
            elif value is real_pattern:
                monkeypatch.setattr(module, name, pattern)
    yield seen


@pytest.mark.parametrize("mode", ["hybrid", "keyword", "vector"])
def test_a_search_tokenises_its_query_once(memory: Memory, tokenised: list[str], mode: str) -> None:
    memory.add_many(NOTES)
    text = "lancedb camelcase column filters"
    tokenised.clear()
    results = memory.search(text, mode=mode, prefix_last=True).results
    assert results  # the search found something: every part of it ran
    assert tokenised.count(text) == 1


def test_a_query_is_read_once_into_its_parts() -> None:
    query = Query.parse("How do I add --version opt", prefix_last=True)
    assert query.tokens == ("how", "do", "i", "add", "version", "opt")
    assert query.terms == ("add", "version", "opt")
    assert query.informative == ("add", "version", "opt")
    assert query.partial == "opt"
    assert query.match() == '"add" OR "version" OR "opt"*'
    assert query.phrases() == '"add version"'  # the word being typed is in no phrase
    assert Query.parse("How do I add --version opt ", prefix_last=True).partial is None
    assert Query.parse("the a x").informative == ()


def _entry(entry_id: str, content: str, title: str = "") -> Entry:
    return Entry(
        id=entry_id,
        content=content,
        category=Category.GENERAL,
        section_title=title,
        content_hash=content_hash(content),
    )


@pytest.fixture
def mirror(tmp_path: Path) -> Iterator[EntryMirror]:
    index = EntryMirror(tmp_path / "fts.sqlite")
    with index.transaction() as db:
        index.upsert(
            db,
            [
                _entry("in-title", "a note about other things", title="frobnicate"),
                _entry("in-text", "frobnicate the widget before a note about other things"),
            ],
        )
    yield index
    index.close()


def test_bm25_weights_are_matched_to_the_columns_by_name(mirror: EntryMirror) -> None:
    def ranking(weights: dict[str, float]) -> list[tuple[str, float]]:
        rows = mirror.ranked(MatchQuery('"frobnicate"', 5, weights))
        return [(e.id, round(rank, 9)) for e, rank in rows]

    reversed_order = dict(reversed(list(BM25_WEIGHTS.items())))
    assert ranking(reversed_order) == ranking(BM25_WEIGHTS)  # the order written is no matter
    assert ranking({**BM25_WEIGHTS, "sectionTitle": 5.0})[0][0] == "in-title"
    assert ranking({**BM25_WEIGHTS, "sectionTitle": 0.0, "content": 5.0})[0][0] == "in-text"


def test_a_weight_for_no_column_is_refused() -> None:
    with pytest.raises(ValueError, match="section_title"):
        bm25_weights(("id", "content", "sectionTitle"), {"section_title": 2.0})
    # a column not named weighs 1.0, as in FTS5's own bm25()
    assert bm25_weights(("id", "content"), {"id": 0.0}) == "0.0, 1.0"


def test_the_keyword_searcher_ranks_through_the_mirror(mirror: EntryMirror) -> None:
    hits = KeywordSearcher(mirror).search(Query.parse("frobnicate"), 5)
    assert [h.entry.id for h in hits] == ["in-title", "in-text"]  # titles weigh 2.0
    assert hits[0].score == 1.0 and 0.0 < hits[1].score < 1.0


def test_each_statement_of_a_ranking_asks_one_fts5_query(
    mirror: EntryMirror, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The phrase ranking and the ranking by words are read apart and reranked here: one
    statement joining the two was planned by SQLite 3.50 as one phrase query for each of
    the best rows (50-95 ms a search at 10,000 entries instead of 9-12)."""
    statements: list[str] = []
    real = mirror._read

    def read(sql: str, params: Any = ()) -> list[Any]:
        statements.append(sql)
        return real(sql, params)

    monkeypatch.setattr(mirror, "_read", read)
    query = Query.parse("widget frobnicate note")
    asked = MatchQuery(
        query.match(frozenset()), 5, BM25_WEIGHTS, query.phrases(frozenset()), 0.25, 100
    )
    assert asked.phrases is not None
    ids = [entry_id for entry_id, _ in mirror.ranked_ids(asked)]

    assert ids == ["in-text", "in-title"]  # "frobnicate the widget": words and a phrase
    assert len(statements) == 3
    assert all(sql.count("MATCH") <= 1 and "WITH" not in sql for sql in statements)


def test_the_search_layer_writes_no_sql() -> None:
    sql = re.compile(r"\b(SELECT|memory_fts|rowid|JOIN entries)\b")
    offenders = [
        f"{path.name}:{number}"
        for path in sorted(SEARCH_PACKAGE.glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if sql.search(line)
    ]
    assert offenders == []
    assert not hasattr(EntryMirror, "read")  # no raw statement pass-through


@pytest.mark.parametrize(
    "text",
    [
        "snake_case and camelCase, x2 + y_3 = 4; a.b/c-d 'quoted' (paren) [x]{y}|z\ttab\nnew",
        "every ASCII character: " + "".join(chr(c) for c in range(128)),
        "  spaced   out  ",
        "",
        "non-ASCII: café naïve Straße 東京 snake_case",
    ],
)
def test_a_texts_word_set_is_its_word_runs(text: str) -> None:
    """The gate's words of a text (split at separators when ASCII) are exactly the runs
    the tokenizer's pattern finds; :func:`name_parts` the parts of those joined by
    underscores."""
    runs = set(query_module.WORD.findall(text))
    assert query_module.word_set(text) == runs
    joined = [w for w in runs if "_" in w]
    assert query_module.name_parts(runs) == {p for w in joined for p in w.split("_") if p}
