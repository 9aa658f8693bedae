"""The ONNX query and document path: same vectors as sentence-transformers, no torch."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.embedding import onnx_files
from engine.embedding.base import DIMENSION, MODEL_ID
from engine.embedding.default import default_embedder
from engine.embedding.onnx_embedder import OnnxEmbedder
from engine.embedding.reference import SentenceTransformerEmbedder

REPO = Path(__file__).resolve().parents[2]

SAMPLE = [
    "a",
    "LanceDB filters need double quotes around camelCase columns",
    "How do sync waves order the resources of an Argo CD application?",
    "def add(a, b):\n    return a + b\n",
    "Ünïcödé, 日本語のテキスト and emoji 🚀 in one line",
    "word " * 400,  # longer than the model's 256-token window: both paths cut it
    "  leading and trailing blanks  ",
    "SELECT * FROM entries WHERE category = 'gotcha';",
]


def test_unloaded_embedder_reports_it() -> None:
    embedder = OnnxEmbedder()
    assert not embedder.loaded
    assert embedder.model_id == MODEL_ID  # fp32 shares vectors (and caches) with torch
    assert OnnxEmbedder("int8").model_id == f"{MODEL_ID}-int8"
    assert embedder.dimension == DIMENSION
    assert embedder.embed_documents([]).shape == (0, DIMENSION)
    assert not embedder.loaded
    default = default_embedder()
    assert isinstance(default, OnnxEmbedder)
    assert (default.variant, default.document_variant) == ("fp32", "int8")
    assert default.model_id == f"{MODEL_ID}-int8"  # cached document vectors are int8 ones


@pytest.mark.slow
class TestAgainstSentenceTransformers:
    """The real model both ways: vectors must agree so both paths can share an index."""

    @pytest.fixture(scope="class")
    def reference(self) -> np.ndarray:
        return SentenceTransformerEmbedder().embed_documents(SAMPLE)

    @pytest.fixture(scope="class")
    def onnx(self) -> OnnxEmbedder:
        embedder = OnnxEmbedder()
        embedder.load()
        return embedder

    def test_documents_match(self, onnx: OnnxEmbedder, reference: np.ndarray) -> None:
        assert onnx._fallback is None  # really onnxruntime, not the fallback
        vectors = onnx.embed_documents(SAMPLE)
        assert vectors.shape == (len(SAMPLE), DIMENSION)
        assert vectors.dtype == np.float32
        cosines = (vectors * reference).sum(axis=1)
        assert cosines.min() >= 0.9999, cosines

    def test_queries_match_and_batching_does_not_change_vectors(
        self, onnx: OnnxEmbedder, reference: np.ndarray
    ) -> None:
        for text, expected in zip(SAMPLE, reference, strict=True):
            assert float(onnx.embed_query(text) @ expected) >= 0.9999
        # Length-sorted batches of 3 pad differently from one batch of all: same vectors.
        small = OnnxEmbedder(batch_size=3).embed_documents(SAMPLE)
        np.testing.assert_allclose(small, onnx.embed_documents(SAMPLE), atol=1e-5)
        assert (small * reference).sum(axis=1).min() >= 0.9999

    def test_int8_variant_is_close_but_kept_apart(self, reference: np.ndarray) -> None:
        int8 = OnnxEmbedder("int8")
        vectors = int8.embed_documents(SAMPLE)
        assert onnx_files.onnx_path("int8").is_file()
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
        # Weight-only quantisation moves vectors a little (bench/RESULTS.md): close, not equal.
        cosines = (vectors * reference).sum(axis=1)
        assert cosines.mean() > 0.98, cosines
        assert cosines.min() < 0.9999  # really the quantised model

    def test_default_embedder_queries_in_fp32_and_embeds_documents_in_int8(
        self, reference: np.ndarray
    ) -> None:
        default = default_embedder()
        queries = np.stack([default.embed_query(text) for text in SAMPLE])
        assert (queries * reference).sum(axis=1).min() >= 0.9999
        assert default.document_variant not in default._sessions  # type: ignore[attr-defined]
        documents = default.embed_documents(SAMPLE)
        cosines = (documents * reference).sum(axis=1)
        assert cosines.mean() > 0.98 and cosines.min() < 0.9999, cosines

    def test_query_path_imports_no_torch(self, onnx: OnnxEmbedder) -> None:
        # A fresh process embeds without torch, and without onnx (the graphs are shipped).
        code = (
            "import sys; from engine.embedding.onnx_embedder import OnnxEmbedder;"
            "v = OnnxEmbedder().embed_query('lean start'); assert v.shape == (384,);"
            "print(sorted(m for m in ('torch', 'sentence_transformers', 'transformers',"
            " 'onnx', 'safetensors') if m in sys.modules))"
        )
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
            cwd=REPO,
            env=dict(os.environ),
        )
        assert out.stdout.strip() == "[]", out.stderr


@pytest.mark.slow
def test_falls_back_to_sentence_transformers_when_onnx_fails(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def no_runtime(variant: str = "fp32") -> Path:
        raise ImportError("onnxruntime is not installed")

    monkeypatch.setattr("engine.embedding.onnx_embedder.onnx_path", no_runtime)
    embedder = OnnxEmbedder()
    vector = embedder.embed_query("still works")
    assert vector.shape == (DIMENSION,)
    assert isinstance(embedder._fallback, SentenceTransformerEmbedder)
    assert "using sentence-transformers" in caplog.text


def test_without_the_reference_extra_the_cause_is_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_runtime(variant: str = "fp32") -> Path:
        raise ImportError("onnxruntime is not installed")

    monkeypatch.setattr("engine.embedding.onnx_embedder.onnx_path", no_runtime)
    monkeypatch.setattr("engine.embedding.onnx_embedder.reference_installed", lambda: False)
    embedder = OnnxEmbedder()
    with pytest.raises(ImportError, match="onnxruntime is not installed"):
        embedder.embed_query("no model at all")
    assert embedder._fallback is None and not embedder.loaded
