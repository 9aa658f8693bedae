"""The engine's front door: :class:`Memory`, the one object every face talks to.

``Memory.open(root)``, then ``add``, ``search``, ``list``…; it composes the store of record
and its mirror (:class:`engine.storage.records.Records`), writes (:class:`EntryService`),
searches (:class:`engine.search.searcher.Searcher`) and stale flags (:class:`Freshness`).
Reads that need no vectors (keyword search, list, get, stats) are served by the SQLite
mirror and never import LanceDB or the model; those are opened on first need.
"""

from __future__ import annotations

import builtins
import logging
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.config import Config, load_config
from engine.core.errors import FileIsSourceError, InvalidInputError
from engine.core.models import Category, Entry, SearchMode, SearchResult, Source
from engine.core.validation import (
    check_search,
    is_unicode,
    parse_category,
    parse_mode,
    parse_source,
)
from engine.embedding.base import Embedder
from engine.embedding.cache import CachedEmbedder, EmbeddingCache, keep_pulled
from engine.embedding.default import default_embedder
from engine.search.keyword import KeywordSearcher
from engine.search.searcher import Searcher, SearchResponse, narrowed
from engine.search.vector import VectorSearcher
from engine.services.entries import AddResult, EntryService, NewEntry, file_source_refusal
from engine.services.near_duplicates import add_checked
from engine.storage.paths import MemoryPaths
from engine.storage.records import Records, RepairReport

if TYPE_CHECKING:
    from engine.freshness.stale import Freshness
    from engine.storage.record_store import RecordStore

log = logging.getLogger(__name__)

NARROWED_OVERFETCH = 200  # candidates searched when results are narrowed (source, stale)


