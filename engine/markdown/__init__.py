"""Markdown knowledge files and project docs: parsing and chunking.

Owns: front matter, ``<!-- memory: … -->`` directives, comments and MDX lines (:mod:`.parse`,
with the linear-time scanners of :mod:`.scan`); block structure, i.e. headings and fences as
CommonMark defines them (:mod:`.blocks`, through markdown-it-py, imported on first use);
the text of memory-tui's own templates (:mod:`.boilerplate`); splitting a document into
section chunks titled by their heading path (:mod:`.chunking`, :mod:`.splitting`).
May import: :mod:`engine.core`, PyYAML and markdown-it-py.
"""
