"""Indexing speed on a real markdown knowledge base (the Argo CD docs, 455 files).

    python -m bench.index_corpus [--keep-cache]

1. cold index of every file into a fresh memory (empty embedding cache unless
   ``--keep-cache``): files, chunks, seconds, chunks/s;
2. re-run with nothing changed: seconds (target ≤ 2 s);
3. edit one paragraph of one file, re-run: seconds and chunks re-embedded (target: only
   that file's changed chunks).
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path

from engine.services.indexing import Indexer
from engine.services.memory import Memory
from engine.services.parts import parts_of

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "eval" / "markdown"
CORPUS = CORPUS / "argo-cd-docs" / "docs"
ROOT = Path(__file__).resolve().parent / ".cache" / "argo"
EDITED = "faq.md"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep-cache", action="store_true", help="keep the embedding cache")
    args = parser.parse_args()
    cache = ROOT / ".claude" / "memory" / "embeddings.sqlite"
    saved = cache.read_bytes() if args.keep_cache and cache.exists() else None
    shutil.rmtree(ROOT, ignore_errors=True)
    knowledge = ROOT / ".claude" / "knowledge"
    shutil.copytree(CORPUS, knowledge)
    if saved is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_bytes(saved)

    memory = Memory.open(ROOT)
    parts_of(memory).base_embedder.embed_query("warm up")  # model load is not indexing time
    cold = Indexer(memory).run()
    print(
        f"cold index: {cold.files_total} files, {memory.count()} chunks, "
        f"{cold.embedded} embedded, {cold.seconds:.1f} s, "
        f"{memory.count() / cold.seconds:.1f} chunks/s, errors {len(cold.errors)}"
    )
    start = time.perf_counter()
    again = Indexer(memory).run()
    print(
        f"unchanged re-run: {time.perf_counter() - start:.2f} s "
        f"({again.files_skipped} skipped, {again.embedded} embedded)"
    )
    target = knowledge / EDITED
    text = target.read_text(encoding="utf-8")
    paragraph = "Argo CD needs a running Kubernetes cluster to do anything useful."
    target.write_text(text.replace("\n## ", f"\n{paragraph}\n\n## ", 1), encoding="utf-8")
    before = len(parts_of(memory).mirror.by_file(f".claude/knowledge/{EDITED}"))
    edited = Indexer(memory).run()
    print(
        f"one file edited ({EDITED}, {before} chunks): {edited.seconds:.2f} s, "
        f"{edited.files_processed} file processed, {edited.embedded} chunks re-embedded, "
        f"{edited.entries_created} created, {edited.entries_updated} updated, "
        f"{edited.entries_deleted} deleted"
    )
    memory.close()


if __name__ == "__main__":
    main()
