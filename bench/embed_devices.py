"""Document embedding speed per device: chunks/s of the Argo CD docs on each provider.

    python -m bench.embed_devices [--limit N]

Embeds the corpus's chunks (int8 documents, as indexing does) once on the CPU and, where
onnxruntime offers CUDA (onnxruntime-gpu), once on the GPU; prints chunks/s for each and
the lowest cosine between the two devices' vectors (target > 1 - 1e-3).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from bench.index_corpus import CORPUS
from engine.embedding.onnx_embedder import DEVICE_ENV, OnnxEmbedder
from engine.markdown.chunking import chunk_markdown


def _texts(limit: int) -> list[str]:
    texts = [
        chunk.content
        for path in sorted(CORPUS.rglob("*.md"))
        for chunk in chunk_markdown(path.read_text(encoding="utf-8", errors="replace"))
    ]
    return texts[:limit]


def _embed(texts: list[str], device: str) -> tuple[np.ndarray, float, str]:
    os.environ[DEVICE_ENV] = device
    embedder = OnnxEmbedder(document_variant="int8")
    embedder.embed_documents(texts[:8])  # load and warm up
    start = time.perf_counter()
    vectors = embedder.embed_documents(texts)
    seconds = time.perf_counter() - start
    provider = embedder._sessions["int8"].get_providers()[0]
    return vectors, len(texts) / seconds, provider


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=100_000, help="at most this many chunks")
    texts = _texts(parser.parse_args().limit)
    cpu, cpu_rate, _ = _embed(texts, "cpu")
    print(f"{len(texts)} chunks  cpu: {cpu_rate:.1f} chunks/s")
    import onnxruntime as ort

    if "CUDAExecutionProvider" not in ort.get_available_providers():
        print("no CUDA in this onnxruntime: CPU only")
        return
    gpu, gpu_rate, provider = _embed(texts, "auto")
    print(f"gpu provider: {provider}")
    cosine = np.sum(cpu * gpu, axis=1) / (np.linalg.norm(cpu, axis=1) * np.linalg.norm(gpu, axis=1))
    print(
        f"gpu: {gpu_rate:.1f} chunks/s  ({gpu_rate / cpu_rate:.1f}x)  min cosine {cosine.min():.5f}"
    )


if __name__ == "__main__":
    main()
