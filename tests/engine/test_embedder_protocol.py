"""What an embedder offers is declared (engine/embedding/base.py), never probed: every
embedder implements the whole :class:`Embedder` protocol, a model without a cache
answers for the cache's members through :class:`Uncached`, and the engine asks them
directly (no ``getattr``/``isinstance`` on an embedder)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import numpy as np
import pytest
from fakes import FakeEmbedder

import engine
from engine.core.models import Entry
from engine.embedding.base import Embedder
from engine.embedding.cache import CachedEmbedder, EmbeddingCache
from engine.embedding.document import cached_entries, embed_entries
from engine.embedding.onnx_embedder import OnnxEmbedder
from engine.embedding.reference import SentenceTransformerEmbedder

DECLARED = ("loaded", "load", "model", "cache", "embed_keyed", "cached_keyed")
ENGINE = Path(engine.__file__).parent


def test_the_protocol_declares_what_the_engine_asks() -> None:
    members = {name for name, _ in inspect.getmembers(Embedder)}
    assert set(DECLARED) <= members


@pytest.mark.parametrize("make", [OnnxEmbedder, SentenceTransformerEmbedder, FakeEmbedder])
def test_every_model_is_an_embedder_without_a_cache(make: type) -> None:
    model = make()  # nothing is loaded: the models load on first use
    assert isinstance(model, Embedder)
    assert model.cache is None
    assert model.model is model


def test_a_model_without_a_cache_embeds_keyed_texts_as_documents() -> None:
    model = FakeEmbedder()
    entries = [Entry(id="a", content="alpha bravo"), Entry(id="b", content="charlie")]
    vectors, missing = cached_entries(model, entries)
    assert missing == [0, 1] and vectors.shape == (2, model.dimension)
    assert not vectors.any()  # no vector before the model computes it
    assert np.array_equal(embed_entries(model, entries)[1], model.vector("charlie"))


def test_the_cached_embedder_declares_its_cache_and_model(tmp_path: Path) -> None:
    inner = FakeEmbedder()
    cache = EmbeddingCache(tmp_path / "embeddings.sqlite")
    cached = CachedEmbedder(inner, cache)
    assert isinstance(cached, Embedder)
    assert cached.cache is cache and cached.model is inner
    entries = [Entry(id="a", content="alpha bravo")]
    embed_entries(cached, entries)
    vectors, missing = cached_entries(cached, entries)
    assert missing == [] and np.array_equal(vectors[0], inner.vector("alpha bravo"))
    cache.close()


@pytest.mark.parametrize(
    "module",
    ["services/memory.py", "search/searcher.py", "search/vector.py", "embedding/document.py"],
)
def test_nothing_probes_the_embedder(module: str) -> None:
    probe = re.compile(r"(getattr|isinstance|hasattr)\([^)]*embedder", re.IGNORECASE)
    source = (ENGINE / module).read_text(encoding="utf-8")
    assert [line for line in source.splitlines() if probe.search(line)] == []
