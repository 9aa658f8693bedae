"""Writing entries: validation, secret handling, dedup by content hash, embedding.

:class:`EntryService` turns what a caller provides (:class:`NewEntry`) into stored
entries. Content is checked whole before anything is stored: ``<private>`` blocks are
redacted, likely secrets rejected or redacted (:mod:`engine.guards.privacy`), length
and keywords validated. Identical content returns the existing entry. Vectors are
computed outside the write lock; the store and mirror change through
:class:`engine.storage.records.Records`.
"""

from __future__ import annotations

import logging
import sqlite3
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.core.config import Config
from engine.core.errors import (
    NotFoundError,
)
from engine.core.hashing import content_hash
from engine.core.models import Category, Entry, SecretPolicy, Source
from engine.core.validation import (
    is_unicode,
    now_iso,
    parse_category,
    parse_source,
)
from engine.embedding.base import Embedder
from engine.embedding.document import cached_entries, document_key, embed_entries
from engine.services.content import checked_content, checked_keywords
from engine.storage.changes import Change
from engine.storage.records import Records

log = logging.getLogger(__name__)


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
class NearDuplicate:
    """A stored entry close in meaning to a text being added."""

    entry: Entry
    similarity: float


@dataclass(frozen=True, slots=True)
class Prepared:
    """An entry as it will be stored (content checked, redacted and hashed once), and the
    kinds of secret redacted from it."""

    entry: Entry
    redactions: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class AddResult:
    """Outcome of an add: the stored entry and whether it is new (False: a duplicate)."""

    entry: Entry
    created: bool
    redactions: tuple[str, ...] = ()
    """Kinds of secret that were redacted from the content before storage."""
    near_duplicate: NearDuplicate | None = None
    """A stored entry close in meaning (see :mod:`engine.services.near_duplicates`)."""


