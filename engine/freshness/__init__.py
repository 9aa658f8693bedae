"""Whether knowledge still matches the code: citations and stale flags.

Owns: what notes cite and the hashes of the cited files (:mod:`.citations`), the symbols a
source file defines (:mod:`.code_symbols`), and the stale check run when results are read
(:mod:`.stale`).
May import: :mod:`engine.core`, :mod:`engine.storage`, :mod:`engine.analyzer`.
"""
