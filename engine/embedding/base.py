"""What an embedder is: the :class:`Embedder` protocol and the packaged model's files.

An embedder declares everything the rest of the engine asks of it, so nothing probes it
(``getattr``, ``isinstance``): whether its model is loaded and how to load it, the model
under any cache (:attr:`Embedder.model`), its vector cache (``None`` when it keeps none)
and the cache-aware ways to embed documents. A model without a cache of its own takes
those from :class:`Uncached`; :class:`engine.embedding.cache.CachedEmbedder` wraps one
with a cache.

The default model is all-MiniLM-L6-v2 (384 dimensions), whose files ship inside this
package (``model/``), never loaded from the network. This module is the leaf of
:mod:`engine.embedding`: every other module of the package imports it, it imports none
of them. Importing it is cheap: no model runtime is imported.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, Self, runtime_checkable

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Vectors = npt.NDArray[np.float32]

MODEL_ID = "all-MiniLM-L6-v2"
DIMENSION = 384


class VectorCache(Protocol):
    """Where an embedder keeps the vectors it computed, by key and model."""

    def get_many(self, hashes: Sequence[str], model_id: str) -> dict[str, bytes]:
        """The vectors held under these keys (missing keys are absent)."""
        ...

    def put_many(self, items: Sequence[tuple[str, bytes]], model_id: str) -> None:
        """Keep these vectors (a key already held keeps its vector)."""
        ...

    def close(self) -> None:
        """Release the cache's files."""
        ...


@runtime_checkable
class Embedder(Protocol):
    """Turns text into unit-length float32 vectors."""

    @property
    def model_id(self) -> str:
        """Identifies the vectors' space; cached vectors are keyed by it."""
        ...

    @property
    def dimension(self) -> int:
        """Length of every vector."""
        ...

    @property
    def loaded(self) -> bool:
        """Whether a query can be embedded without waiting for the model to load."""
        ...

    def load(self) -> None:
        """Load the model now (a background worker, a warm-up) instead of on first use."""
        ...

    @property
    def model(self) -> Embedder:
        """The model that computes the vectors: this embedder, or the one under a cache."""
        ...

    @property
    def cache(self) -> VectorCache | None:
        """The cache of this embedder's vectors; None when it keeps none."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """One row per text, L2-normalised."""
        ...

    def embed_query(self, text: str) -> Vectors:
        """A single L2-normalised vector for a search query."""
        ...

    def embed_keyed(self, texts: Sequence[str], keys: Sequence[str]) -> Vectors:
        """Like :meth:`embed_documents`, a cache keeping each text's vector under the key
        given (an entry's :func:`~engine.embedding.document.document_key`)."""
        ...

    def cached_keyed(self, keys: Sequence[str]) -> tuple[Vectors, list[int]]:
        """The vectors held under ``keys`` without running the model, and the rows there
        is none for (left all zeros)."""
        ...


class Uncached(ABC):
    """The cache members of :class:`Embedder` for a model that keeps no cache: it is its
    own model, embeds keyed texts as documents and holds no vector before computing it."""

    @property
    @abstractmethod
    def dimension(self) -> int:
        """See :class:`Embedder`."""

    @abstractmethod
    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """See :class:`Embedder`."""

    @property
    def model(self) -> Self:
        """See :class:`Embedder`: itself."""
        return self

    @property
    def cache(self) -> VectorCache | None:
        """See :class:`Embedder`: none."""
        return None

    def embed_keyed(self, texts: Sequence[str], keys: Sequence[str]) -> Vectors:
        """See :class:`Embedder`: the texts embedded, the keys unused."""
        return self.embed_documents(texts)

    def cached_keyed(self, keys: Sequence[str]) -> tuple[Vectors, list[int]]:
        """See :class:`Embedder`: every row missing."""
        import numpy as np

        empty: Vectors = np.zeros((len(keys), self.dimension), dtype=np.float32)
        return empty, list(range(len(keys)))


WEIGHTS_SHA256 = "5ba0032aefec27c763b2d9c8912eeec19529d4efdab9a71a9756e8056ba8f2e0"
"""SHA-256 of the shipped ``model.safetensors`` (``scripts/vendor_model.py`` prints it)."""

MODEL_SHA256 = {
    "model.safetensors": WEIGHTS_SHA256,
    "model.onnx": "a33a80372822d77e94edcfb53a653503a84497d8de6cc469b55bb4b8c09e1301",
    "model-int8.onnx": "4e02244fd438868a9380873b0251eb3203c434fc79a7492d7377411b0c483bd1",
    "model-int8.json": "80d1998a64946bd8802229cb0f543f37941ad9bfcc0f81c57181dd9f91d23867",
}
"""SHA-256 of each shipped weights and graph file, and of the description the int8
graph's weights are computed by (``scripts/build_model_graphs.py`` prints all but the
weights'): ``memory-tui doctor`` checks the installed files against them."""


def model_path() -> Path:
    """Folder of the all-MiniLM-L6-v2 files memory-tui ships (its weights in float16,
    tokenizer and configuration; ``scripts/vendor_model.py`` writes them): on disk, no
    network, no torch."""
    return Path(__file__).with_name("model")


def force_offline() -> None:
    # The model is on disk; any hub lookup would be a bug, so make one impossible.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
