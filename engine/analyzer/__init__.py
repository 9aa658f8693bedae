"""Headless codebase analysis that produces ``discovery`` entries.

:func:`analyze` walks a project once (respecting ignored directories and ``.gitignore``) and
returns an :class:`Analysis`: languages, source directories, entry points, the public
symbols of Python (via :mod:`ast`) and JS/TS modules (by scanning comment-free source),
frameworks and test tools from the manifests, and documentation outlines.
:func:`discovery_drafts` turns it into entry texts. Standard library only; never prints.
May import: :mod:`engine.core` (it needs nothing else of the engine).
"""

from engine.analyzer.analysis import analyze
from engine.analyzer.entries import discovery_drafts
from engine.analyzer.model import (
    Analysis,
    DiscoveryDraft,
    DocOutline,
    LanguageStat,
    Symbol,
    SymbolKind,
)
from engine.analyzer.scan import DEFAULT_IGNORED

__all__ = [
    "DEFAULT_IGNORED",
    "Analysis",
    "DiscoveryDraft",
    "DocOutline",
    "LanguageStat",
    "Symbol",
    "SymbolKind",
    "analyze",
    "discovery_drafts",
]