class Memory:
    """One project's memory: store of record, keyword index, embedder and config."""

    def __init__(
        self,
        paths: MemoryPaths,
        config: Config,
        embedder: Embedder,
        *,
        cache_embeddings: bool = True,
        vectors_in_memory: bool = False,
    ) -> None:
        self.paths = paths
        self.config = config
        paths.memory_dir.mkdir(parents=True, exist_ok=True)
        self.embedder: Embedder = (
            CachedEmbedder(embedder, EmbeddingCache(paths.embedding_cache_path))
            if cache_embeddings
            else embedder
        )
        self.records = Records(paths, self.embedder.dimension)
        self.mirror = self.records.mirror
        self.lock = self.records.lock
        self._freshness: Freshness | None = None
        self.entries = EntryService(
            self.records, self.embedder, config, on_written=self._record_citations
        )
        self.vectors = VectorSearcher(
            self.mirror, self.embedder, self.records.store, in_memory=vectors_in_memory
        )
        self.records.vector_listeners += [self.vectors.apply, keep_pulled(self.embedder)]
        self.searcher = Searcher(
            KeywordSearcher(self.mirror),
            self.vectors,
            self.embedder,
            rrf_k=config.rrf_k,
            min_score=config.min_score,
            keyword_weight=config.keyword_weight,
            fusion=config.fusion,
        )
        self.last_repair = self.records.ensure_consistent()

    @classmethod
    def open(
        cls,
        root: Path | str,
        *,
        config: Config | None = None,
        embedder: Embedder | None = None,
        cache_embeddings: bool = True,
        vectors_in_memory: bool = False,
    ) -> Memory:
        """Open (creating on first write) the memory of the project at ``root``.

        Raises:
            ConfigError: the project's configuration is invalid.
        """
        config = config if config is not None else load_config(Path(root))
        return cls(
            MemoryPaths.for_config(Path(root), config),
            config,
            embedder if embedder is not None else default_embedder(),
            cache_embeddings=cache_embeddings,
            vectors_in_memory=vectors_in_memory,
        )

    def close(self) -> None:
        """Release file handles (reference counts wait in the mirror; see :meth:`Records.close`)."""
        self.searcher.closed = True
        self.records.close()
        if self._freshness is not None:
            self._freshness.close()
        if self.embedder.cache is not None:
            self.embedder.cache.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- parts ---------------------------------------------------------------------------

    def store(self) -> RecordStore:
        """The store of record (LanceDB is imported on first call); see
        :meth:`engine.storage.records.Records.store`."""
        return self.records.store()

    @property
    def freshness(self) -> Freshness:
        """Citations of code and stale flags (:mod:`engine.freshness`), opened on first use."""
        if self._freshness is None:
            from engine.freshness.stale import Freshness

            self._freshness = Freshness(self.paths.root, self.paths.memory_dir)
        return self._freshness

    def stale_reasons(self, ids: Sequence[str]) -> dict[str, str]:
        """Why each of these entries is stale, by id (fresh ones are absent); a failure
        (stale flags are derived data) is logged and reads as "none stale"."""
        try:
            return self.freshness.stale(list(ids)) if ids else {}
        except Exception:
            log.warning("could not check entries for stale citations", exc_info=True)
            return {}

    def _record_citations(self, entries: Sequence[Entry]) -> None:
        """Record what notes cite of the code; a failure here never fails the write."""
        try:
            self.freshness.record_notes(entries)
        except Exception:
            log.warning("could not record what %d entries cite", len(entries), exc_info=True)

    @property
    def base_embedder(self) -> Embedder:
        """The model behind the cache."""
        return self.embedder.model

    def _load_model(self) -> None:
        self.embedder.load()

    def warm_up(self, *, mode: SearchMode | str = SearchMode.HYBRID) -> None:
        """Load the model and run one throw-away search in ``mode``, so the first real
        search does not pay for loading, the first inference or the vectors' first read.
        Blocking: long-lived faces call it from a background thread."""
        self._load_model()
        self.search("warm up", mode=mode, limit=1)

    def warm_up_writes(self) -> None:
        """Load the model, embed once and open the store's table, so the first write
        (watch mode's first change) does not pay for them. Blocking."""
        self._load_model()
        self.base_embedder.embed_documents(["warm up"])  # the first inference is slow
        if self.store().exists():
            self.store().count()  # imports LanceDB and opens the table

    # --- writes (see EntryService and Records) --------------------------------------------

    def add(
        self,
        content: str,
        *,
        category: Category | str = Category.GENERAL,
        source: Source | str = Source.MANUAL,
        keywords: Sequence[str] = (),
        file_path: str = "",
        section_title: str = "",
    ) -> AddResult:
        """Store one entry; identical content returns the existing entry instead, and a
        near duplicate (cosine >= 0.9) is reported or skipped (``near_duplicate``).

        Raises:
            InvalidInputError: empty content, unknown category, too many keywords.
            ContentTooLongError: content over 10,000 characters.
            SecretDetectedError: a likely secret, with ``secret_policy = "reject"``.
        """
        item = NewEntry(content, category, source, keywords, file_path, section_title)
        return add_checked(self, item)

    def add_many(
        self, items: Sequence[NewEntry], *, secret_policy: str | None = None
    ) -> list[AddResult]:
        """Store several entries in one write; see :meth:`EntryService.add_many`."""
        return self.entries.add_many(items, secret_policy=secret_policy)

    def update(
        self,
        entry_id: str,
        *,
        content: str | None = None,
        category: Category | str | None = None,
        keywords: Sequence[str] | None = None,
        section_title: str | None = None,
    ) -> Entry:
        """Change an entry; new content is re-embedded. Raises NotFoundError."""
        return self.entries.update(
            entry_id,
            content=content,
            category=category,
            keywords=keywords,
            section_title=section_title,
        )

    def update_metadata(self, entries: Sequence[Entry]) -> None:
        """Rewrite entries whose text is unchanged (line numbers, titles): no re-embedding."""
        self.entries.update_metadata(entries)

    def delete(self, entry_id: str) -> bool:
        """Delete one entry; False when there was none with this id.

        Raises:
            FileIsSourceError: the entry is indexed from a markdown file. The file is the
                source: a deleted chunk would come back with the next ``index --force``.
        """
        found = self.mirror.get(entry_id) if is_unicode(entry_id) else None
        if found is not None and found.source is Source.MARKDOWN:
            raise FileIsSourceError(file_source_refusal(found))
        return self.entries.delete(entry_id)

    def delete_many(self, ids: Sequence[str]) -> int:
        """Delete entries by id; returns how many existed."""
        return self.entries.delete_many(ids)

    def restore(self, entries: Sequence[Entry]) -> None:
        """Put back entries exactly as they were (undo of a delete)."""
        self.entries.restore(entries)

    def prepare_content(
        self, content: str, *, secret_policy: str | None = None, path: str = ""
    ) -> tuple[str, tuple[str, ...]]:
        """Validate and clean content for storage; see :meth:`EntryService.prepare_content`."""
        return self.entries.prepare_content(content, secret_policy=secret_policy, path=path)

    def record_references(self, ids: Sequence[str]) -> None:
        """Count that these entries were returned to a caller (``count_references``)."""
        if self.config.count_references:
            self.records.record_references(ids)

    def flush_references(self) -> None:
        """Write reference counts recorded since the store's last write into the store."""
        self.records.flush_references()

    def repair_index(self) -> RepairReport:
        """Bring the keyword index in line with the store (only what differs is rewritten)."""
        return self.records.repair_index()

    def rebuild_index(self) -> int:
        """Rebuild the keyword index from the store from scratch; returns the entry count."""
        return self.records.rebuild_index()

    def maintain_vector_index(self) -> str:
        """Create or refresh the store's ANN index when the memory is large enough."""
        return self.records.maintain_vector_index()

    # --- reads ---------------------------------------------------------------------------

    def get(self, entry_id: str) -> Entry | None:
        """The entry with this id, or None. The id of an entry that was promoted answers
        with the entry now holding its text in the knowledge file (:mod:`.aliases`)."""
        if not is_unicode(entry_id):
            return None
        self.records.refresh_mirror()
        found = self.mirror.get(entry_id)
        if found is not None:
            return found
        from engine.services.aliases import promoted_entry

        return promoted_entry(self.paths.meta_path, self.mirror, entry_id)

    def require(self, entry_id: str) -> Entry:
        """The entry with this id. Raises :class:`NotFoundError` when there is none."""
        return self.entries.require(entry_id)

    def list(
        self,
        *,
        category: Category | str | None = None,
        source: Source | str | None = None,
        limit: int | None = None,
        offset: int = 0,
        sort: str = "recent",
    ) -> list[Entry]:
        """Entries newest first, optionally filtered by category and source; with
        ``sort="refs"`` the most referenced first (then newest)."""
        if sort not in ("recent", "refs"):
            raise InvalidInputError(f"sort must be recent or refs, got {sort!r}")
        self.records.refresh_mirror()
        return self.mirror.recent(
            category=parse_category(category) if category is not None else None,
            source=parse_source(source) if source is not None else None,
            limit=limit,
            offset=offset,
            by_references=sort == "refs",
        )

    def count(
        self, *, category: Category | str | None = None, source: Source | str | None = None
    ) -> int:
        """Number of entries (optionally of one category, from one source)."""
        self.records.refresh_mirror()
        return self.mirror.count(
            category=parse_category(category) if category else None,
            source=parse_source(source) if source else None,
        )

    def search(
        self,
        query: str,
        *,
        mode: SearchMode | str | None = None,
        limit: int | None = None,
        category: Category | str | None = None,
        source: Source | str | None = None,
        stale_only: bool = False,
        prefix_last: bool = False,
        wait_for_model: bool = True,
        min_score: float | None = None,
    ) -> SearchResponse:
        """Search the memory. ``mode`` and ``limit`` default to the configuration;
        ``min_score`` (a relevance, 0..1; 0 or less: no gate) replaces the configured
        relevance floor for this search;
        with ``source`` or ``stale_only``, the best ``limit`` of the results that qualify.

        Raises:
            InvalidInputError: empty query, bad limit, unknown mode, category or source.
        """
        limit = self.config.default_limit if limit is None else limit
        text = check_search(query, limit, min_score)
        self.records.refresh_mirror()
        wanted = parse_source(source) if source is not None else None
        narrow = wanted is not None or stale_only
        response = self.searcher.search(
            text,
            mode=parse_mode(mode) if mode is not None else self.config.search_mode,
            limit=max(limit, NARROWED_OVERFETCH) if narrow else limit,
            category=parse_category(category) if category is not None else None,
            prefix_last=prefix_last,
            wait_for_model=wait_for_model,
            min_score=min_score,
        )
        try:
            response = replace(response, results=self.freshness.mark(response.results))
        except Exception:  # a broken citation file must not fail a search
            log.warning("could not check results for stale citations", exc_info=True)
        if not narrow:
            return response
        return replace(response, results=narrowed(response.results, wanted, stale_only, limit))

    def relevant(self, prompt: str) -> builtins.list[tuple[SearchResult, float]]:
        """Entries worth showing unasked for ``prompt`` (keyword only, no model), each with
        the share of the prompt it covers; stale flags set."""
        found = self.searcher.relevant(prompt.replace("\x00", " "))
        try:
            marked = self.freshness.mark(tuple(r for r, _ in found))
        except Exception:  # a broken citation file must not fail the hook
            return found
        return [(m, c) for m, (_, c) in zip(marked, found, strict=True)]

    def stats(self) -> dict[str, Any]:
        """Counts by category and source, and where things are."""
        return {
            "entries": self.mirror.count(),
            "by_category": self.mirror.counts_by("category"),
            "by_source": self.mirror.counts_by("source"),
            "files": len(self.mirror.file_paths()),
            "project": str(self.paths.root),
            "memory_dir": str(self.paths.memory_dir),
            "config": self.config.source,
        }
