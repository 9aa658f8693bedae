"""Test doubles shared by the engine tests."""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from engine.embedding.base import Uncached
from engine.search.query import STOPWORDS

_WORD = re.compile(r"\w+", re.UNICODE)


class FakeEmbedder(Uncached):
    """Deterministic bag-of-words embedder: each word is hashed to a signed dimension.

    Texts sharing words are similar, texts sharing none have similarity ~0 (up to hash
    collisions, rare at 256 dimensions). Stopwords are ignored so that "the" does not make
    unrelated texts look alike. Counts how often and how much it was asked to embed.
    """

    def __init__(self, dimension: int = 256, model_id: str = "fake-bow-256") -> None:
        self._dimension = dimension
        self._model_id = model_id
        self.calls = 0
        self.texts_embedded = 0
        self.queries = 0
        self.loaded = True

    @property
    def model_id(self) -> str:
        return self._model_id

    def load(self) -> None:
        """Nothing to load: the fake is always ready unless a test says otherwise."""

    @property
    def dimension(self) -> int:
        return self._dimension

    def vector(self, text: str) -> npt.NDArray[np.float32]:
        """The unit vector of one text (the zero-ish fallback keeps it well defined)."""
        out = np.zeros(self._dimension, dtype=np.float32)
        words = [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS]
        for word in words:
            digest = hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest()
            index = int.from_bytes(digest[:4], "little") % self._dimension
            sign = 1.0 if digest[4] & 1 else -1.0
            out[index] += sign
        norm = float(np.linalg.norm(out))
        if norm == 0.0:
            # No content words: a fixed direction that no real text uses much.
            out[0] = 1.0
            return out
        return out / norm

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.calls += 1
        self.texts_embedded += len(texts)
        if not texts:
            return np.zeros((0, self._dimension), dtype=np.float32)
        return np.stack([self.vector(t) for t in texts])

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        self.queries += 1
        return self.vector(text)


class FailingEmbedder(FakeEmbedder):
    """An embedder whose model cannot be used (queries and documents raise)."""

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        raise RuntimeError("model unavailable")


def cosine(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> float:
    """Cosine similarity of two vectors."""
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


class ControlledEmbedder(FakeEmbedder):
    """A :class:`FakeEmbedder` whose vectors for chosen texts are given outright
    (normalised), e.g. to put two notes at an exact cosine similarity."""

    def __init__(self, vectors: dict[str, Sequence[float]], dimension: int = 256) -> None:
        super().__init__(dimension)
        self._given = {text: self._unit(values) for text, values in vectors.items()}

    def _unit(self, values: Sequence[float]) -> npt.NDArray[np.float32]:
        out = np.zeros(self.dimension, dtype=np.float32)
        out[: len(values)] = values
        return out / float(np.linalg.norm(out))

    def vector(self, text: str) -> npt.NDArray[np.float32]:
        given = self._given.get(text)
        return given.copy() if given is not None else super().vector(text)


NOTE_WORDS = [
    "gearbox",
    "oil",
    "coffee",
    "deploy",
    "sync",
    "wave",
    "lancedb",
    "sqlite",
    "porter",
    "stemmer",
    "kettle",
    "burr",
    "grinder",
    "pipeline",
    "cluster",
    "token",
    "secret",
    "config",
    "watch",
    "hook",
    "commit",
    "branch",
    "merge",
    "index",
    "vector",
    "keyword",
    "hybrid",
    "search",
    "entry",
    "memory",
    "agent",
    "session",
    "prompt",
    "model",
    "cache",
    "chunk",
    "overlap",
]


def note_texts(count: int, seed: int) -> list[str]:
    """``count`` notes of six words of :data:`NOTE_WORDS` each, the same for one ``seed``:
    memories whose size is the point of a test (the ANN index, the store's scans)."""
    rng = random.Random(seed)
    return [" ".join(rng.sample(NOTE_WORDS, 6)) + f" note {seed}-{i}" for i in range(count)]
