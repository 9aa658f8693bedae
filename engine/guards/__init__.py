"""Guards every face passes content through before it is stored or shown.

Owns: secret detection and ``<private>`` redaction (:mod:`.privacy`).
May import: :mod:`engine.core`.
"""
