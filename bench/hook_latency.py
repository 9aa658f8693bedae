"""Cold run time of the Claude Code hook and of a keyword search from the shell.

    python -m bench.hook_latency [--entries 1000]

Both run on every prompt or in pipes, in a fresh process each time, and must not
import LanceDB or the embedding stack. The memory (``bench/.cache/hook``) is filled
with entries from the Argo CD docs; keyword paths never read vectors, so a fast
deterministic embedder with the real model's dimension builds it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from bench.index_corpus import CORPUS
from bench.metrics import median
from engine.embedding.base import DIMENSION, Uncached
from engine.markdown.chunking import chunk_markdown
from engine.services.entries import NewEntry
from engine.services.memory import Memory

ROOT = Path(__file__).resolve().parent / ".cache" / "hook"
CLI = str(Path(sys.executable).parent / "memory-tui")


class HashEmbedder(Uncached):
    """Random-but-deterministic unit vectors: enough for paths that never read them."""

    model_id = "bench-hash"
    loaded = True

    @property
    def dimension(self) -> int:
        return DIMENSION

    def load(self) -> None:
        """Nothing to load."""

    def embed_documents(self, texts: list[str]) -> np.ndarray:  # type: ignore[type-arg]
        out = np.empty((len(texts), DIMENSION), dtype=np.float32)
        for i, text in enumerate(texts):
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")
            row = np.random.default_rng(seed).standard_normal(DIMENSION)
            out[i] = row / np.linalg.norm(row)
        return out

    def embed_query(self, text: str) -> np.ndarray:  # type: ignore[type-arg]
        return self.embed_documents([text])[0]


def build(entries: int) -> None:
    """A memory of ``entries`` chunks of the Argo CD docs."""
    shutil.rmtree(ROOT, ignore_errors=True)
    (ROOT / ".git").mkdir(parents=True)
    items: list[NewEntry] = []
    for path in sorted(CORPUS.rglob("*.md")):
        for chunk in chunk_markdown(path.read_text(encoding="utf-8"), 1000, 15):
            items.append(NewEntry(chunk.content[:10_000], section_title=chunk.title))
            if len(items) == entries:
                break
        if len(items) == entries:
            break
    with Memory.open(ROOT, embedder=HashEmbedder()) as memory:
        memory.add_many(items, secret_policy="redact")
        print(f"memory with {memory.count()} entries at {ROOT}")


def timed(args: list[str], stdin: str | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(args, input=stdin, capture_output=True, text=True, cwd=ROOT, check=True)
    return time.perf_counter() - start, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=1000)
    args = parser.parse_args()
    build(args.entries)
    prompt = json.dumps({"prompt": "how do I configure sync waves for my application?"})
    hook = [timed([CLI, "hook"], prompt) for _ in range(5)]
    search = [timed([CLI, "search", "sync waves", "--mode", "keyword"]) for _ in range(5)]
    print(
        f"hook (cold process, {args.entries} entries): median {median([t for t, _ in hook]):.3f} s"
    )
    print(f"  printed {len(hook[0][1].splitlines())} lines of context")
    print(f"search --mode keyword (cold process): median {median([t for t, _ in search]):.3f} s")


if __name__ == "__main__":
    main()
