"""The SQLite FTS5 keyword index and entry mirror."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.hashing import content_hash
from engine.core.models import Category, Entry, Source
from engine.search.keyword import KeywordSearcher
from engine.search.query import MAX_QUERY_TERMS, Query
from engine.storage.mirror import EntryMirror
from engine.storage.mirror_rows import SCHEMA_VERSION

CORPUS = {
    "a": "LanceDB needs double quotes around camelCase column names in filters",
    "b": "The indexer hashes every knowledge file and skips unchanged files",
    "c": "Install the package with pip and run the installer once",
    "d": "SQLite WAL mode lets readers proceed while one writer commits",
    "e": "Quotes quotes quotes: LanceDB column quotes everywhere in LanceDB",
}


def make_entry(
    entry_id: str,
    content: str,
    *,
    category: Category = Category.GENERAL,
    source: Source = Source.MANUAL,
    created_at: str = "2025-01-01T00:00:00+00:00",
    **kwargs: object,
) -> Entry:
    return Entry(
        id=entry_id,
        content=content,
        category=category,
        source=source,
        created_at=created_at,
        updated_at=created_at,
        content_hash=content_hash(content),
        **kwargs,  # type: ignore[arg-type]
    )


@pytest.fixture
def fts(tmp_path: Path) -> Iterator[EntryMirror]:
    index = EntryMirror(tmp_path / "fts.sqlite")
    yield index
    index.close()


@pytest.fixture
def filled(fts: EntryMirror) -> EntryMirror:
    with fts.transaction() as db:
        fts.upsert(db, [make_entry(i, text) for i, text in CORPUS.items()])
    return fts


class TestMatchQuery:
    def test_terms_are_quoted_and_ored(self) -> None:
        assert Query.parse("LanceDB quotes").match() == '"lancedb" OR "quotes"'

    def test_stopwords_are_dropped(self) -> None:
        assert Query.parse("how do I install the package").match() == '"install" OR "package"'

    def test_only_stopwords_are_kept_when_nothing_else(self) -> None:
        assert Query.parse("the").match() == '"the"'

    def test_no_terms_gives_none(self) -> None:
        assert Query.parse("  ** -- ()  ").match() is None
        assert Query.parse("").match() is None

    def test_duplicate_terms_once(self) -> None:
        assert Query.parse("Quote quote QUOTE").match() == '"quote"'

    def test_prefix_last(self) -> None:
        assert Query.parse("lance inst", prefix_last=True).match() == '"lance" OR "inst"*'
        # a trailing space means the last word is complete
        assert Query.parse("lance inst ", prefix_last=True).match() == '"lance" OR "inst"'
        # a stopword as the last word gets no prefix
        assert Query.parse("install the", prefix_last=True).match() == '"install"'

    def test_prefix_applies_to_the_word_being_typed(self) -> None:
        # The last word repeats an earlier one: it is still the one being typed.
        assert Query.parse("db lance db", prefix_last=True).match() == '"db"* OR "lance"'


class TestSearch:
    def test_ranks_best_match_first(self, filled: EntryMirror) -> None:
        hits = KeywordSearcher(filled).search("lancedb quotes", 10)
        ids = [h.entry.id for h in hits]
        assert set(ids) == {"a", "e"}
        assert ids[0] == "e"  # more occurrences of both terms
        assert [h.rank for h in hits] == [1, 2]

    def test_scores_normalised_best_is_one(self, filled: EntryMirror) -> None:
        hits = KeywordSearcher(filled).search("lancedb quotes files installer", 10)
        assert len(hits) >= 3
        assert hits[0].score == 1.0
        assert all(0.0 < h.score <= 1.0 for h in hits)
        scores = [h.score for h in hits]
        assert scores == sorted(scores, reverse=True)
        assert all(h.bm25 < 0 for h in hits)

    def test_porter_stemming(self, filled: EntryMirror) -> None:
        ids = {h.entry.id for h in KeywordSearcher(filled).search("installing", 10)}
        assert "c" in ids

    def test_stopword_only_query_still_searches(self, fts: EntryMirror) -> None:
        with fts.transaction() as db:
            fts.upsert(db, [make_entry("x", "to be or not to be")])
        assert [h.entry.id for h in KeywordSearcher(fts).search("not", 5)] == ["x"]

    def test_stopwords_do_not_match_everything(self, filled: EntryMirror) -> None:
        ids = {h.entry.id for h in KeywordSearcher(filled).search("the installer", 10)}
        assert ids == {"c"}  # "the" occurs in b and c but is ignored

    def test_prefix_last(self, filled: EntryMirror) -> None:
        assert KeywordSearcher(filled).search("lanc", 5) == []
        assert {
            h.entry.id
            for h in KeywordSearcher(filled).search(Query.parse("lanc", prefix_last=True), 5)
        } == {"a", "e"}

    def test_category_filter(self, fts: EntryMirror) -> None:
        entries = [make_entry(f"g{i}", f"cache cache cache entry {i}") for i in range(8)]
        entries.append(make_entry("x", "a cache gotcha", category=Category.GOTCHA))
        with fts.transaction() as db:
            fts.upsert(db, entries)
        hits = KeywordSearcher(fts).search(Query.parse("cache", category=Category.GOTCHA), 3)
        assert [h.entry.id for h in hits] == ["x"]
        assert hits[0].score == 1.0

    def test_limit(self, filled: EntryMirror) -> None:
        assert len(KeywordSearcher(filled).search("lancedb quotes files", 1)) == 1
        assert KeywordSearcher(filled).search("lancedb", 0) == []

    def test_section_title_and_keywords_are_searched(self, fts: EntryMirror) -> None:
        with fts.transaction() as db:
            fts.upsert(
                db,
                [
                    make_entry("t", "body text", section_title="Deployment > Kubernetes"),
                    make_entry("k", "other body", keywords=("helm", "charts")),
                ],
            )
        assert [h.entry.id for h in KeywordSearcher(fts).search("kubernetes", 5)] == ["t"]
        assert [h.entry.id for h in KeywordSearcher(fts).search("helm", 5)] == ["k"]

    @pytest.mark.parametrize(
        "query",
        [
            '"',
            '"""',
            "*",
            "NOT",
            "AND",
            "OR",
            "NOT lancedb",
            "lancedb AND",
            "(",
            ")",
            "(lancedb",
            "-",
            "-lancedb",
            ":",
            "content:lancedb",
            "id:x",
            "^",
            "^lancedb",
            "NEAR(",
            "NEAR(lancedb quotes, 2)",
            "lancedb*",
            "+",
            "{content}: x",
            "\x00",
            "lance\x00db",
            "'; DROP TABLE entries; --",
            "\\",
            "😀 émoji ünïcode 中文",
        ],
    )
    def test_fts5_syntax_never_raises(self, filled: EntryMirror, query: str) -> None:
        for prefix_last in (False, True):
            hits = KeywordSearcher(filled).search(Query.parse(query, prefix_last=prefix_last), 5)
            assert all(0.0 <= h.score <= 1.0 for h in hits)
        assert filled.count() == len(CORPUS)

    def test_operator_words_are_searched_as_words(self, fts: EntryMirror) -> None:
        with fts.transaction() as db:
            fts.upsert(db, [make_entry("n", "do NOT use near matches"), make_entry("o", "other")])
        assert [h.entry.id for h in KeywordSearcher(fts).search("NOT NEAR", 5)] == ["n"]

    def test_huge_query_is_fast_and_works(self, filled: EntryMirror) -> None:
        assert KeywordSearcher(filled).search("x" * 1_000_000, 5) == []
        words = "lancedb " + " ".join(f"w{i}" for i in range(150_000))  # ~1 MB, 150k terms
        started = time.monotonic()
        assert {h.entry.id for h in KeywordSearcher(filled).search(words, 5)} == {"a", "e"}
        assert time.monotonic() - started < 6.0  # 150k OR-ed terms took ~12 s
        match = Query.parse(words).match()
        assert match is not None
        assert match.count(" OR ") + 1 == MAX_QUERY_TERMS

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(query=st.text(), prefix_last=st.booleans())
    def test_any_text_never_raises(
        self, tmp_path_factory: pytest.TempPathFactory, query: str, prefix_last: bool
    ) -> None:
        index = _shared_index(tmp_path_factory)
        hits = KeywordSearcher(index).search(Query.parse(query, prefix_last=prefix_last), 5)
        assert all(0.0 <= h.score <= 1.0 for h in hits)


