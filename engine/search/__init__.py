"""Finding entries: the retrievers, their fusion and the relevance gate.

Owns: reading a query into terms, the one tokenizer (:mod:`.query`); BM25 keyword
retrieval over the mirror's FTS5 index (:mod:`.keyword`); vector retrieval over the
in-memory copy, the embedding cache or the store (:mod:`.vector`, :mod:`.vector_index`);
Reciprocal Rank Fusion with its score explanation (:mod:`.fusion`); the relevance gate
(:mod:`.gate`); one search from mode to response (:mod:`.searcher`).
May import: :mod:`engine.core`, :mod:`engine.storage`, :mod:`engine.embedding`.
"""
