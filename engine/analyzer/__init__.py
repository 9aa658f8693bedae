"""Headless codebase analysis that produces ``discovery`` entries.

:func:`analyze` walks a project once (respecting ignored directories and ``.gitignore``) and
returns an :class:`Analysis`: languages, source directories, entry points, the public
symbols of Python (via :mod:`ast`) and JS/TS modules (via tree-sitter, imported on the
first JS/TS file), frameworks and test tools from the manifests, and documentation
outlines. :func:`discovery_drafts` turns it into entry texts. Never prints.
May import: :mod:`engine.core` (it needs nothing else of the engine).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_HOMES = {
    "analyze": "engine.analyzer.analysis",
    "discovery_drafts": "engine.analyzer.entries",
    "DEFAULT_IGNORED": "engine.analyzer.scan",
    **dict.fromkeys(
        ("Analysis", "DiscoveryDraft", "DocOutline", "LanguageStat", "Symbol", "SymbolKind"),
        "engine.analyzer.model",
    ),
}
"""Where each public name lives: loaded on first use, so that a module of the package (the
stale check reads :mod:`.js_commonjs` and :mod:`.languages`) does not load all of it."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'engine.analyzer' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)


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