_SHARED: dict[str, EntryMirror] = {}


def _shared_index(factory: pytest.TempPathFactory) -> EntryMirror:
    # Hypothesis reruns the test body many times; one index for all examples keeps it fast.
    if "index" not in _SHARED:
        index = EntryMirror(factory.mktemp("fts-prop") / "fts.sqlite")
        with index.transaction() as db:
            index.upsert(db, [make_entry(i, text) for i, text in CORPUS.items()])
        _SHARED["index"] = index
    return _SHARED["index"]


class TestMirror:
    def test_round_trip_of_every_field(self, fts: EntryMirror) -> None:
        entry = Entry(
            id="full",
            content="Everything — ünïcode, \"quotes\" and 'apostrophes'",
            category=Category.PATTERN,
            source=Source.MARKDOWN,
            file_path="patterns/errors.md",
            section_title="Errors > Retry",
            keywords=("retry", "backoff"),
            reference_count=3,
            promoted=True,
            promoted_at="2025-02-02T00:00:00+00:00",
            created_at="2025-01-01T00:00:00+00:00",
            updated_at="2025-01-03T00:00:00+00:00",
            content_hash="abc",
            line_start=10,
            line_end=20,
        )
        with fts.transaction() as db:
            fts.upsert(db, [entry])
        assert fts.get("full") == entry

    def test_upsert_replaces_by_id(self, filled: EntryMirror) -> None:
        with filled.transaction() as db:
            filled.upsert(db, [make_entry("a", "completely different words now")])
        assert filled.count() == len(CORPUS)
        assert KeywordSearcher(filled).search("camelcase", 5) == []
        assert [h.entry.id for h in KeywordSearcher(filled).search("completely", 5)] == ["a"]

    def test_delete(self, filled: EntryMirror) -> None:
        with filled.transaction() as db:
            filled.delete(db, ["a", "e", "missing"])
        assert filled.count() == len(CORPUS) - 2
        assert KeywordSearcher(filled).search("lancedb", 5) == []
        assert filled.get("a") is None
        assert filled.integrity_ok()

    def test_clear(self, filled: EntryMirror) -> None:
        with filled.transaction() as db:
            filled.clear(db)
        assert filled.count() == 0
        assert KeywordSearcher(filled).search("lancedb", 5) == []
        assert filled.integrity_ok()

    def test_transaction_rolls_back_on_error(self, filled: EntryMirror) -> None:
        with pytest.raises(RuntimeError), filled.transaction() as db:
            filled.delete(db, ["a"])
            raise RuntimeError("boom")
        assert filled.get("a") is not None

    def test_get_many_and_find_by_hash(self, fts: EntryMirror) -> None:
        same = "shared paragraph"
        with fts.transaction() as db:
            fts.upsert(
                db,
                [
                    make_entry("m1", same, source=Source.MARKDOWN, file_path="one.md"),
                    make_entry("m2", same, source=Source.MARKDOWN, file_path="two.md"),
                    make_entry("other", "something else"),
                ],
            )
        assert set(fts.get_many(["m1", "other", "nope"])) == {"m1", "other"}
        assert len(fts.get_many([f"id{i}" for i in range(1200)])) == 0  # chunked IN lists
        assert {e.id for e in fts.find_by_hash(content_hash(same))} == {"m1", "m2"}
        assert [e.id for e in fts.find_by_hash(content_hash(same), file_path="two.md")] == ["m2"]
        assert fts.file_paths() == {"one.md", "two.md"}

    def test_list_newest_first_with_filters(self, fts: EntryMirror) -> None:
        with fts.transaction() as db:
            fts.upsert(
                db,
                [
                    make_entry("old", "x", created_at="2025-01-01T00:00:00+00:00"),
                    make_entry(
                        "mid",
                        "y",
                        category=Category.GOTCHA,
                        created_at="2025-01-02T00:00:00+00:00",
                    ),
                    make_entry(
                        "new",
                        "z",
                        source=Source.SESSION,
                        created_at="2025-01-03T00:00:00+00:00",
                    ),
                ],
            )
        assert [e.id for e in fts.recent()] == ["new", "mid", "old"]
        assert [e.id for e in fts.recent(limit=2, offset=1)] == ["mid", "old"]
        assert [e.id for e in fts.recent(category=Category.GOTCHA)] == ["mid"]
        assert [e.id for e in fts.recent(source=Source.SESSION)] == ["new"]
        assert fts.count(source=Source.MANUAL) == 2
        assert fts.counts_by("category") == {"general": 2, "gotcha": 1}
        with pytest.raises(ValueError):
            fts.counts_by("content; DROP TABLE entries")


