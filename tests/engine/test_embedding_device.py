"""Where embeddings run: CUDA when onnxruntime offers it, the CPU otherwise."""

from __future__ import annotations

import numpy as np
import pytest

from engine.embedding.onnx_embedder import DEVICE_ENV, OnnxEmbedder, choose_providers

CPU = "CPUExecutionProvider"
CUDA = "CUDAExecutionProvider"


def test_cpu_only_install_asks_for_the_cpu() -> None:
    assert choose_providers([CPU], None) == [CPU]


def test_cuda_comes_first_with_the_cpu_behind_it() -> None:
    assert choose_providers([CUDA, CPU], None) == [CUDA, CPU]
    assert choose_providers([CUDA, CPU], "auto") == [CUDA, CPU]


def test_device_cpu_keeps_the_cpu_even_with_cuda() -> None:
    assert choose_providers([CUDA, CPU], " CPU ") == [CPU]


def _cuda_available() -> bool:
    try:
        import onnxruntime as ort
    except ImportError:
        return False
    return CUDA in ort.get_available_providers()


@pytest.mark.skipif(not _cuda_available(), reason="onnxruntime has no CUDA here")
def test_cuda_vectors_match_the_cpu_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = ["install the chart with helm", "def sync(app): ...", "x" * 2000, "Argo CD"]
    monkeypatch.setenv(DEVICE_ENV, "cpu")
    cpu = OnnxEmbedder(document_variant="int8").embed_documents(texts)
    monkeypatch.setenv(DEVICE_ENV, "auto")
    gpu_embedder = OnnxEmbedder(document_variant="int8")
    gpu = gpu_embedder.embed_documents(texts)
    assert gpu_embedder._sessions["int8"].get_providers()[0] == CUDA
    cosine = np.sum(cpu * gpu, axis=1) / (np.linalg.norm(cpu, axis=1) * np.linalg.norm(gpu, axis=1))
    assert float(cosine.min()) > 1 - 1e-3
