"""Which default chunk size serves search better? Measured on SciFact (test split).

    python -m bench.chunk_size 2000 1000 500

Each abstract (title + text) is chunked with ``chunk_markdown`` at the given size
(15 % overlap) and indexed as chunks; a document's rank is that of its best chunk.
The model embeds at most 256 tokens (~1000 characters), so with large chunks the tail
of a long abstract is invisible to vector search. Memories live under
``bench/.cache/chunk-<size>`` and share the SciFact embedding cache.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from dataclasses import replace

from bench.metrics import ndcg_at_k, recall_at_k
from bench.scifact import CACHE, load_corpus, load_queries
from engine.core.config import Config
from engine.core.models import SearchMode, Source
from engine.markdown.chunking import chunk_markdown
from engine.services.entries import NewEntry
from engine.services.memory import Memory


def build(size: int) -> Memory:
    """A memory of SciFact chunked at ``size`` (indexed on first use)."""
    root = CACHE.parent / f"chunk-{size}"
    cache = root / ".claude" / "memory" / "embeddings.sqlite"
    shared = CACHE / ".claude" / "memory" / "embeddings.sqlite"
    if not cache.exists() and shared.exists():
        cache.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(shared, cache)
    config = replace(Config(), chunk_size=size, secret_policy="redact")
    done = root / "complete"
    if not done.exists() and (root / ".claude" / "memory" / "vectors").exists():
        shutil.rmtree(root / ".claude" / "memory" / "vectors")  # an interrupted build
        (root / ".claude" / "memory" / "fts.sqlite").unlink(missing_ok=True)
    memory = Memory.open(root, config=config)
    if not done.exists():
        start = time.perf_counter()
        items = []
        for doc_id, text in load_corpus():
            for chunk in chunk_markdown(text, size, 15):
                items.append(
                    NewEntry(chunk.content[:10_000], source=Source.MARKDOWN, file_path=doc_id)
                )
        for i in range(0, len(items), 1024):
            memory.add_many(items[i : i + 1024])
        print(f"chunk {size}: {len(items)} chunks indexed in {time.perf_counter() - start:.0f} s")
        done.write_text("ok")
    return memory


def evaluate(memory: Memory, mode: SearchMode) -> tuple[float, float]:
    """nDCG@10 and Recall@30 over documents (best chunk per document, 40 chunks read)."""
    queries, qrels = load_queries("test")
    ndcgs, recalls = [], []
    for qid, text in queries.items():
        docs = _docs(memory, text, mode, 40)
        ndcgs.append(ndcg_at_k(docs, qrels[qid], 10))
        recalls.append(recall_at_k(docs, qrels[qid], 30))
    return sum(ndcgs) / len(ndcgs), sum(recalls) / len(recalls)


def _docs(memory: Memory, text: str, mode: SearchMode, limit: int) -> list[str]:
    hits = memory.search(text, mode=mode, limit=limit).results
    return list(dict.fromkeys(r.entry.file_path for r in hits))


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [2000, 1000]
    rows: dict[int, dict[str, tuple[float, float]]] = {}
    chunks: dict[int, int] = {}
    for size in sizes:
        memory = build(size)
        rows[size] = {m.value: evaluate(memory, m) for m in SearchMode}
        chunks[size] = memory.count()
        memory.close()
    print("\nchunk size  chunks   keyword nDCG/R@30    vector nDCG/R@30    hybrid nDCG/R@30")
    for size, row in rows.items():
        cells = "   ".join(
            f"{row[m][0]:.4f}/{row[m][1]:.4f}" for m in ("keyword", "vector", "hybrid")
        )
        print(f"{size:>10}  {chunks[size]:>6}   {cells}")
    print(json.dumps({str(k): v for k, v in rows.items()}))


if __name__ == "__main__":
    main()
