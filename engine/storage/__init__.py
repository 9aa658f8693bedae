"""Where entries live on disk, and how writers keep the copies in step.

Owns: the LanceDB store of record (:mod:`.record_store`), the SQLite entry mirror with its
FTS5 index (:mod:`.mirror`), the crash-safe write path and repair that keep the two in
step (:mod:`.records`), the project write lock (:mod:`.locking`), SQLite WAL helpers
(:mod:`.sqlite`), the indexer's metadata file (:mod:`.meta`) and the memory's paths
(:mod:`.paths`).
May import: :mod:`engine.core`. Never the embedding model, search, or services.
"""
