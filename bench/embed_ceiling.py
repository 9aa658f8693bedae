"""How close document embedding is to this machine's limit for the model.

    python -m bench.embed_ceiling [--limit 384] [--rounds 3]

On the Argo CD docs' chunks (int8 documents, as indexing embeds them), measures chunks/s of:

each configuration once per round, rounds interleaved, medians reported:

1. tokenization alone (``tokenizers``' ``encode_batch`` over the length-sorted texts);
2. a bare onnxruntime session fed pre-tokenized, length-sorted batches (no Python work
   between runs): the ceiling, for 1 and 2 intra-op threads, spinning on and off, batches
   of 16, 32 and 64;
3. the embedder the indexer uses (:class:`OnnxEmbedder`, tokenization included), given
   every text at once (sorted by length over the whole corpus) and 256 at a time in file
   order (sorted within each group only).

The full second phase (store and keyword index writes included) is in bench.large_repo.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from bench.embed_devices import _texts
from bench.metrics import median
from engine.embedding.base import model_path
from engine.embedding.onnx_embedder import MAX_TOKENS, OnnxEmbedder
from engine.embedding.onnx_files import onnx_path


def _tokenizer() -> Any:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(model_path() / "tokenizer.json"))
    tokenizer.enable_truncation(MAX_TOKENS)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    return tokenizer


def _session(threads: int, spinning: bool) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "1" if spinning else "0")
    options.log_severity_level = 3
    return ort.InferenceSession(str(onnx_path("int8")), options, providers=["CPUExecutionProvider"])


def _batches(texts: list[str], size: int) -> list[dict[str, Any]]:
    tokenizer = _tokenizer()
    ordered = sorted(texts, key=len)
    feeds = []
    for start in range(0, len(ordered), size):
        encodings = tokenizer.encode_batch(ordered[start : start + size])
        ids = np.asarray([e.ids for e in encodings], dtype=np.int64)
        mask = np.asarray([e.attention_mask for e in encodings], dtype=np.int64)
        feeds.append(
            {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        )
    return feeds


def _bare(texts: list[str], threads: int, spinning: bool, size: int) -> float:
    session, feeds = _session(threads, spinning), _batches(texts, size)
    session.run(None, feeds[0])  # the first run allocates
    start = time.perf_counter()
    for feed in feeds:
        session.run(None, feed)
    return len(texts) / (time.perf_counter() - start)


def _pipeline(texts: list[str], group: int) -> float:
    embedder = OnnxEmbedder(document_variant="int8")
    embedder.embed_documents(texts[:8])
    start = time.perf_counter()
    for first in range(0, len(texts), group):  # sorted by length within a group only
        embedder.embed_documents(texts[first : first + group])
    return len(texts) / (time.perf_counter() - start)


CONFIGS: dict[str, Callable[[list[str]], float]] = {
    "bare session, 1 thread, batch 32": lambda t: _bare(t, 1, False, 32),
    "bare session, 2 threads, batch 32": lambda t: _bare(t, 2, False, 32),
    "bare session, 2 threads spinning, batch 32": lambda t: _bare(t, 2, True, 32),
    "bare session, 2 threads, batch 16": lambda t: _bare(t, 2, False, 16),
    "bare session, 2 threads, batch 64": lambda t: _bare(t, 2, False, 64),
    "OnnxEmbedder, all at once": lambda t: _pipeline(t, len(t)),
    "OnnxEmbedder, 256 at a time in file order": lambda t: _pipeline(t, 256),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=384, help="at most this many chunks")
    parser.add_argument("--rounds", type=int, default=3, help="each configuration per round")
    args = parser.parse_args()
    texts = _texts(args.limit)
    print(f"{len(texts)} chunks, {os.cpu_count()} CPUs, {args.rounds} rounds")
    tokenizer = _tokenizer()
    start = time.perf_counter()
    tokenizer.encode_batch(sorted(texts, key=len))
    print(f"tokenization alone: {len(texts) / (time.perf_counter() - start):,.0f} chunks/s")
    rates: dict[str, list[float]] = {name: [] for name in CONFIGS}
    for _ in range(args.rounds):  # interleaved, so that a burst of load hits every one
        for name, measure in CONFIGS.items():
            rates[name].append(measure(texts))
    for name, values in rates.items():
        shown = ", ".join(f"{v:.1f}" for v in values)
        print(f"{name}: median {median(values):.1f} chunks/s ({shown})")


if __name__ == "__main__":
    main()
