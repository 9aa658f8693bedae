"""all-MiniLM-L6-v2 run by onnxruntime and tokenizers: the default embedder.

It computes the same vectors as sentence-transformers (cosine ≥ 0.9999, in practice a
max abs difference ~1e-7) without torch, which is not even installed by default (the
``reference`` extra brings it): ≈ 0.3 s to load instead of ≈ 5 s, and
a fraction of the memory, so a cold ``search`` and a fresh MCP server are quick.

Documents are embedded in batches of similar length (the tokenizer pads to the longest
text of a batch, so mixing a 10-token title with a 256-token section wastes work).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.embedding.base import (
    DIMENSION,
    MODEL_ID,
    Embedder,
    Uncached,
    force_offline,
    model_path,
)
from engine.embedding.onnx_files import DamagedModelError, Variant, onnx_path
from engine.embedding.reference import SentenceTransformerEmbedder, reference_installed

if TYPE_CHECKING:
    from engine.embedding.base import Vectors

log = logging.getLogger(__name__)

MAX_TOKENS = 256
"""The model's window (sentence-transformers' ``max_seq_length``); longer text is cut."""

DEVICE_ENV = "MEMORY_TUI_DEVICE"
"""``cpu`` keeps embedding on the CPU even where onnxruntime offers CUDA."""


def choose_providers(available: Sequence[str], device: str | None) -> list[str]:
    """onnxruntime providers to ask for: CUDA first where the installed onnxruntime has
    it (onnxruntime-gpu) unless ``device`` is ``cpu``; the CPU provider always follows,
    so a node CUDA lacks (or a missing driver) runs on the CPU instead of failing."""
    wanted = (device or "auto").strip().lower()
    if wanted != "cpu" and "CUDAExecutionProvider" in available:
        return ["CUDAExecutionProvider", "CPUExecutionProvider"]
    return ["CPUExecutionProvider"]


class OnnxEmbedder(Uncached):
    """The packaged model through onnxruntime; loads on first use (thread-safe).

    ``variant`` is the graph used for queries (and for documents unless
    ``document_variant`` says otherwise): fp32 gives sentence-transformers' vectors. The
    int8 graph (weights quantised per channel) embeds documents about twice as fast on
    this CPU with vectors close to fp32 ones (cosine ≈ 0.995); queries embedded by fp32
    search them as well as fp32 documents (SciFact, bench/RESULTS.md). ``model_id``
    names the documents' variant, so the embedding cache never mixes the two.
    """

    def __init__(
        self,
        variant: Variant = "fp32",
        batch_size: int = 32,
        threads: int | None = None,
        *,
        document_variant: Variant | None = None,
    ) -> None:
        self.variant: Variant = variant
        self.document_variant: Variant = document_variant or variant
        self._batch_size = batch_size
        self._threads = threads
        self._sessions: dict[str, Any] = {}
        self._tokenizer: Any = None
        self._fallback: Embedder | None = None
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        """See :class:`~engine.embedding.base.Embedder` (identifies the document vectors)."""
        return (
            MODEL_ID if self.document_variant == "fp32" else f"{MODEL_ID}-{self.document_variant}"
        )

    @property
    def dimension(self) -> int:
        """See :class:`~engine.embedding.base.Embedder`."""
        return DIMENSION

    @property
    def loaded(self) -> bool:
        """Whether queries can be embedded without waiting for a model to load."""
        return self._fallback is not None or self.variant in self._sessions

    def load(self) -> None:
        """Load the query model now (e.g. from a background worker)."""
        self._session(self.variant)

    def _session(self, variant: Variant) -> Any:
        """The session of ``variant`` (``None`` when the fallback embeds instead)."""
        session = self._sessions.get(variant)
        if session is not None or self._fallback is not None:
            return session
        with self._lock:
            if variant in self._sessions or self._fallback is not None:
                return self._sessions.get(variant)
            force_offline()
            try:
                self._sessions[variant] = self._load_session(variant)
            except Exception as exc:
                # Without the optional reference (the ``reference`` extra) the cause is
                # the error to show: a missing sentence-transformers would hide it.
                if variant != "fp32" or self._sessions or not reference_installed():
                    raise
                # Same vectors, slower start: better than no vector search at all.
                log.warning("onnxruntime model unavailable (%s); using sentence-transformers", exc)
                fallback = SentenceTransformerEmbedder()
                fallback.load()
                self._fallback = fallback
            return self._sessions.get(variant)

    def _load_session(self, variant: Variant) -> Any:
        """The session of the shipped graph of ``variant``.

        Raises:
            DamagedModelError: the graph or its weights are missing or unreadable; the
                message names the file and how to repair it.
        """
        path = onnx_path(variant)
        import onnxruntime as ort
        from tokenizers import Tokenizer

        if self._tokenizer is None:
            tokenizer = Tokenizer.from_file(str(model_path() / "tokenizer.json"))
            tokenizer.enable_truncation(MAX_TOKENS)
            tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
            self._tokenizer = tokenizer
        options = ort.SessionOptions()
        options.intra_op_num_threads = self._threads or min(4, os.cpu_count() or 1)
        options.inter_op_num_threads = 1
        # Spinning workers win microseconds on an idle machine and lose tens of
        # milliseconds when other processes share the cores (measured: 36 vs 10 ms
        # per query with two threads under load), which is the usual case here.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3  # errors only: nothing on stderr in normal use
        providers = choose_providers(ort.get_available_providers(), os.environ.get(DEVICE_ENV))
        try:
            if variant == "int8":  # (documents only: a search never imports the quantiser)
                from engine.embedding.int8_weights import quantised_weights

                # Shipped without its quantised weights: computed from the float16 ones (the
                # quantiser's bytes). onnxruntime copies them into the graph when it loads
                # it, so they are freed once the session exists.
                computed = quantised_weights(model_path())
                values = [ort.OrtValue.ortvalue_from_numpy(value) for value in computed.values()]
                options.add_external_initializers(list(computed), values)
            session = ort.InferenceSession(str(path), options, providers=providers)
        except Exception as exc:  # onnxruntime raises its own kinds, by cause
            raise DamagedModelError(
                f"the embedding model {path} cannot be loaded ({exc}): reinstall memory-tui"
            ) from exc
        log.info(
            "embedding model ready (onnxruntime, %s, %s, %s)",
            variant,
            path.name,
            session.get_providers()[0],
        )
        return session

    def _run(self, session: Any, texts: Sequence[str]) -> Vectors:
        import numpy as np

        encodings = self._tokenizer.encode_batch(list(texts))
        ids = np.asarray([e.ids for e in encodings], dtype=np.int64)
        mask = np.asarray([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        out: Vectors = session.run(None, feeds)[0].astype(np.float32, copy=False)
        return out

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """See :class:`~engine.embedding.base.Embedder`; batches are formed by length."""
        import numpy as np

        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        if not texts:
            return out
        session = self._session(self.document_variant)
        if self._fallback is not None:
            return self._fallback.embed_documents(texts)
        # Character length predicts token length well enough to group similar texts.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), self._batch_size):
            rows = order[start : start + self._batch_size]
            out[rows] = self._run(session, [texts[i] for i in rows])
        return out

    def embed_query(self, text: str) -> Vectors:
        """See :class:`~engine.embedding.base.Embedder`."""
        session = self._session(self.variant)
        if self._fallback is not None:
            return self._fallback.embed_query(text)
        row: Vectors = self._run(session, [text])[0]
        return row
