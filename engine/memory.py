"""The engine's front door: :class:`Memory`, the one object every face talks to.

    memory = Memory.open(project_root)
    memory.add("LanceDB needs double quotes around camelCase columns", category="gotcha")
    for result in memory.search("lancedb column quoting").results:
        print(result.score, result.entry.content)

Reads that need no vectors (keyword search, list, get, stats) are served by the
SQLite mirror and never import LanceDB or the embedding model; the vector store and
the model are opened on first need.
"""

from __future__ import annotations

import logging
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.config import Config, load_config
from engine.embeddings import CachedEmbedder, Embedder, EmbeddingCache, default_embedder
from engine.errors import (
    ContentTooLongError,
    InvalidInputError,
    LockTimeoutError,
    NotFoundError,
    SecretDetectedError,
    StorageError,
)
from engine.fts import FtsIndex
from engine.hashing import content_hash, normalize_content
from engine.locking import WriteLock
from engine.models import MAX_CONTENT_LENGTH, MAX_KEYWORDS, Category, Entry, SearchMode, Source
from engine.paths import MemoryPaths
from engine.privacy import find_secrets, redact_private, redact_secrets
from engine.search import Searcher, SearchResponse
from engine.store import VectorStore, latest_version_on_disk
from engine.vector_index import VectorIndex

if TYPE_CHECKING:
    from engine.freshness import Freshness

log = logging.getLogger(__name__)

EXACT_IN_MEMORY_MAX = 20_000
"""Up to this many entries a one-shot search loads every vector from the embedding cache
and searches exactly in memory (tens of milliseconds) instead of importing LanceDB
(over a second); see bench/RESULTS.md."""


@dataclass(frozen=True, slots=True)
class NewEntry:
    """What a caller provides to create an entry; the engine fills in the rest."""

    content: str
    category: Category | str = Category.GENERAL
    source: Source | str = Source.MANUAL
    keywords: Sequence[str] = ()
    file_path: str = ""
    section_title: str = ""
    line_start: int = 0
    line_end: int = 0
    promoted_at: str = ""
    """Set for chunks of a file written by promotion (marks the entries promoted)."""
    reference_count: int = 0


@dataclass(frozen=True, slots=True)
class AddResult:
    """Outcome of an add: the stored entry and whether it is new (False: a duplicate)."""

    entry: Entry
    created: bool
    redactions: tuple[str, ...] = ()
    """Kinds of secret that were redacted from the content before storage."""


@dataclass(frozen=True, slots=True)
class RepairReport:
    """What re-synchronising the keyword index with the store changed."""

    added: int
    removed: int

    @property
    def changed(self) -> bool:
        """Whether anything was out of step."""
        return bool(self.added or self.removed)


