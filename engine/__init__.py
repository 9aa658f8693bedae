"""memory-tui's headless engine: one project's memory, stored, indexed and searched.

The faces (CLI, terminal app, MCP server, git hooks) import what they need from here::

    from engine import Memory, Category
    with Memory.open(project_root) as memory:
        memory.add("LanceDB filters need double quotes", category=Category.GOTCHA)

Layers, lowest first (docs/ARCHITECTURE.md; import-linter checks them):
``core`` → ``storage`` · ``guards`` → ``embedding`` · ``markdown`` · ``analyzer`` →
``search`` · ``freshness`` · ``output`` → ``services``. A layer imports only layers below
it. The names below are loaded on first use, so ``import engine`` stays cheap and the
keyword-only paths never import LanceDB or the model runtime.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS: dict[str, str] = {
    "Memory": "engine.services.memory",
    "resolve_entry": "engine.services.lookup",
    "NewEntry": "engine.services.entries",
    "AddResult": "engine.services.entries",
    "add_together": "engine.services.adding",
    "Listing": "engine.services.listing",
    "Counts": "engine.services.listing",
    "Indexer": "engine.services.indexing",
    "EmbeddingBacklog": "engine.services.embedding_backlog",
    "BackgroundEmbedder": "engine.services.embedding_worker",
    "SourceSet": "engine.services.sources",
    "explain_sources": "engine.services.source_report",
    "classify_path": "engine.analyzer.noise",
    "pattern_for": "engine.services.sources",
    "set_config_value": "engine.core.config_file",
    "IndexReport": "engine.services.index_report",
    "run_discovery": "engine.services.discovery",
    "promote": "engine.services.promote",
    "due_for_promotion": "engine.services.references",
    "diagnose": "engine.services.health",
    "KnowledgeWatcher": "engine.services.watch",
    "WatchBatch": "engine.services.watch",
    "SearchResponse": "engine.search.searcher",
    "Category": "engine.core.models",
    "Entry": "engine.core.models",
    "ScoreExplanation": "engine.core.models",
    "SearchMode": "engine.core.models",
    "SearchResult": "engine.core.models",
    "Source": "engine.core.models",
    "MAX_CONTENT_LENGTH": "engine.core.models",
    "MAX_KEYWORDS": "engine.core.models",
    "MERGED_TITLES": "engine.core.models",
    "ENTRY_FIELDS": "engine.core.models",
    "FieldKind": "engine.core.models",
    "Config": "engine.core.config",
    "load_config": "engine.core.config",
    "EngineError": "engine.core.errors",
    "ConfigError": "engine.core.errors",
    "ContentTooLongError": "engine.core.errors",
    "InvalidInputError": "engine.core.errors",
    "FileIsSourceError": "engine.core.errors",
    "LockTimeoutError": "engine.core.errors",
    "NotFoundError": "engine.core.errors",
    "SecretDetectedError": "engine.core.errors",
    "StorageError": "engine.core.errors",
    "MemoryPaths": "engine.storage.paths",
    "FileRefusedError": "engine.guards.files",
    "project_files": "engine.guards.files",
    "read_project_text": "engine.guards.files",
    "write_project_file": "engine.guards.files",
    "resolve_inside": "engine.guards.files",
    "ExportFormat": "engine.core.models",
    "parse_format": "engine.output.export",
    "render": "engine.output.export",
    "result_rows": "engine.output.export",
    "entry_record": "engine.output.serialize",
    "entry_json": "engine.output.serialize",
    "add_json": "engine.output.serialize",
    "result_json": "engine.output.serialize",
    "results_json": "engine.output.serialize",
    "output_schema": "engine.output.serialize",
    "RESOURCE_SCHEME": "engine.output.serialize",
    "ENTRY_KEYS": "engine.output.serialize",
    "STOPWORDS": "engine.search.query",
    "words": "engine.search.query",
    "WriteLock": "engine.storage.locking",
    "default_embedder": "engine.embedding.default",
    "parse_mode": "engine.core.validation",
    "check_limit": "engine.core.validation",
    "check_min_score": "engine.core.validation",
    "MAX_LIMIT": "engine.core.validation",
    "MIN_SCORE_BOUNDS": "engine.core.validation",
    "Fusion": "engine.core.models",
    "Gate": "engine.core.models",
    "NearDuplicatePolicy": "engine.core.models",
    "SecretPolicy": "engine.core.models",
    "NOTE_SOURCES": "engine.core.models",
    "PROMOTABLE_SOURCES": "engine.core.models",
    "EXPLANATION_KEYS": "engine.output.serialize",
    "printable": "engine.guards.terminal",
    "printable_line": "engine.guards.terminal",
    "json_text": "engine.guards.terminal",
    "CONFIG_JSON": "engine.core.config",
    "CONFIG_TOML": "engine.core.config",
    "default_config_toml": "engine.core.config_file",
    "scan_secrets": "engine.services.secret_scan",
    "fix_secrets": "engine.services.secret_scan",
}

__all__ = [
    "CONFIG_JSON",
    "CONFIG_TOML",
    "ENTRY_FIELDS",
    "ENTRY_KEYS",
    "EXPLANATION_KEYS",
    "MAX_CONTENT_LENGTH",
    "MAX_KEYWORDS",
    "MAX_LIMIT",
    "MERGED_TITLES",
    "MIN_SCORE_BOUNDS",
    "NOTE_SOURCES",
    "PROMOTABLE_SOURCES",
    "RESOURCE_SCHEME",
    "STOPWORDS",
    "AddResult",
    "BackgroundEmbedder",
    "Category",
    "Config",
    "ConfigError",
    "ContentTooLongError",
    "Counts",
    "EmbeddingBacklog",
    "EngineError",
    "Entry",
    "ExportFormat",
    "FieldKind",
    "FileIsSourceError",
    "FileRefusedError",
    "Fusion",
    "Gate",
    "IndexReport",
    "Indexer",
    "InvalidInputError",
    "KnowledgeWatcher",
    "Listing",
    "LockTimeoutError",
    "Memory",
    "MemoryPaths",
    "NearDuplicatePolicy",
    "NewEntry",
    "NotFoundError",
    "ScoreExplanation",
    "SearchMode",
    "SearchResponse",
    "SearchResult",
    "SecretDetectedError",
    "SecretPolicy",
    "Source",
    "SourceSet",
    "StorageError",
    "WatchBatch",
    "WriteLock",
    "add_json",
    "add_together",
    "check_limit",
    "check_min_score",
    "classify_path",
    "default_config_toml",
    "default_embedder",
    "diagnose",
    "due_for_promotion",
    "entry_json",
    "entry_record",
    "explain_sources",
    "fix_secrets",
    "json_text",
    "load_config",
    "output_schema",
    "parse_format",
    "parse_mode",
    "pattern_for",
    "printable",
    "printable_line",
    "project_files",
    "promote",
    "read_project_text",
    "render",
    "resolve_entry",
    "resolve_inside",
    "result_json",
    "result_rows",
    "results_json",
    "run_discovery",
    "scan_secrets",
    "set_config_value",
    "words",
    "write_project_file",
]


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:
    from engine.analyzer.noise import classify_path
    from engine.core.config import (
        CONFIG_JSON,
        CONFIG_TOML,
        Config,
        load_config,
    )
    from engine.core.config_file import default_config_toml, set_config_value
    from engine.core.errors import (
        ConfigError,
        ContentTooLongError,
        EngineError,
        FileIsSourceError,
        InvalidInputError,
        LockTimeoutError,
        NotFoundError,
        SecretDetectedError,
        StorageError,
    )
    from engine.core.models import (
        ENTRY_FIELDS,
        MAX_CONTENT_LENGTH,
        MAX_KEYWORDS,
        MERGED_TITLES,
        NOTE_SOURCES,
        PROMOTABLE_SOURCES,
        Category,
        Entry,
        ExportFormat,
        FieldKind,
        Fusion,
        Gate,
        NearDuplicatePolicy,
        ScoreExplanation,
        SearchMode,
        SearchResult,
        SecretPolicy,
        Source,
    )
    from engine.core.validation import (
        MAX_LIMIT,
        MIN_SCORE_BOUNDS,
        check_limit,
        check_min_score,
        parse_mode,
    )
    from engine.embedding.default import default_embedder
    from engine.guards.files import (
        FileRefusedError,
        project_files,
        read_project_text,
        resolve_inside,
        write_project_file,
    )
    from engine.guards.terminal import json_text, printable, printable_line
    from engine.output.export import parse_format, render, result_rows
    from engine.output.serialize import (
        ENTRY_KEYS,
        EXPLANATION_KEYS,
        RESOURCE_SCHEME,
        add_json,
        entry_json,
        entry_record,
        output_schema,
        result_json,
        results_json,
    )
    from engine.search.query import STOPWORDS, words
    from engine.search.searcher import SearchResponse
    from engine.services.adding import add_together
    from engine.services.discovery import run_discovery
    from engine.services.embedding_backlog import EmbeddingBacklog
    from engine.services.embedding_worker import BackgroundEmbedder
    from engine.services.entries import AddResult, NewEntry
    from engine.services.health import diagnose
    from engine.services.index_report import IndexReport
    from engine.services.indexing import Indexer
    from engine.services.listing import Counts, Listing
    from engine.services.lookup import resolve_entry
    from engine.services.memory import Memory
    from engine.services.promote import promote
    from engine.services.references import due_for_promotion
    from engine.services.secret_scan import fix_secrets, scan_secrets
    from engine.services.source_report import explain_sources
    from engine.services.sources import SourceSet, pattern_for
    from engine.services.watch import KnowledgeWatcher, WatchBatch
    from engine.storage.locking import WriteLock
    from engine.storage.paths import MemoryPaths
