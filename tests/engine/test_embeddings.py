"""Embedding cache, the caching wrapper, and (slow) the real all-MiniLM-L6-v2 model."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from fakes import FakeEmbedder, cosine

from engine.core.hashing import content_hash
from engine.embedding.base import DIMENSION, MODEL_ID, Embedder
from engine.embedding.cache import CachedEmbedder, EmbeddingCache
from engine.embedding.reference import SentenceTransformerEmbedder


@pytest.fixture
def cache(tmp_path: Path) -> EmbeddingCache:
    cache = EmbeddingCache(tmp_path / "cache" / "embeddings.sqlite")
    yield cache  # type: ignore[misc]
    cache.close()


class TestEmbeddingCache:
    def test_round_trip(self, cache: EmbeddingCache) -> None:
        vector = np.arange(8, dtype=np.float32)
        cache.put_many([("h1", vector.tobytes())], "model-a")
        got = cache.get_many(["h1", "h2"], "model-a")
        assert set(got) == {"h1"}
        np.testing.assert_array_equal(np.frombuffer(got["h1"], dtype=np.float32), vector)

    def test_keyed_by_model(self, cache: EmbeddingCache) -> None:
        cache.put_many([("h1", b"\x00" * 8)], "model-a")
        assert cache.get_many(["h1"], "model-b") == {}

    def test_existing_keys_are_kept(self, cache: EmbeddingCache) -> None:
        cache.put_many([("h1", b"first...")], "m")
        cache.put_many([("h1", b"second..")], "m")
        assert cache.get_many(["h1"], "m") == {"h1": b"first..."}

    def test_many_keys_in_batches(self, cache: EmbeddingCache) -> None:
        items = [(f"h{i}", i.to_bytes(4, "little")) for i in range(1234)]
        cache.put_many(items, "m")
        got = cache.get_many([h for h, _ in items], "m")
        assert got == dict(items)

    def test_persists_across_opens(self, tmp_path: Path) -> None:
        path = tmp_path / "embeddings.sqlite"
        first = EmbeddingCache(path)
        first.put_many([("h", b"1234")], "m")
        first.close()
        second = EmbeddingCache(path)
        assert second.get_many(["h"], "m") == {"h": b"1234"}
        second.close()


class TestCachedEmbedder:
    def test_only_misses_reach_the_model(self, cache: EmbeddingCache) -> None:
        inner = FakeEmbedder()
        embedder = CachedEmbedder(inner, cache)
        first = embedder.embed_documents(["alpha beta", "gamma delta"])
        assert inner.texts_embedded == 2
        assert embedder.misses == 2
        second = embedder.embed_documents(["gamma delta", "epsilon", "alpha beta"])
        assert inner.texts_embedded == 3  # only "epsilon" was new
        assert inner.calls == 2
        assert embedder.misses == 3
        np.testing.assert_array_equal(second[0], first[1])
        np.testing.assert_array_equal(second[2], first[0])
        np.testing.assert_allclose(second[1], inner.vector("epsilon"))

    def test_duplicates_in_one_batch_are_embedded_once(self, cache: EmbeddingCache) -> None:
        inner = FakeEmbedder()
        embedder = CachedEmbedder(inner, cache)
        out = embedder.embed_documents(["same text", "same text\r\n", "  same text "])
        assert inner.texts_embedded == 1
        assert out.shape == (3, inner.dimension)
        np.testing.assert_array_equal(out[0], out[2])

    def test_cache_is_shared_through_the_file(self, tmp_path: Path) -> None:
        path = tmp_path / "embeddings.sqlite"
        first = CachedEmbedder(FakeEmbedder(), EmbeddingCache(path))
        first.embed_documents(["persisted text"])
        inner = FakeEmbedder()
        second = CachedEmbedder(inner, EmbeddingCache(path))
        second.embed_documents(["persisted text"])
        assert inner.texts_embedded == 0

    def test_models_do_not_share_vectors(self, cache: EmbeddingCache) -> None:
        CachedEmbedder(FakeEmbedder(model_id="one"), cache).embed_documents(["text"])
        other = FakeEmbedder(model_id="two")
        CachedEmbedder(other, cache).embed_documents(["text"])
        assert other.texts_embedded == 1

    def test_empty_batch(self, cache: EmbeddingCache) -> None:
        inner = FakeEmbedder()
        out = CachedEmbedder(inner, cache).embed_documents([])
        assert out.shape == (0, inner.dimension)

    def test_queries_are_not_cached(self, cache: EmbeddingCache) -> None:
        inner = FakeEmbedder()
        embedder = CachedEmbedder(inner, cache)
        embedder.embed_query("q")
        embedder.embed_query("q")
        assert inner.queries == 2
        assert cache.get_many([content_hash("q")], inner.model_id) == {}

    def test_forwards_identity_and_loading_state(self, cache: EmbeddingCache) -> None:
        inner = FakeEmbedder(dimension=32, model_id="fake-32")
        embedder = CachedEmbedder(inner, cache)
        assert embedder.model_id == "fake-32"
        assert embedder.dimension == 32
        assert embedder.loaded
        inner.loaded = False
        assert not embedder.loaded  # search(wait_for_model=False) depends on this
        assert isinstance(embedder, Embedder)


def test_importing_embeddings_does_not_import_torch() -> None:
    code = (
        "import sys, engine.embedding.base, engine.services.memory;"
        "heavy = [m for m in ('torch', 'sentence_transformers', 'lancedb') if m in sys.modules];"
        "print(heavy)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "[]"


def test_unloaded_model_reports_it(tmp_path: Path) -> None:
    embedder = SentenceTransformerEmbedder()
    assert not embedder.loaded
    assert embedder.model_id == MODEL_ID
    assert embedder.dimension == DIMENSION
    assert embedder.embed_documents([]).shape == (0, DIMENSION)
    assert not embedder.loaded  # an empty batch does not load the model


@pytest.mark.slow
class TestSentenceTransformerEmbedder:
    """The real model, loaded from the packaged weights with the network switched off."""

    @pytest.fixture(scope="class")
    def model(self) -> SentenceTransformerEmbedder:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("HF_HUB_OFFLINE", "1")
            patch.setenv("TRANSFORMERS_OFFLINE", "1")
            embedder = SentenceTransformerEmbedder()
            embedder.load()
        return embedder

    def test_unit_vectors_of_384_dimensions(self, model: SentenceTransformerEmbedder) -> None:
        assert model.loaded
        docs = model.embed_documents(["first sentence", "second sentence", "third"])
        assert docs.shape == (3, 384)
        assert docs.dtype == np.float32
        np.testing.assert_allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-4)
        query = model.embed_query("a query")
        assert query.shape == (384,)
        assert float(np.linalg.norm(query)) == pytest.approx(1.0, abs=1e-4)

    def test_related_sentences_are_closer_than_unrelated(
        self, model: SentenceTransformerEmbedder
    ) -> None:
        a, b, c = model.embed_documents(
            [
                "How do I reset my password?",
                "Steps to recover a forgotten account password",
                "The recipe needs two cups of flour and an egg",
            ]
        )
        assert cosine(a, b) > cosine(a, c) + 0.2
        query = model.embed_query("database connection pool exhausted")
        near, far = model.embed_documents(
            ["Too many open database connections exhaust the pool", "Bananas are yellow fruit"]
        )
        assert float(query @ near) > float(query @ far)

    def test_deterministic(self, model: SentenceTransformerEmbedder) -> None:
        first = model.embed_query("stable output")
        second = model.embed_documents(["stable output"])[0]
        np.testing.assert_allclose(first, second, atol=1e-5)

    def test_loads_without_network(self, tmp_path: Path) -> None:
        # A fresh process with the network unusable: proxies point nowhere, hub offline.
        env = {
            **os.environ,
            "HF_HUB_OFFLINE": "1",
            "HTTPS_PROXY": "http://127.0.0.1:9",
            "HTTP_PROXY": "http://127.0.0.1:9",
            "HF_HOME": str(tmp_path / "hf-home"),
        }
        code = (
            "from engine.embedding.reference import SentenceTransformerEmbedder;"
            "v = SentenceTransformerEmbedder().embed_query('offline works');"
            "print(v.shape[0])"
        )
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
            cwd=Path(__file__).resolve().parents[2],
        )
        assert out.returncode == 0, out.stderr[-2000:]
        assert out.stdout.strip().splitlines()[-1] == "384"