class EntryService:
    """Adds, changes and removes entries of one memory."""

    def __init__(
        self,
        records: Records,
        embedder: Embedder,
        config: Config,
        *,
        on_written: Callable[[Sequence[Entry]], None] = lambda entries: None,
    ) -> None:
        self.records = records
        self.mirror = records.mirror
        self.embedder = embedder
        self.config = config
        self._on_written = on_written
        """Told of entries whose text was written (to record what they cite)."""

    def require(self, entry_id: str) -> Entry:
        """The entry with this id. Raises :class:`NotFoundError` when there is none."""
        entry = self.mirror.get(entry_id) if is_unicode(entry_id) else None
        if entry is None:
            raise NotFoundError(f"no entry with id '{entry_id}'")
        return entry

    def prepare_content(
        self, content: str, *, secret_policy: SecretPolicy | None = None, path: str = ""
    ) -> tuple[str, tuple[str, ...]]:
        """Validate and clean content for storage; see :func:`.content.checked_content`."""
        return checked_content(content, self.config, secret_policy=secret_policy, path=path)

    def prepare(
        self, items: Sequence[NewEntry], *, secret_policy: SecretPolicy | None = None
    ) -> list[Prepared]:
        """``items`` as they will be stored, for :meth:`add_prepared` (raises as
        :meth:`add_many` would). ``secret_policy`` overrides the configured one."""
        stamp = now_iso()
        return [Prepared(*self._build(item, stamp, secret_policy)) for item in items]

    def _build(
        self, item: NewEntry, stamp: str, secret_policy: SecretPolicy | None
    ) -> tuple[Entry, tuple[str, ...]]:
        text, kinds = self.prepare_content(
            item.content, secret_policy=secret_policy, path=item.file_path
        )
        entry = Entry(
            id=uuid.uuid4().hex,
            content=text,
            category=parse_category(item.category),
            source=parse_source(item.source),
            file_path=item.file_path,
            section_title=item.section_title.strip(),
            keywords=checked_keywords(item.keywords, self.config, secret_policy),
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

    def _existing(self, entry: Entry) -> Entry | None:
        # Markdown chunks are owned by their file: the same paragraph in two files is two
        # entries, so editing one file never removes what the other still says.
        # A note that repeats a knowledge file's paragraph is its own entry too: it must
        # survive when that file is edited.
        scope = entry.file_path if entry.source is Source.MARKDOWN else None
        found = self.mirror.find_by_hash(entry.content_hash, file_path=scope)
        if entry.source is not Source.MARKDOWN:
            found = [e for e in found if e.source is not Source.MARKDOWN]
        return found[0] if found else None

    def add_many(
        self,
        items: Sequence[NewEntry],
        *,
        secret_policy: SecretPolicy | None = None,
        embed: bool = True,
    ) -> list[AddResult]:
        """Store several entries in one write (embedded in one batch); see
        :meth:`engine.services.memory.Memory.add`.

        ``secret_policy`` overrides the configured one (the indexer always redacts).
        Without ``embed`` (the first phase of indexing) only vectors the embedding cache
        holds are stored; the other entries get a placeholder and are marked in the
        mirror, for :class:`engine.services.embedding_backlog.EmbeddingBacklog`.
        """
        return self.add_prepared(self.prepare(items, secret_policy=secret_policy), embed=embed)

    def add_prepared(self, built: Sequence[Prepared], *, embed: bool = True) -> list[AddResult]:
        """Store entries made by :meth:`prepare` in one write; see :meth:`add_many`."""
        # Known duplicates are not embedded; the check is repeated under the lock,
        # where it is authoritative (another process may have added the same text).
        candidates = [e for e in _unique([p.entry for p in built]) if self._existing(e) is None]
        if candidates:
            self.records.store()  # a missing store refuses here, before the model loads
        vectors, waiting = self._vectors(candidates, embed)
        results: dict[str, AddResult] = {}

        def plan() -> Change | None:
            for prepared in built:
                existing = self._existing(prepared.entry)
                if existing is not None:
                    results[_dedup_key(prepared.entry)] = AddResult(existing, False)
            fresh, rows = [], []
            for row, entry in enumerate(candidates):
                if _dedup_key(entry) not in results:
                    fresh.append(entry)
                    rows.append(row)
                    results[_dedup_key(entry)] = AddResult(entry, True)
            return self._new_rows(fresh, vectors[rows], waiting) if fresh else None

        self.records.apply(plan)
        self._on_written([r.entry for r in results.values() if r.created])
        out, reported = [], set()
        for prepared in built:
            key = _dedup_key(prepared.entry)
            result = results[key]
            if result.created and key in reported:
                result = AddResult(result.entry, False)  # a repeat within this batch
            elif result.created:
                result = replace(result, redactions=prepared.redactions)
            reported.add(key)
            out.append(result)
        return out

    def _new_rows(self, fresh: Sequence[Entry], vectors: Any, waiting: set[str]) -> Change:
        """The write of new entries; those in ``waiting`` have placeholders."""

        def mirror_op(db: sqlite3.Connection) -> None:
            self.mirror.upsert(db, fresh)
            self.mirror.mark_unembedded(db, [e.id for e in fresh if e.id in waiting])

        return Change(lambda s: s.add(fresh, vectors), mirror_op)

    def _vectors(self, entries: Sequence[Entry], embed: bool) -> tuple[Any, set[str]]:
        """The vectors of ``entries``, and the ids of those given a placeholder instead
        (without ``embed``, every text the embedding cache lacks)."""
        if embed:
            return embed_entries(self.embedder, entries), set()
        vectors, rows = cached_entries(self.embedder, entries)
        return vectors, {entries[row].id for row in rows}

    def update(
        self,
        entry_id: str,
        *,
        content: str | None = None,
        category: Category | str | None = None,
        keywords: Sequence[str] | None = None,
        section_title: str | None = None,
        embed: bool = True,
    ) -> Entry:
        """Change an entry; new content is re-embedded (without ``embed``: as in :meth:`add_many`).

        A discovery entry whose text is edited becomes the user's (source ``manual``):
        the next analysis leaves it alone instead of replacing it, and it keeps citing its
        file, so it is flagged stale when that file changes.

        Raises:
            NotFoundError: no entry has this id.
        """
        current = self.require(entry_id)
        changes: dict[str, Any] = {}
        if content is not None:
            text, _ = self.prepare_content(content)
            changes.update(content=text, content_hash=content_hash(text))
            if current.source is Source.DISCOVERY and text != current.content:
                changes["source"] = Source.MANUAL
        if category is not None:
            changes["category"] = parse_category(category)
        if keywords is not None:
            changes["keywords"] = checked_keywords(keywords, self.config, None)
        if section_title is not None:
            changes["section_title"] = section_title.strip()
        vector, waiting = self._vectors([replace(current, **changes)], embed)
        written: list[Entry] = []

        def plan() -> Change:
            # Re-read under the lock: a reference counted meanwhile must not be lost.
            entry = replace(self.require(entry_id), **changes, updated_at=now_iso())
            written.append(entry)
            return Change(
                lambda s: s.upsert([entry], vector),
                lambda db: self._upsert_embedded(db, [entry], waiting),
            )

        self.records.apply(plan)
        entry = written[0]
        if content is not None:
            self._on_written([entry])
        return entry

    def update_metadata(self, entries: Sequence[Entry]) -> None:
        """Rewrite entries whose text is unchanged (line numbers, titles): no re-embedding,
        unless their labels changed (keywords, category: :mod:`engine.embedding.document`)."""
        if not entries:
            return
        by_id = {e.id: e for e in entries}
        vectors = self.records.store().vectors_for(list(by_id))
        present = [by_id[i] for i in by_id if i in vectors]
        if not present:
            return
        import numpy as np

        before = self.mirror.get_many([e.id for e in present])
        waiting = self.mirror.unembedded_among(list(before))  # the backlog embeds those
        relabelled = [
            e
            for e in present
            if e.id in before
            and e.id not in waiting
            and document_key(before[e.id]) != document_key(e)
        ]
        if relabelled:
            fresh = embed_entries(self.embedder, relabelled)
            vectors.update((e.id, fresh[row]) for row, e in enumerate(relabelled))
        matrix = np.stack([vectors[e.id] for e in present])
        self.records.write(
            lambda s: s.upsert(present, matrix),
            lambda db: self.mirror.upsert(db, present),
        )

    def delete(self, entry_id: str) -> bool:
        """Delete one entry; False when there was none with this id."""
        return self.delete_many([entry_id]) == 1

    def delete_many(self, ids: Sequence[str]) -> int:
        """Delete entries by id; returns how many existed."""
        present: list[str] = []

        def plan() -> Change | None:
            present.extend(self.mirror.get_many([i for i in ids if is_unicode(i)]))
            if not present:
                return None
            return Change(
                lambda s: s.delete(present),
                lambda db: self.mirror.delete(db, present),
            )

        self.records.apply(plan)
        return len(present)

    def restore(self, entries: Sequence[Entry]) -> None:
        """Put back entries exactly as they were (undo of a delete), re-embedding from cache."""
        if not entries:
            return
        vectors = embed_entries(self.embedder, entries)
        self.records.write(
            lambda s: s.upsert(list(entries), vectors),
            lambda db: self._upsert_embedded(db, entries),
        )

    def _upsert_embedded(
        self, db: sqlite3.Connection, entries: Sequence[Entry], waiting: Iterable[str] = ()
    ) -> None:
        """Mirror entries written with their real vectors (none waits for one now), but
        for those in ``waiting``, written with a placeholder."""
        self.mirror.upsert(db, entries)
        self.mirror.clear_unembedded(db, [e.id for e in entries])
        self.mirror.mark_unembedded(db, sorted(waiting))


def _dedup_key(entry: Entry) -> str:
    scope = entry.file_path if entry.source is Source.MARKDOWN else ""
    return f"{scope}\x00{entry.content_hash}"


def _unique(entries: Sequence[Entry]) -> list[Entry]:
    seen: dict[str, Entry] = {}
    for entry in entries:
        seen.setdefault(_dedup_key(entry), entry)
    return list(seen.values())


def file_source_refusal(entry: Entry) -> str:
    """Why an entry indexed from a markdown file is not deleted from the memory alone."""
    return (
        f"{entry.id} is indexed from {entry.location or entry.file_path}: the file is the "
        "source, so the entry is not deleted (it would come back on the next index); edit or "
        "delete the text in the file, then run `memory-tui index`"
    )


def delete_refusal(entry: Entry) -> str | None:
    """Why ``entry`` is not deleted from the memory alone, or None when it may be: a chunk
    indexed from a markdown file has the file as its source, and would come back with the
    next index."""
    return file_source_refusal(entry) if entry.source is Source.MARKDOWN else None
