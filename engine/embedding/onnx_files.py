"""The ONNX graphs of the packaged all-MiniLM-L6-v2, shipped built beside its weights.

``model.onnx`` (fp32: sentence-transformers' vectors, used for queries) holds no weights
of its own: it reads the float16 ones in ``model.safetensors`` in place (ONNX external
data), cast to float32 when onnxruntime loads it, but for the embedding tables: of those
only the rows a text uses are cast, as it runs (the same values; a third less load
time). ``model-int8.onnx`` (documents) is the
same graph with its weights quantised to int8, shipped without them: they are computed
from the float16 weights when it loads (:mod:`.int8_weights`, as ``model-int8.json``
describes). ``scripts/build_model_graphs.py`` writes the files (with ``onnx``, a
development dependency; tests check the shipped bytes are what it writes): nothing is
written at run time, so a first run loads the model like any other.

Loading reads no checksum (hashing 46 MB would cost every process a few tenths of a
second); ``memory-tui doctor`` compares the files with :data:`MODEL_SHA256`.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Literal

from engine.embedding.base import MODEL_SHA256, model_path

Variant = Literal["fp32", "int8"]
GRAPH_FILES: dict[Variant, str] = {"fp32": "model.onnx", "int8": "model-int8.onnx"}
"""Each variant's graph under :func:`~engine.embedding.base.model_path`."""


class DamagedModelError(RuntimeError):
    """The shipped model files cannot be used: missing, or not those released."""


def onnx_path(variant: Variant = "fp32") -> Path:
    """The shipped graph of ``variant``."""
    return model_path() / GRAPH_FILES[variant]


def damaged_model_files(folder: Path | None = None) -> list[str]:
    """The shipped model files (weights and graphs) that are missing or differ from
    :data:`MODEL_SHA256`, each named with what is wrong; empty when all are intact."""
    folder = folder or model_path()
    problems = []
    for name, expected in MODEL_SHA256.items():
        path = folder / name
        if not path.is_file():
            problems.append(f"{name} is missing")
            continue
        with path.open("rb") as fh:
            digest = hashlib.file_digest(fh, "sha256").hexdigest()
        if digest != expected:
            problems.append(
                f"{name} is damaged (SHA-256 {digest[:16]}…, expected {expected[:16]}…)"
            )
    return problems
