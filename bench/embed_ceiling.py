"""How close document embedding is to this machine's limit for the model.

    python -m bench.embed_ceiling [--limit 2000]

On the Argo CD docs' chunks (int8 documents, as indexing embeds them), measures chunks/s of:

1. tokenization alone (``tokenizers``' ``encode_batch`` over the length-sorted texts);
2. a bare onnxruntime session fed pre-tokenized, length-sorted batches (no Python work
   between runs): the ceiling, for 1 and 2 intra-op threads, spinning on and off, batches
   of 16, 32 and 64;
3. the embedder the indexer uses (:class:`OnnxEmbedder`, tokenization included).

The full second phase (store and keyword index writes included) is in bench.large_repo.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import numpy as np

from bench.embed_devices import _texts
from engine.embedding.base import model_path
from engine.embedding.onnx_embedder import MAX_TOKENS, OnnxEmbedder
from engine.embedding.onnx_export import ensure_onnx


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
    return ort.InferenceSession(
        str(ensure_onnx("int8")), options, providers=["CPUExecutionProvider"]
    )


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=2000, help="at most this many chunks")
    texts = _texts(parser.parse_args().limit)
    print(f"{len(texts)} chunks, {os.cpu_count()} CPUs")
    tokenizer = _tokenizer()
    start = time.perf_counter()
    tokenizer.encode_batch(sorted(texts, key=len))
    print(f"tokenization alone: {len(texts) / (time.perf_counter() - start):,.0f} chunks/s")
    for threads, spinning, size in [
        (1, False, 32),
        (2, False, 32),
        (2, True, 32),
        (2, False, 16),
        (2, False, 64),
    ]:
        session, feeds = _session(threads, spinning), _batches(texts, size)
        session.run(None, feeds[0])  # the first run allocates
        start = time.perf_counter()
        for feed in feeds:
            session.run(None, feed)
        rate = len(texts) / (time.perf_counter() - start)
        print(
            f"bare session: {threads} thread(s), spinning {'on' if spinning else 'off'}, "
            f"batch {size}: {rate:.1f} chunks/s"
        )
    embedder = OnnxEmbedder(document_variant="int8")
    embedder.embed_documents(texts[:8])
    start = time.perf_counter()
    embedder.embed_documents(texts)
    rate = len(texts) / (time.perf_counter() - start)
    print(f"OnnxEmbedder.embed_documents (the indexer's): {rate:.1f} chunks/s")


if __name__ == "__main__":
    main()
