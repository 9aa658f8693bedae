"""Text → vectors: the :class:`~.base.Embedder` protocol, the packaged model and its cache.

Owns: the protocol and the model's files (:mod:`.base`, the package's leaf), the default
embedder (:mod:`.default`: onnxruntime, :mod:`.onnx_embedder`), the shipped ONNX graphs,
fp32 and int8 (:mod:`.onnx_files`; the int8 graph's weights computed when it loads,
:mod:`.int8_weights`; :mod:`.onnx_graph` and :mod:`.shipped_graphs` write them, at
development time only), the sentence-transformers reference
(:mod:`.reference`), the on-disk vector cache (:mod:`.cache`) and what an entry's vector
is computed from, with its cache key (:mod:`.document`).
May import: :mod:`engine.core`, :mod:`engine.storage` (SQLite helpers). Model runtimes
(onnxruntime, tokenizers, torch) are imported on first use, never at import time.
"""
