"""Markdown knowledge files: parsing and chunking.

Owns: front matter and ``<!-- memory: … -->`` directives, fences and comments
(:mod:`.parse`); splitting a document into section chunks with overlap (:mod:`.chunking`).
May import: :mod:`engine.core`.
"""