class TestStateAndRecovery:
    def test_new_file_is_recreated_and_pending(self, fts: EntryMirror) -> None:
        assert fts.recreated
        assert fts.pending

    def test_pending_lifecycle(self, tmp_path: Path) -> None:
        path = tmp_path / "fts.sqlite"
        index = EntryMirror(path)
        with index.transaction() as db:
            index.set_state(db, "pending", "0")
        assert not index.pending
        index.mark_pending()
        assert index.pending
        index.close()
        reopened = EntryMirror(path)
        assert reopened.pending  # survives a "crash" (close without clearing)
        assert not reopened.recreated
        with reopened.transaction() as db:
            reopened.set_state(db, "pending", "0")
            reopened.set_state(db, "store_version", "7")
        reopened.close()
        again = EntryMirror(path)
        assert not again.pending
        assert again.state("store_version") == "7"
        again.close()

    def test_pending_not_cleared_by_a_failed_transaction(self, fts: EntryMirror) -> None:
        fts.mark_pending()
        with pytest.raises(RuntimeError), fts.transaction() as db:
            fts.set_state(db, "pending", "0")
            raise RuntimeError("crash before commit")
        assert fts.pending

    def test_existing_file_is_not_recreated(self, tmp_path: Path) -> None:
        path = tmp_path / "fts.sqlite"
        first = EntryMirror(path)
        with first.transaction() as db:
            first.upsert(db, [make_entry("a", "kept across opens")])
        first.close()
        second = EntryMirror(path)
        assert not second.recreated
        assert second.get("a") is not None
        second.close()

    def test_corrupt_file_is_recreated(self, tmp_path: Path) -> None:
        path = tmp_path / "fts.sqlite"
        path.write_bytes(b"this is not a database\x00" * 512)
        index = EntryMirror(path)
        assert index.recreated
        assert index.pending
        assert index.count() == 0
        with index.transaction() as db:
            index.upsert(db, [make_entry("a", "works again")])
        assert [h.entry.id for h in KeywordSearcher(index).search("works", 5)] == ["a"]
        assert index.integrity_ok()
        index.close()
        assert (tmp_path / "fts.sqlite.corrupt").exists()

    def test_corrupted_page_of_a_real_index_is_recreated(self, tmp_path: Path) -> None:
        path = tmp_path / "fts.sqlite"
        index = EntryMirror(path)
        with index.transaction() as db:
            index.upsert(db, [make_entry(str(i), f"entry number {i}") for i in range(50)])
        index.close()
        data = bytearray(path.read_bytes())
        data[:100] = b"\xff" * 100  # destroy the header
        path.write_bytes(bytes(data))
        reopened = EntryMirror(path)
        assert reopened.recreated
        assert reopened.count() == 0
        reopened.close()

    def test_other_schema_version_is_recreated(self, tmp_path: Path) -> None:
        path = tmp_path / "fts.sqlite"
        EntryMirror(path).close()
        db = sqlite3.connect(path)
        db.execute("UPDATE fts_state SET value='0' WHERE key='schema'")
        db.commit()
        db.close()
        index = EntryMirror(path)
        assert index.recreated
        assert index.state("schema") == SCHEMA_VERSION
        index.close()

    def test_two_connections_see_each_others_writes(self, tmp_path: Path) -> None:
        path = tmp_path / "fts.sqlite"
        writer, reader = EntryMirror(path), EntryMirror(path)
        with writer.transaction() as db:
            writer.upsert(db, [make_entry("a", "visible elsewhere")])
        assert [h.entry.id for h in KeywordSearcher(reader).search("visible", 5)] == ["a"]
        writer.close()
        reader.close()


