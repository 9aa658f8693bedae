"""Finding entries: the retrievers, their fusion and the relevance gate.

Owns: reading a query once into a :class:`~.query.Query`, with the one tokenizer
(:mod:`.query`); BM25 keyword retrieval over the mirror's FTS5 index, what it asks and
how it weighs it (:mod:`.keyword`; the SQL is the storage's); vector retrieval, every
vector read from the store of record (:mod:`.vector`);
fusion of the two rankings (z-scores by default, or Reciprocal Rank Fusion) with its
score explanation (:mod:`.fusion`); the relevance gate (:mod:`.gate`); one search from
mode to response (:mod:`.searcher`).
May import: :mod:`engine.core`, :mod:`engine.storage`, :mod:`engine.embedding`.
"""
