"""Default values of the settings that are too long to sit in their declaration."""

from __future__ import annotations

__all__ = ["DEFAULT_SOURCES"]

DEFAULT_SOURCES: tuple[str, ...] = (
    "/*.md",
    "/*.markdown",
    "/*.mdx",
    "README.md",
    "[Rr]eadme.md",
    "/docs/**/*.md",
    "/docs/**/*.markdown",
    "/docs/**/*.mdx",
    "/doc/**/*.md",
    "/site/content/**/*.md",
    "/website/docs/**/*.md",
    "/website/docs/**/*.mdx",
    "/documentation/**/*.md",
)
"""The project's own documentation: top-level markdown, every README, docs/ and doc/, and
the usual homes of a docs site (Hugo's site/content/, Docusaurus' website/docs/).
``.gitignore`` syntax: a leading ``/`` anchors a pattern to the project root."""