class TestReadConnection:
    """Keyword search reads on a connection of its own (so that a hybrid search's two
    halves do not wait for each other); it must see what the shared one writes, follow a
    reopen, and give way to the shared one where it cannot read."""

    def test_sees_writes_committed_after_it_opened(self, tmp_path: Path) -> None:
        mirror = EntryMirror(tmp_path / "fts.sqlite")
        search = KeywordSearcher(mirror)
        with mirror.transaction() as db:
            mirror.upsert(db, [make_entry("a", "glacier retreat notes")])
        assert [h.entry.id for h in search.search("glacier", 5)] == ["a"]
        with mirror.transaction() as db:
            mirror.upsert(db, [make_entry("b", "glacier calving front")])
            mirror.delete(db, ["a"])
        assert [h.entry.id for h in search.search("glacier", 5)] == ["b"]
        mirror.close()

    def test_follows_a_reopen_onto_a_replaced_file(self, tmp_path: Path) -> None:
        path = tmp_path / "fts.sqlite"
        mirror = EntryMirror(path)
        with mirror.transaction() as db:
            mirror.upsert(db, [make_entry("old", "volcano ash cloud")])
        search = KeywordSearcher(mirror)
        assert search.search("volcano", 5)  # the read connection is open on the old file
        for suffix in ("", "-wal", "-shm"):
            path.with_name(path.name + suffix).unlink(missing_ok=True)
        other = EntryMirror(path)
        with other.transaction() as db:
            other.upsert(db, [make_entry("new", "volcano lava flow")])
        other.close()
        assert mirror.replaced()
        mirror.reopen()
        assert [h.entry.id for h in search.search("volcano", 5)] == ["new"]
        mirror.close()

    def test_reads_a_file_that_shrank_and_grew_under_it(self, tmp_path: Path) -> None:
        """Another process's VACUUM shrinking the file under the read connection, and
        writes growing it again, are read right."""
        path = tmp_path / "fts.sqlite"
        mirror = EntryMirror(path)
        with mirror.transaction() as db:
            mirror.upsert(db, [make_entry(f"e{i}", f"reef survey {i} " * 200) for i in range(300)])
        other = sqlite3.connect(path)
        other.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the rows into the file itself
        size = path.stat().st_size
        search = KeywordSearcher(mirror)
        assert len(search.search("reef", 500)) == 300
        with mirror.transaction() as db:
            mirror.delete(db, [f"e{i}" for i in range(1, 300)])
        other.execute("VACUUM")
        other.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        other.close()
        assert path.stat().st_size < size / 4
        assert [h.entry.id for h in search.search("reef", 500)] == ["e0"]
        with mirror.transaction() as db:
            mirror.upsert(db, [make_entry(f"n{i}", f"reef atoll {i} " * 200) for i in range(200)])
        assert len(search.search("atoll", 500)) == 200
        assert len(search.search("reef", 500)) == 201
        mirror.close()

    def test_falls_back_to_the_shared_connection(self, tmp_path: Path) -> None:
        mirror = EntryMirror(tmp_path / "fts.sqlite")
        with mirror.transaction() as db:
            mirror.upsert(db, [make_entry("a", "tundra permafrost thaw")])
        search = KeywordSearcher(mirror)
        assert search.search("tundra", 5)
        assert mirror.reader.is_open
        mirror.reader._db.close()  # type: ignore[union-attr]  # it can no longer read
        assert [h.entry.id for h in search.search("tundra", 5)] == ["a"]
        assert not mirror.reader.is_open  # dropped; the shared connection answers now
        assert [h.entry.id for h in search.search("permafrost", 5)] == ["a"]
        mirror.close()
