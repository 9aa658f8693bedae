"""The embedder every face uses, chosen in one place."""

from __future__ import annotations

from engine.embedding.base import Embedder
from engine.embedding.onnx_embedder import OnnxEmbedder


def default_embedder() -> Embedder:
    """The embedder every face uses: the packaged model through onnxruntime (no torch),
    queries in fp32 (sentence-transformers' vectors), documents in int8 (twice the
    indexing rate; SciFact nDCG@10 within 0.01 of fp32, see bench/RESULTS.md)."""
    return OnnxEmbedder("fp32", document_variant="int8")
