"""Default values of the settings that are too long to sit in their declaration."""

from __future__ import annotations

__all__ = ["DEFAULT_SOURCES"]

DEFAULT_SOURCES: tuple[str, ...] = (
    "/*.md",
    "/*.markdown",
    "/*.mdx",
    "/*.rst",
    "README.md",
    "[Rr]eadme.md",
    "README.rst",
    "/docs/**/*.md",
    "/docs/**/*.markdown",
    "/docs/**/*.mdx",
    "/docs/**/*.rst",
    "/doc/**/*.md",
    "/doc/**/*.rst",
    "/site/content/**/*.md",
    "/website/docs/**/*.md",
    "/website/docs/**/*.mdx",
    "/documentation/**/*.md",
    "/documentation/**/*.rst",
    "/*.adoc",
    "README.adoc",
    "/docs/**/*.adoc",
    "/doc/**/*.adoc",
    "/documentation/**/*.adoc",
    "/src/docs/asciidoc/**/*.adoc",
    "/src/main/asciidoc/**/*.adoc",
)
"""The project's own documentation: top-level markdown, reStructuredText and AsciiDoc, every README,
docs/ and doc/ (Sphinx projects write ``.rst``), and the usual homes of a docs site (Hugo's
site/content/, Docusaurus' website/docs/), and where the Asciidoctor plugins for Gradle and
Maven read AsciiDoc by default (src/docs/asciidoc/, src/main/asciidoc/).
``.gitignore`` syntax: a leading ``/`` anchors a pattern to the project root."""