def now_iso() -> str:
    """The current UTC time, ISO 8601 with microseconds (sorts as text)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def parse_category(value: Category | str) -> Category:
    """A :class:`Category` from its name, with a message listing the valid ones."""
    try:
        return Category(str(value).strip().lower())
    except ValueError:
        names = ", ".join(c.value for c in Category)
        raise InvalidInputError(f"unknown category '{value}': choose one of {names}") from None


def parse_source(value: Source | str) -> Source:
    """A :class:`Source` from its name."""
    try:
        return Source(str(value).strip().lower())
    except ValueError:
        names = ", ".join(s.value for s in Source)
        raise InvalidInputError(f"unknown source '{value}': choose one of {names}") from None


def parse_mode(value: SearchMode | str) -> SearchMode:
    """A :class:`SearchMode` from its name."""
    try:
        return SearchMode(str(value).strip().lower())
    except ValueError:
        raise InvalidInputError(
            f"unknown search mode '{value}': choose one of vector, keyword, hybrid"
        ) from None


def clean_keywords(keywords: Sequence[str]) -> tuple[str, ...]:
    """Trimmed, de-duplicated keywords; at most :data:`MAX_KEYWORDS`."""
    if isinstance(keywords, str):
        keywords = keywords.split(",")
    cleaned = tuple(dict.fromkeys(k.strip() for k in keywords if k and k.strip()))
    if len(cleaned) > MAX_KEYWORDS:
        raise InvalidInputError(f"too many keywords: {len(cleaned)} (at most {MAX_KEYWORDS})")
    return cleaned


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
        self.vectors_in_memory = vectors_in_memory
        """Keep a copy of all vectors for fast search (long-lived processes: TUI, MCP)."""
        self.vector_index = VectorIndex()
        self.config = config
        paths.memory_dir.mkdir(parents=True, exist_ok=True)
        self.lock = WriteLock(paths.lock_path)
        self.fts = FtsIndex(paths.fts_path)
        self.embedder: Embedder = (
            CachedEmbedder(embedder, EmbeddingCache(paths.embedding_cache_path))
            if cache_embeddings
            else embedder
        )
        self._store: VectorStore | None = None
        self._freshness: Freshness | None = None
        self.searcher = Searcher(
            self.fts,
            self.store,
            self.embedder,
            rrf_k=config.rrf_k,
            min_score=config.min_score,
            keyword_weight=config.keyword_weight,
            similarities=self._similarities,
            vector_search=self._vector_search,
        )
        self.last_repair = self._ensure_consistent()

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
        root = Path(root)
        config = config if config is not None else load_config(root)
        paths = MemoryPaths.for_root(root, config.knowledge_dir)
        return cls(
            paths,
            config,
            embedder if embedder is not None else default_embedder(),
            cache_embeddings=cache_embeddings,
            vectors_in_memory=vectors_in_memory,
        )

    def close(self) -> None:
        """Hand reference counts still pending to the store; release file handles."""
        self.flush_references()
        self.fts.close()
        if self._freshness is not None:
            self._freshness.close()
        cache = getattr(self.embedder, "cache", None)
        if isinstance(cache, EmbeddingCache):
            cache.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the store and consistency -------------------------------------------------------

    def store(self) -> VectorStore:
        """The vector store (LanceDB is imported on first call).

        Raises:
            StorageError: the store is gone although entries were written to it; a
                write now would start an empty store and repairs would then empty the
                keyword index, the last copy of those entries.
        """
        if self._store is None:
            store = VectorStore(self.paths.vectors_dir, self.embedder.dimension)
            if not store.exists() and self._recorded_store_version() > 0:
                raise StorageError(
                    f"the vector store at {self.paths.vectors_dir} is missing, but the "
                    f"keyword index lists {self.fts.count()} entries written to it; run "
                    "`memory-tui doctor --rebuild-store` to rebuild it from the keyword index"
                )
            self._store = store
        return self._store

    def _recorded_store_version(self) -> int:
        try:
            return int(self.fts.state("store_version") or 0)
        except ValueError:
            return 0

    @property
    def freshness(self) -> Freshness:
        """Citations of code and stale flags (:mod:`engine.freshness`), opened on first use."""
        if self._freshness is None:
            from engine.freshness import Freshness

            self._freshness = Freshness(self.paths.root, self.paths.memory_dir)
        return self._freshness

    def _record_citations(self, entries: Sequence[Entry]) -> None:
        """Record what notes cite of the code; a failure here never fails the write."""
        try:
            self.freshness.record_notes(entries)
        except Exception:
            log.warning("could not record what %d entries cite", len(entries), exc_info=True)

    @property
    def base_embedder(self) -> Embedder:
        """The model behind the cache."""
        return self.embedder.inner if isinstance(self.embedder, CachedEmbedder) else self.embedder

    def _vector_snapshot(self) -> tuple[list[str], list[str], Any]:
        """Every entry's vector: from the embedding cache (a SQLite read, no LanceDB
        import) when it holds them all, else from the store."""
        import numpy as np

        if isinstance(self.embedder, CachedEmbedder):
            ids, hashes, categories = self.fts.vector_keys()
            # One scan of the cache beats 500-key lookups several times over (88 vs 300 ms
            # for 10,000 entries), even when it holds vectors of deleted entries too.
            cached = self.embedder.cache.all_of(self.embedder.model_id)
            if all(h in cached for h in hashes):
                joined = b"".join(cached[h] for h in hashes)
                flat = np.frombuffer(joined, dtype=np.float32)
                return ids, categories, flat.reshape(len(ids), self.embedder.dimension)
            log.info("embedding cache incomplete; reading vectors from the store")
        return self.store().all_vectors()

    def _refresh_vectors(self) -> None:
        self.vector_index.refresh(self.fts.state("vectors_version") or "", self._vector_snapshot)

    def _vector_search(
        self, qvec: Any, limit: int, category: Category | None
    ) -> list[tuple[Entry, float]]:
        """Nearest entries: from the in-memory copy when kept (or when the memory is small
        enough that loading it beats importing LanceDB), else from LanceDB."""
        if not self.vectors_in_memory and self.fts.count() > EXACT_IN_MEMORY_MAX:
            where = f"category = '{category.value}'" if category is not None else None
            return self.store().vector_search(qvec, limit, where=where)
        self._refresh_vectors()
        hits = self.vector_index.search(qvec, limit, category.value if category else None)
        entries = self.fts.get_many([entry_id for entry_id, _ in hits])
        return [(entries[i], sim) for i, sim in hits if i in entries]

    def _similarities(self, qvec: Any, entries: Sequence[Entry]) -> dict[str, float]:
        """Cosine similarity of a query to entries: from the in-memory vector copy when
        enabled, else the embedding cache (a SQLite lookup), else the store (LanceDB)."""
        import numpy as np

        sims: dict[str, float] = {}
        if self.vectors_in_memory or self.vector_index.size:
            self._refresh_vectors()
            sims = self.vector_index.similarities(qvec, [e.id for e in entries])
        if isinstance(self.embedder, CachedEmbedder) and len(sims) < len(entries):
            hashes = list({e.content_hash for e in entries if e.id not in sims})
            cached = self.embedder.cache.get_many(hashes, self.embedder.model_id)
            for entry in entries:
                blob = cached.get(entry.content_hash)
                if blob is not None and entry.id not in sims:
                    sims[entry.id] = float(np.frombuffer(blob, dtype=np.float32) @ qvec)
        missing = [e.id for e in entries if e.id not in sims]
        if missing:
            sims.update(self.store().similarities(qvec, missing))
        return sims

    def _needs_repair(self) -> bool:
        """Whether the keyword index may be out of step with the store: it was recreated,
        a write was interrupted (``pending``), or the store's version on disk is not the
        one the index was last synchronised with (a store restored from a copy, a writer
        that bypassed the mirror). Reads one directory listing, never opens LanceDB."""
        if self.fts.recreated or self.fts.pending:
            return True
        on_disk = latest_version_on_disk(self.paths.vectors_dir)
        return on_disk is not None and on_disk != self._recorded_store_version()

    def _ensure_consistent(self) -> RepairReport | None:
        if not self._needs_repair():
            return None
        with self.lock.hold():
            if not self._needs_repair():
                return None  # a concurrent writer finished while we waited
            try:
                report = self.repair_index()
            except LockTimeoutError:
                raise
            except StorageError as exc:
                # The store cannot be read: keep serving reads from the mirror, which is
                # then the only copy; writes refuse with the same message.
                log.warning("%s", exc.message)
                return None
        if report.changed:
            log.warning(
                "keyword index was out of step with the store and has been repaired "
                "(%d rows added or refreshed, %d removed)",
                report.added,
                report.removed,
            )
        return report

    def repair_index(self) -> RepairReport:
        """Bring the keyword index in line with the store (only what differs is rewritten)."""
        with self.lock.hold():
            if not self.store().exists():
                with self.fts.transaction() as db:
                    removed = self.fts.count()
                    self.fts.clear(db)
                    self._mark_synced(db, 0)
                return RepairReport(0, removed)
            # Counts only the mirror has would otherwise be overwritten by the store's.
            folded = self._fold_references(self.store())
            store_stamps = self.store().ids_and_stamps()
            mirror_stamps = self.fts.ids_and_stamps()
            stale = [i for i, s in store_stamps.items() if mirror_stamps.get(i) != s]
            gone = [i for i in mirror_stamps if i not in store_stamps]
            fresh = self.store().get_many(stale)
            with self.fts.transaction() as db:
                if folded:
                    self.fts.clear_reference_backlog(db)
                self.fts.delete(db, gone)
                self.fts.upsert(db, fresh.values())
                self._mark_synced(db, self.store().version)
        self.fts.recreated = False
        return RepairReport(len(stale), len(gone))

    def rebuild_index(self) -> int:
        """Rebuild the keyword index from the store from scratch; returns the entry count."""
        with self.lock.hold():
            if self.store().exists():
                self._fold_references(self.store())
            entries = self.store().all_entries()
            with self.fts.transaction() as db:
                self.fts.clear(db)
                self.fts.upsert(db, entries)
                self._mark_synced(db, self.store().version if self.store().exists() else 0)
        return len(entries)

    def _mark_synced(self, db: Any, version: int, *, vectors_changed: bool = True) -> None:
        self.fts.set_state(db, "pending", "0")
        self.fts.set_state(db, "store_version", str(version))
        if vectors_changed:  # tells in-memory vector copies (any process) to reload
            self.fts.set_state(db, "vectors_version", uuid.uuid4().hex)

    def _write(self, store_op: Any, mirror_op: Any, *, vectors_changed: bool = True) -> None:
        """Apply one change to the store and the mirror, crash-safely, under the lock."""
        with self.lock.hold():
            if self.fts.pending:  # an earlier write reached the store but not the index
                self.repair_index()
            store = self.store()  # a missing store refuses here, before pending is set
            self.fts.mark_pending()
            folded = self._fold_references(store)
            store_op(store)
            with self.fts.transaction() as db:
                if folded:
                    self.fts.clear_reference_backlog(db)
                mirror_op(db)
                self._mark_synced(db, self.store().version, vectors_changed=vectors_changed)

    def maintain_vector_index(self) -> str:
        """Create or refresh the store's ANN index when the memory is large enough for one
        (:data:`engine.store.ANN_MIN_ROWS`); says what it did, "" when nothing was due.
        Smaller memories return at once, without opening LanceDB."""
        from engine.store import ANN_MIN_ROWS

        if self.fts.count() < ANN_MIN_ROWS or not self.paths.vectors_dir.exists():
            return ""
        done = ""

        def build(store: VectorStore) -> None:
            nonlocal done
            done = store.maintain_vector_index()

        # Under the write lock like any write: an index build is a new store version.
        self._write(build, lambda db: None, vectors_changed=False)
        if done:
            log.info("%s", done)
        return done

    # --- validation ----------------------------------------------------------------------

    def prepare_content(
        self, content: str, *, secret_policy: str | None = None
    ) -> tuple[str, tuple[str, ...]]:
        """Validate and clean content for storage: returns (content, redacted kinds).

        ``<private>`` blocks are always redacted; other likely secrets are rejected
        or redacted according to ``secret_policy``.
        """
        if not isinstance(content, str):
            raise InvalidInputError("content must be text")
        text = normalize_content(redact_private(content))
        if not text or text == "[REDACTED]":
            raise InvalidInputError("content is empty (after removing <private> blocks)")
        hits = find_secrets(text)
        kinds = tuple(dict.fromkeys(h.kind for h in hits))
        if hits:
            if (secret_policy or self.config.secret_policy) == "reject":
                raise SecretDetectedError(
                    "content looks like it contains a secret (" + ", ".join(kinds) + "); "
                    "remove it, wrap it in <private>…</private>, or set secret_policy = "
                    '"redact"'
                )
            text = redact_secrets(text, hits)
        if len(text) > MAX_CONTENT_LENGTH:
            raise ContentTooLongError(
                f"content is {len(text):,} characters; the limit is {MAX_CONTENT_LENGTH:,}"
            )
        return text, kinds

    def _build(
        self, item: NewEntry, stamp: str, secret_policy: str | None
    ) -> tuple[Entry, tuple[str, ...]]:
        text, kinds = self.prepare_content(item.content, secret_policy=secret_policy)
        entry = Entry(
            id=uuid.uuid4().hex,
            content=text,
            category=parse_category(item.category),
            source=parse_source(item.source),
            file_path=item.file_path,
            section_title=item.section_title.strip(),
            keywords=self._safe_keywords(item.keywords, secret_policy),
            created_at=stamp,
            updated_at=stamp,
            content_hash=content_hash(text),
            line_start=item.line_start,
            line_end=item.line_end,
            promoted=bool(item.promoted_at),
            promoted_at=item.promoted_at,
            reference_count=item.reference_count,
        )
        return entry, kinds

    def _safe_keywords(self, keywords: Sequence[str], secret_policy: str | None) -> tuple[str, ...]:
        """Clean keywords; one that looks like a secret is rejected or dropped."""
        kept = []
        for keyword in clean_keywords(keywords):
            hits = find_secrets(keyword)
            if not hits:
                kept.append(keyword)
            elif (secret_policy or self.config.secret_policy) == "reject":
                raise SecretDetectedError(
                    f"a keyword looks like a secret ({hits[0].kind}); remove it"
                )
        return tuple(kept)

    def _existing(self, entry: Entry) -> Entry | None:
        # Markdown chunks are owned by their file: the same paragraph in two files is two
        # entries, so editing one file never removes what the other still says.
        # A note that repeats a knowledge file's paragraph is its own entry too: it must
        # survive when that file is edited.
        scope = entry.file_path if entry.source is Source.MARKDOWN else None
        found = self.fts.find_by_hash(entry.content_hash, file_path=scope)
        if entry.source is not Source.MARKDOWN:
            found = [e for e in found if e.source is not Source.MARKDOWN]
        return found[0] if found else None

    # --- writes --------------------------------------------------------------------------

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
        """Store one entry; identical content returns the existing entry instead.

        Raises:
            InvalidInputError: empty content, unknown category, too many keywords.
            ContentTooLongError: content over 10,000 characters.
            SecretDetectedError: a likely secret, with ``secret_policy = "reject"``.
        """
        item = NewEntry(content, category, source, keywords, file_path, section_title)
        return self.add_many([item])[0]

    def add_many(
        self, items: Sequence[NewEntry], *, secret_policy: str | None = None
    ) -> list[AddResult]:
        """Store several entries in one write (embedded in one batch); see :meth:`add`.

        ``secret_policy`` overrides the configured one (the indexer always redacts).
        """
        stamp = now_iso()
        built = [self._build(item, stamp, secret_policy) for item in items]
        # Known duplicates are not embedded; the check is repeated under the lock,
        # where it is authoritative (another process may have added the same text).
        candidates = [e for e in _unique([e for e, _ in built]) if self._existing(e) is None]
        if candidates:
            self.store()  # a missing store is refused before the model is loaded
        vectors = self.embedder.embed_documents([e.content for e in candidates])
        results: dict[str, AddResult] = {}
        with self.lock.hold():
            for entry, _ in built:
                existing = self._existing(entry)
                if existing is not None:
                    results[_dedup_key(entry)] = AddResult(existing, False)
            fresh, fresh_rows = [], []
            for row, entry in enumerate(candidates):
                if _dedup_key(entry) not in results:
                    fresh.append(entry)
                    fresh_rows.append(row)
                    results[_dedup_key(entry)] = AddResult(entry, True)
            if fresh:
                self._write(
                    lambda s: s.add(fresh, vectors[fresh_rows]),
                    lambda db: self.fts.upsert(db, fresh),
                )
        self._record_citations([r.entry for r in results.values() if r.created])
        out, reported = [], set()
        for entry, kinds in built:
            key = _dedup_key(entry)
            result = results[key]
            if result.created and key in reported:
                result = AddResult(result.entry, False)  # a repeat within this batch
            elif result.created:
                result = replace(result, redactions=kinds)
            reported.add(key)
            out.append(result)
        return out

    def update(
        self,
        entry_id: str,
        *,
        content: str | None = None,
        category: Category | str | None = None,
        keywords: Sequence[str] | None = None,
        section_title: str | None = None,
    ) -> Entry:
        """Change an entry; new content is re-embedded.

        Raises:
            NotFoundError: no entry has this id.
        """
        current = self.require(entry_id)
        changes: dict[str, Any] = {}
        if content is not None:
            text, _ = self.prepare_content(content)
            changes.update(content=text, content_hash=content_hash(text))
        if category is not None:
            changes["category"] = parse_category(category)
        if keywords is not None:
            changes["keywords"] = self._safe_keywords(keywords, None)
        if section_title is not None:
            changes["section_title"] = section_title.strip()
        vector = self.embedder.embed_documents([changes.get("content", current.content)])
        with self.lock.hold():
            # Re-read under the lock: a reference counted meanwhile must not be lost.
            latest = self.require(entry_id)
            entry = replace(latest, **changes, updated_at=now_iso())
            self._write(
                lambda s: s.upsert([entry], vector), lambda db: self.fts.upsert(db, [entry])
            )
        if content is not None:
            self._record_citations([entry])
        return entry

    def update_metadata(self, entries: Sequence[Entry]) -> None:
        """Rewrite entries whose text is unchanged (line numbers, titles): no re-embedding."""
        if not entries:
            return
        by_id = {e.id: e for e in entries}
        vectors = self.store().vectors_for(list(by_id))
        present = [by_id[i] for i in by_id if i in vectors]
        if not present:
            return
        import numpy as np

        matrix = np.stack([vectors[e.id] for e in present])
        self._write(lambda s: s.upsert(present, matrix), lambda db: self.fts.upsert(db, present))

    def delete(self, entry_id: str) -> bool:
        """Delete one entry; False when there was none with this id."""
        return self.delete_many([entry_id]) == 1

    def delete_many(self, ids: Sequence[str]) -> int:
        """Delete entries by id; returns how many existed."""
        with self.lock.hold():
            present = list(self.fts.get_many(list(ids)))
            if present:
                self._write(lambda s: s.delete(present), lambda db: self.fts.delete(db, present))
        return len(present)

    def restore(self, entries: Sequence[Entry]) -> None:
        """Put back entries exactly as they were (undo of a delete), re-embedding from cache."""
        if not entries:
            return
        vectors = self.embedder.embed_documents([e.content for e in entries])
        self._write(
            lambda s: s.upsert(list(entries), vectors),
            lambda db: self.fts.upsert(db, entries),
        )

    def record_references(self, ids: Sequence[str]) -> None:
        """Count that these entries were returned to a caller: ``referenceCount`` grows by
        the number of times each id appears in ``ids``."""
        if not ids:
            return
        counts = Counter(ids)
        with self.lock.hold():
            current = self.fts.get_many(list(counts))
            bumped = [
                replace(e, reference_count=e.reference_count + counts[e.id])
                for e in current.values()
            ]
            if not bumped:
                return
            # Counted in the mirror only; the store receives the counts with its next write
            # (:meth:`_fold_references`). A search thus never opens LanceDB (a second to
            # import, 100 MB resident in the MCP server) nor adds a store version.
            with self.fts.transaction() as db:
                self.fts.upsert(db, bumped)
                self.fts.note_references(db, [e.id for e in bumped])

    def flush_references(self) -> None:
        """Write reference counts recorded since the store's last write into the store now
        (a long-lived process does it when it closes). Never raises: on failure the counts
        stay in the backlog for the next writer."""
        try:
            pending = self.fts.reference_backlog()
        except Exception:  # a closed or unreadable index has nothing to hand over
            return
        if not pending or not self.paths.vectors_dir.exists():
            return
        try:
            self._write(lambda store: None, lambda db: None, vectors_changed=False)
        except Exception as exc:
            log.warning("reference counts stay pending until the next write: %s", exc)

    def _fold_references(self, store: VectorStore) -> bool:
        """Give the store the reference counts recorded in the mirror since its last write
        (under the write lock; the caller clears the backlog in its mirror transaction)."""
        backlog = self.fts.reference_backlog()
        if backlog:
            store.set_reference_counts(backlog)
        return bool(backlog)

    # --- reads ---------------------------------------------------------------------------

    def get(self, entry_id: str) -> Entry | None:
        """The entry with this id, or None."""
        return self.fts.get(entry_id)

    def require(self, entry_id: str) -> Entry:
        """The entry with this id. Raises :class:`NotFoundError` when there is none."""
        entry = self.get(entry_id)
        if entry is None:
            raise NotFoundError(f"no entry with id '{entry_id}'")
        return entry

    def list(
        self,
        *,
        category: Category | str | None = None,
        source: Source | str | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[Entry]:
        """Entries newest first, optionally filtered by category and source."""
        return self.fts.recent(
            category=parse_category(category) if category is not None else None,
            source=parse_source(source) if source is not None else None,
            limit=limit,
            offset=offset,
        )

    def count(self, *, category: Category | str | None = None) -> int:
        """Number of entries (optionally of one category)."""
        return self.fts.count(category=parse_category(category) if category else None)

    def search(
        self,
        query: str,
        *,
        mode: SearchMode | str | None = None,
        limit: int | None = None,
        category: Category | str | None = None,
        prefix_last: bool = False,
        wait_for_model: bool = True,
    ) -> SearchResponse:
        """Search the memory. ``mode`` and ``limit`` default to the configuration.

        Raises:
            InvalidInputError: empty query, bad limit, unknown mode or category.
        """
        if not isinstance(query, str) or not query.strip():
            raise InvalidInputError("query is empty")
        limit = self.config.default_limit if limit is None else limit
        if not 1 <= limit <= 1000:
            raise InvalidInputError(f"limit must be from 1 to 1000, got {limit}")
        response = self.searcher.search(
            query.replace("\x00", " "),
            mode=parse_mode(mode) if mode is not None else self.config.search_mode,
            limit=limit,
            category=parse_category(category) if category is not None else None,
            prefix_last=prefix_last,
            wait_for_model=wait_for_model,
        )
        try:
            return self.freshness.mark(response)
        except Exception:  # a broken citation file must not fail a search
            log.warning("could not check results for stale citations", exc_info=True)
            return response

    def stats(self) -> dict[str, Any]:
        """Counts by category and source, and where things are."""
        return {
            "entries": self.fts.count(),
            "by_category": self.fts.counts_by("category"),
            "by_source": self.fts.counts_by("source"),
            "files": len(self.fts.file_paths()),
            "project": str(self.paths.root),
            "memory_dir": str(self.paths.memory_dir),
            "config": self.config.source,
        }


def _dedup_key(entry: Entry) -> str:
    scope = entry.file_path if entry.source is Source.MARKDOWN else ""
    return f"{scope}\x00{entry.content_hash}"


def _unique(entries: Sequence[Entry]) -> list[Entry]:
    seen: dict[str, Entry] = {}
    for entry in entries:
        seen.setdefault(_dedup_key(entry), entry)
    return list(seen.values())
