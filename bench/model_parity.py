"""The shipped model against sentence-transformers on 1,000 texts of ../shared/eval.

    python -m bench.model_parity [--old-fp32 FILE --old-int8 FILE]

Embeds the sample of ``tests/engine/test_packaged_model.py`` (300 SciFact abstracts, 700
LoCoMo turns) with sentence-transformers on the fp32 weights (the reference extra), with
the ONNX graphs shipped with the float16 weights (fp32 and int8), and, when given,
with ONNX files made another way (the torch export of earlier versions), and prints each
one's cosine to the reference: minimum, mean, and the time taken.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "engine"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-fp32", type=Path)
    parser.add_argument("--old-int8", type=Path)
    args = parser.parse_args()

    from test_packaged_model import _eval_texts

    from engine.embedding.onnx_embedder import OnnxEmbedder
    from engine.embedding.reference import SentenceTransformerEmbedder

    texts = _eval_texts()
    started = time.perf_counter()
    reference = SentenceTransformerEmbedder().embed_documents(texts)
    print(f"sentence-transformers (fp32 weights): {time.perf_counter() - started:.1f} s")
    runs: list[tuple[str, OnnxEmbedder]] = [
        ("shipped float16 weights, graph fp32", OnnxEmbedder("fp32")),
        ("shipped float16 weights, graph int8", OnnxEmbedder("int8")),
    ]
    for label, path in (("torch export fp32", args.old_fp32), ("torch export int8", args.old_int8)):
        if path is not None:
            runs.append((label, _from_file(path)))
    print(f"{len(texts)} texts | min cosine | mean cosine | seconds")
    for label, embedder in runs:
        started = time.perf_counter()
        vectors = embedder.embed_documents(texts)
        took = time.perf_counter() - started
        cosines = (vectors * reference).sum(axis=1)
        print(f"{label} | {cosines.min():.6f} | {cosines.mean():.6f} | {took:.1f}")


def _from_file(path: Path) -> object:
    """An :class:`OnnxEmbedder` that runs ``path`` instead of its own file."""
    from engine.embedding import onnx_embedder

    embedder = onnx_embedder.OnnxEmbedder("fp32")
    original = onnx_embedder.onnx_path
    onnx_embedder.onnx_path = lambda variant="fp32": path  # type: ignore[assignment]
    try:
        embedder.load()
    finally:
        onnx_embedder.onnx_path = original
    return embedder


if __name__ == "__main__":
    np.set_printoptions(precision=6)
    main()
