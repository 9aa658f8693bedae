"""Write the ONNX graphs memory-tui ships beside its weights (``engine/embedding/model/``).

``model.onnx`` (fp32, queries) is all-MiniLM-L6-v2 written node by node from the float16
weights in ``model.safetensors``, which it reads in place (ONNX external data, by
offset): the weights are shipped once. ``model-int8.onnx`` (documents) is the same
graph with its weights quantised to int8 by onnxruntime, shipped without them:
``model-int8.json`` says how memory-tui computes them from the float16 weights when it
loads the graph (``engine/embedding/int8_weights.py``; the build stops if they would
differ from the quantiser's). Same weights, same bytes (tests/engine/test_shipped_graphs.py
builds them again and compares). Needs ``onnx`` (the ``test`` extra); memory-tui itself
only runs the files, with onnxruntime and numpy.
Prints the files' SHA-256 for ``engine.embedding.base.MODEL_SHA256``.

    python scripts/build_model_graphs.py
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.embedding.base import model_path
from engine.embedding.int8_weights import SPEC_FILE
from engine.embedding.shipped_graphs import write_graphs


def main() -> None:
    folder = model_path()
    written = write_graphs(folder, folder)
    for variant, path in [*written.items(), ("int8 weights", folder / SPEC_FILE)]:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        print(f"wrote {path} ({variant}, {path.stat().st_size:,} bytes): {digest!r}")


if __name__ == "__main__":
    main()
