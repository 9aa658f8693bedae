"""Seed parity (issue #20): behaviours of the seed documents, tested in the engine.

Each test is named after the seed section it comes from (``seedNNN`` = the file
/work/shared/seeds/NNN_*.txt); docs/SEED_PARITY.md lists them.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from fakes import FakeEmbedder

from engine.core.errors import ConfigError, InvalidInputError
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
