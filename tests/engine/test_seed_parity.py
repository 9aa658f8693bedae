"""Seed parity (issue #20): behaviours of the seed documents, tested in the engine.

Each test is named after the seed section it comes from (``seedNNN`` = the file
/work/shared/seeds/NNN_*.txt); docs/SEED_PARITY.md lists them.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from fakes import ControlledEmbedder, FakeEmbedder

from engine.core.errors import ConfigError, InvalidInputError
from engine.services.memory import Memory
from engine.services.parts import parts_of

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
    from engine.search.gate import covers_all_terms

    entry = memory.add("Plant the turnip seed in spring").entry
    assert covers_all_terms("turnips planting", entry)
    assert covers_all_terms("seeds", entry)
    assert not covers_all_terms("turnips autumn", entry)
    # In hybrid search the fake embedder sees no shared word ("turnips" ≠ "turnip"), so
    # only the stemmed all-terms check lets the keyword hit through the gate.
    found = memory.search("turnips", mode="hybrid").results
    assert [r.entry.id for r in found] == [entry.id]
    assert (found[0].explanation.vector_similarity or 0.0) < 0.2


def test_seed002_query_embedding_lru_cache(memory: Memory, fake_embedder: FakeEmbedder) -> None:
    from engine.embedding.query_cache import QueryCache

    memory.add(CLOSE)
    before = fake_embedder.queries
    first = memory.search("sprocket grease", mode="vector").results
    again = memory.search("sprocket grease", mode="hybrid").results
    assert fake_embedder.queries == before + 1
    assert [r.entry.id for r in first] == [r.entry.id for r in again]
    memory.search("another question", mode="vector")
    assert fake_embedder.queries == before + 2
    # Least recently used first out; the vector handed out is a copy.
    cache = QueryCache(capacity=2)
    for text in ("a", "b", "a", "c", "a", "b"):
        cache.embed_query(fake_embedder, text)[0] = 99.0
    assert (cache.hits, cache.misses) == (2, 4)  # "b" was evicted by "c"
    assert cache.embed_query(fake_embedder, "a")[0] != 99.0


def test_seed004_v01_json_config_keys_are_mapped_or_ignored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from engine.core.config import load_config

    config_file = tmp_path / ".claude" / "memory.config.json"
    config_file.parent.mkdir()
    legacy = {
        "knowledgeDir": ".claude/knowledge",
        "vectorsDir": ".claude/memory/vectors",  # the default: silently accepted
        "chunkSize": 1500,
        "model": "Xenova/all-MiniLM-L6-v2",
        "ignoredDirs": ["node_modules", "dist/", "legacy"],
        "showProgress": True,
        "ftsDbName": "keywords.sqlite",  # not the default: warned about
        "minScore": 0.3,
    }
    config_file.write_text(json.dumps(legacy), encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        config = load_config(tmp_path)
    assert config.chunk_size == 1500 and config.min_score == 0.3
    assert config.analyzer_exclude == ("node_modules/", "dist/", "legacy/")
    assert config.sources_exclude == ("node_modules/", "dist/", "legacy/")
    warned = [r.getMessage() for r in caplog.records]
    assert len(warned) == 1 and "'ftsDbName' is ignored" in warned[0]
    config_file.write_text(json.dumps({"model": "bge-large", "showProgress": False}), "utf-8")
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        load_config(tmp_path)
    assert {r.getMessage().split("'")[1] for r in caplog.records} == {"model", "showProgress"}
    config_file.write_text(json.dumps({"ignoredDirs": "node_modules"}), "utf-8")
    with pytest.raises(ConfigError, match="'ignoredDirs'"):
        load_config(tmp_path)


def test_seed003_f2_single_letter_terms_do_not_match_everything(memory: Memory) -> None:
    from engine.search.query import build_match_query

    notes = ["Sprocket grease weekly", "Slow start of the server", "The C compiler flags"]
    for note in notes:
        memory.add(note)

    def found(query: str, prefix_last: bool) -> list[str]:
        hits = memory.search(query, mode="keyword", prefix_last=prefix_last).results
        return [r.entry.content for r in hits]

    # Typing "s": a one-letter prefix would match every word starting with s.
    assert found("s", prefix_last=True) == []
    assert build_match_query("s", prefix_last=True) == '"s"'
    assert found("c", prefix_last=True) == ["The C compiler flags"]  # the word "c"
    assert sorted(found("sl", prefix_last=True)) == ["Slow start of the server"]
    assert found("c", prefix_last=False) == ["The C compiler flags"]


def test_seed003_f8_csv_multi_line_records_round_trip_rfc4180() -> None:
    import csv
    import io

    from engine import render
    from engine.core.models import Category, Entry, SearchResult

    content = 'First line, with "quotes"\r\nsecond line\n\nfourth line after a blank one'
    entry = Entry(id="e1", content=content, category=Category.GOTCHA, section_title="A\nB")
    other = Entry(id="e2", content="one line")
    output = render([SearchResult(entry, 0.5), SearchResult(other, 0.4)], "csv", query="q")
    first, second = list(csv.DictReader(io.StringIO(output, newline="")))
    assert (first["id"], first["content"], first["sectionTitle"]) == ("e1", content, "A\nB")
    assert (second["id"], second["content"]) == ("e2", "one line")


def test_seed004_analyzer_overview_of_an_empty_repository(tmp_path: Path) -> None:
    from engine.analyzer import analyze
    from engine.analyzer.entries import discovery_drafts

    empty = tmp_path / "empty"
    (empty / ".git").mkdir(parents=True)
    overview = discovery_drafts(analyze(empty))[0]
    assert overview.section_title == "Project overview"
    assert "0 files in 0 directories" not in overview.content
    assert "no files to analyse yet" in overview.content
    one = tmp_path / "one"
    one.mkdir()
    (one / "main.py").write_text("print('hi')\n", encoding="utf-8")
    size = discovery_drafts(analyze(one))[0].content
    assert "Size: 1 file in " in size and "1 line (1 source file, 0 test files)" in size


AUTH = "Auth uses JWT with 24h expiry"
PARAPHRASE = "Authentication uses JWT tokens with 24-hour expiry"
UNRELATED = "Deploys go out on Fridays"
NEAR_VECTORS = {AUTH: [1.0, 0.0], PARAPHRASE: [0.95, 0.312], UNRELATED: [0.0, 1.0]}  # cos 0.95


def _near_memory(tmp_path: Path, policy: str | None) -> tuple[Memory, ControlledEmbedder]:
    if policy is not None:
        (tmp_path / ".claude").mkdir(exist_ok=True)
        (tmp_path / ".claude" / "memory.config.toml").write_text(
            f'near_duplicate = "{policy}"\n', encoding="utf-8"
        )
    embedder = ControlledEmbedder(NEAR_VECTORS)
    return Memory.open(tmp_path, embedder=embedder), embedder


def test_seed002_near_duplicate_on_add_is_reported_and_kept_by_default(tmp_path: Path) -> None:
    memory, embedder = _near_memory(tmp_path, None)
    with memory:
        first = memory.add(AUTH)
        assert first.near_duplicate is None
        calls = embedder.texts_embedded
        second = memory.add(PARAPHRASE)
        assert embedder.texts_embedded == calls + 1  # checked and stored with one embedding
        assert second.created and second.near_duplicate is not None
        assert second.near_duplicate.entry.id == first.entry.id
        assert second.near_duplicate.similarity == pytest.approx(0.95, abs=0.01)
        assert memory.add(UNRELATED).near_duplicate is None
        again = memory.add(AUTH)  # identical text: the exact duplicate, not a near one
        assert (again.created, again.near_duplicate) == (False, None)
        assert memory.count() == 3


@pytest.mark.parametrize(("policy", "stored", "reported"), [("skip", 1, True), ("keep", 2, False)])
def test_seed002_near_duplicate_policy_skip_or_keep(
    tmp_path: Path, policy: str, stored: int, reported: bool
) -> None:
    memory, _ = _near_memory(tmp_path, policy)
    with memory:
        first = memory.add(AUTH)
        second = memory.add(PARAPHRASE)
        assert memory.count() == stored
        assert (second.near_duplicate is not None) is reported
        assert second.created is (policy == "keep")
        if policy == "skip":
            assert second.entry.id == first.entry.id


def test_seed002_near_duplicate_check_never_stops_an_add(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory, _ = _near_memory(tmp_path, None)
    with memory:
        memory.add(AUTH)

        def broken(*args: object, **kwargs: object) -> None:
            raise OSError("vector store unreadable")

        monkeypatch.setattr(parts_of(memory).searcher.vectors, "search", broken)
        result = memory.add(PARAPHRASE)
        assert result.created and result.near_duplicate is None
        assert memory.count() == 2
