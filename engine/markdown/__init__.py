"""Markdown knowledge files and project docs: parsing and chunking.

Owns: front matter, ``<!-- memory: … -->`` directives, comments and MDX lines (:mod:`.parse`,
with the linear-time scanners of :mod:`.scan`); block structure, i.e. headings and fences as
CommonMark defines them (:mod:`.blocks`, through markdown-it-py, imported on first use);
the page as a reader sees it: MyST/Sphinx labels, roles and directives and HTML headings
(:mod:`.markup`, with mdit-py-plugins), reStructuredText read as markdown line for line
(:mod:`.rst`, section titles through docutils), the directive kinds both share
(:mod:`.directives`); the text of memory-tui's own templates (:mod:`.boilerplate`);
splitting a document into sections (:mod:`.sections`) and section chunks titled by their
heading path (:mod:`.chunking`, :mod:`.splitting`).
May import: :mod:`engine.core`, PyYAML, markdown-it-py, mdit-py-plugins and docutils.
"""
