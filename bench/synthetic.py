"""Synthetic memories of any size, made from the SciFact corpus and its real vectors.

    python -m bench.synthetic 100000

Entry ``i`` is abstract ``i % 5183`` (its real all-MiniLM-L6-v2 vector from the SciFact
embedding cache that ``python -m bench.scifact`` builds); copies beyond the first round
get a short suffix (so their content hash differs) and their original's vector moved by
deterministic Gaussian noise (cosine ≈ 0.9 to the original), so that nearest-neighbour
lists are not full of exact ties and an ANN index has real work to do. Building 100,000
entries takes minutes instead of the hours that embedding them would.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bench.scifact import CACHE as SCIFACT_CACHE

CACHE = Path(__file__).resolve().parent / ".cache"
CATEGORIES = ("architecture", "component", "domain", "pattern", "gotcha", "general")
SUFFIX = re.compile(r"\n\n\(variant (\d+)\)$")
NOISE = 0.025
"""Per-dimension standard deviation of a copy's noise: cosine ≈ 0.9 to its original."""


def root_for(entries: int) -> Path:
    """Where the synthetic memory of ``entries`` entries lives."""
    return CACHE / f"synthetic-{entries}"


class SyntheticVectors:
    """An embedder that reads SciFact's cached vectors (copies get a perturbed one)."""

    dimension = 384
    loaded = True

    def __init__(self, cache: Path) -> None:
        from engine.core.hashing import content_hash
        from engine.embedding.default import default_embedder

        # The product's document vectors: what its own cache lookups ask for.
        self.model_id = default_embedder().model_id

        self._hash = content_hash
        db = sqlite3.connect(cache)
        rows = db.execute(
            "SELECT content_hash, vector FROM embedding_cache WHERE model_id = ?", (self.model_id,)
        )
        self._vectors = {h: np.frombuffer(v, dtype=np.float32) for h, v in rows}
        db.close()

    def vector(self, text: str) -> npt.NDArray[np.float32]:
        """The vector of a synthetic entry's text."""
        match = SUFFIX.search(text)
        body = SUFFIX.sub("", text)
        if self._hash(body) not in self._vectors and "\n" in body:
            # a labelled entry: its category line first (engine.embedding.document), and
            # the vector of its abstract alone, as before entries had labels
            body = body.split("\n", 1)[1]
        base = self._vectors[self._hash(body)]
        if match is None:
            return base
        seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
        noisy = base + np.random.default_rng(seed).normal(0, NOISE, base.shape).astype(np.float32)
        out: npt.NDArray[np.float32] = noisy / np.linalg.norm(noisy)
        return out

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """See :class:`engine.embedding.base.Embedder`."""
        return np.stack([self.vector(t) for t in texts])

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        """Queries are embedded by the real model, never by this stand-in."""
        raise RuntimeError("queries are embedded by the real model")


def scifact_texts() -> list[str]:
    """The abstracts in the SciFact memory, in a stable order."""
    from engine.storage.mirror import EntryMirror

    mirror = EntryMirror(SCIFACT_CACHE / ".claude" / "memory" / "fts.sqlite")
    texts = sorted(e.content for e in mirror.recent() if len(e.content) < 9_950)
    mirror.close()
    return texts


def build(entries: int) -> Path:
    """Create the memory unless it already holds ``entries`` entries; return its root."""
    from engine.services.entries import NewEntry
    from engine.services.memory import Memory
    from engine.storage.mirror import EntryMirror

    root = root_for(entries)
    mirror_path = root / ".claude" / "memory" / "fts.sqlite"
    if mirror_path.is_file():
        mirror = EntryMirror(mirror_path)
        complete = mirror.count() == entries and not mirror.pending
        mirror.close()
        if complete:
            return root
        shutil.rmtree(root)
    cache = SCIFACT_CACHE / ".claude" / "memory" / "embeddings.sqlite"
    if not cache.exists():
        raise SystemExit("run `python -m bench.scifact` first (it builds the embedding cache)")
    docs = scifact_texts()
    texts = [
        docs[i % len(docs)] + (f"\n\n(variant {i // len(docs)})" if i >= len(docs) else "")
        for i in range(entries)
    ]
    started = time.perf_counter()
    with Memory.open(root, embedder=SyntheticVectors(cache)) as memory:
        for start in range(0, len(texts), 2000):
            memory.add_many(
                [
                    NewEntry(t, category=CATEGORIES[(start + i) % len(CATEGORIES)])
                    for i, t in enumerate(texts[start : start + 2000])
                ]
            )
        print(f"built {memory.count()} entries in {time.perf_counter() - started:.0f} s")
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("entries", type=int, nargs="+")
    for entries in parser.parse_args().entries:
        print(build(entries))


if __name__ == "__main__":
    main()
