"""The engine's front door: :class:`Memory`, the one object every face talks to.

``Memory.open(root)``, then ``add``, ``search``, ``listing``…: each method is a use case
(the rules live in the use-case modules beside this one: :mod:`.listing`,
:mod:`.staleness`, :mod:`.adding`, :mod:`.entries`, :mod:`.upkeep`;
those that compose Memory with other services, promotion, indexing and discovery, are
functions beside it: :func:`engine.promote`, :class:`engine.Indexer`…).
Memory hands out none of its parts (:class:`engine.services.parts.Parts`): the faces ask
it, and the engine's own use cases reach the parts through
:func:`engine.services.parts.parts_of`. Reads that need no vectors (keyword search,
list, get, stats) are served by the SQLite mirror and never import LanceDB or the model;
those are opened on first need.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.config import Config, load_config
from engine.core.errors import FileIsSourceError
from engine.core.models import Category, Entry, SearchMode, SearchResult, SecretPolicy, Source
from engine.core.validation import (
    check_search,
    is_unicode,
    parse_category,
    parse_mode,
    parse_source,
)
from engine.embedding.base import Embedder
from engine.embedding.default import default_embedder
from engine.services import listing, staleness, upkeep
from engine.services.parts import Parts
from engine.storage.paths import MemoryPaths

if TYPE_CHECKING:
    from engine.search.searcher import SearchResponse
    from engine.services.embedding_backlog import BacklogReport
    from engine.services.embedding_worker import BackgroundEmbedder
    from engine.services.entries import AddResult, NewEntry
    from engine.services.listing import Counts, Listing
    from engine.services.promote import PromoteResult
    from engine.services.refresh import Refreshed

NARROWED_OVERFETCH = 200  # candidates searched when results are narrowed (source, stale)


class Memory:
    """One project's memory: its use cases, over the parts it is made of."""

    def __init__(
        self,
        paths: MemoryPaths,
        config: Config,
        embedder: Embedder,
        *,
        cache_embeddings: bool = True,
    ) -> None:
        self.paths = paths
        self.config = config
        self._parts = Parts(
            paths,
            config,
            embedder,
            cache_embeddings=cache_embeddings,
        )
        self.last_repair = self._parts.records.ensure_consistent()
        """What opening repaired of the keyword index (None: nothing was out of step)."""

    @classmethod
    def open(
        cls,
        root: Path | str,
        *,
        config: Config | None = None,
        embedder: Embedder | None = None,
        cache_embeddings: bool = True,
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
        )

    def close(self) -> None:
        """Release file handles (reference counts wait in the mirror; see
        :meth:`engine.storage.records.Records.close`)."""
        self._parts.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the model and the vectors (see :mod:`.upkeep`) ----------------------------------

    @property
    def model_loaded(self) -> bool:
        """Whether vector search can run without waiting for the model to load."""
        return upkeep.model_loaded(self._parts)

    def warm_up(self, *, mode: SearchMode | str = SearchMode.HYBRID) -> None:
        """Open the store (one that cannot be opened says so now), load the model and run
        one throw-away search in ``mode``, so the first real search does not pay for
        loading, the first inference or the vectors' first read. Blocking: long-lived
        faces call it from a background thread."""
        self._parts.store()
        upkeep.load_model(self._parts)
        self.search("warm up", mode=mode, limit=1)

    def warm_up_writes(self) -> None:
        """Load the model, embed once and open the store's table, so the first write
        (watch mode's first change) does not pay for them. Blocking."""
        upkeep.warm_up_writes(self._parts)

    def vectors_waiting(self) -> int:
        """How many entries wait for their vector (the second phase of indexing)."""
        return self._parts.mirror.unembedded_count()

    def embed_waiting(
        self, *, progress: Callable[[int, int, str], None] | None = None
    ) -> BacklogReport:
        """Embed every entry waiting for its vector, in the foreground; once none waits,
        create or refresh the ANN index if the memory is large enough for one."""
        return upkeep.embed_waiting(self._parts, progress=progress)

    def background_embedder(self) -> BackgroundEmbedder:
        """A (not yet started) thread that embeds waiting entries as they appear."""
        from engine.services.embedding_worker import BackgroundEmbedder

        return BackgroundEmbedder(self._parts.records, self._parts.embedder)

    def compact(self) -> dict[str, int]:
        """Fold the pending reference counts into the store, then merge its small
        fragments and drop old versions; returns the figures (empty: nothing to do)."""
        return upkeep.compact(self._parts)

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
        """Store one entry; identical content returns the existing entry instead, and a
        near duplicate (cosine >= 0.9) is reported or skipped (``near_duplicate``).

        Raises:
            InvalidInputError: empty content, unknown category, too many keywords.
            ContentTooLongError: content over 10,000 characters.
            SecretDetectedError: a likely secret, with ``secret_policy = "reject"``.
        """
        # Imported here: the writes' modules (content checks, secret rules) are not the
        # reads' concern, and the prompt hook, a process per prompt, only reads.
        from engine.services import adding
        from engine.services.entries import NewEntry

        item = NewEntry(content, category, source, keywords, file_path, section_title)
        return adding.add_checked(self._parts, [item])[0]

    def add_many(
        self,
        items: Sequence[NewEntry],
        *,
        secret_policy: SecretPolicy | None = None,
        embed: bool = True,
    ) -> list[AddResult]:
        """Store several entries in one write; see :meth:`EntryService.add_many`."""
        return self._parts.entries.add_many(items, secret_policy=secret_policy, embed=embed)

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
        """Change an entry; new content is re-embedded (without ``embed``, left to the
        embedding backlog: the model is not loaded). Raises NotFoundError."""
        return self._parts.entries.update(
            entry_id,
            content=content,
            category=category,
            keywords=keywords,
            section_title=section_title,
            embed=embed,
        )

    def delete_refusal(self, entry: Entry) -> str | None:
        """Why ``entry`` is not deleted from the memory alone (a chunk of a knowledge
        file: the file is the source), or None when :meth:`delete` may delete it."""
        from engine.services.entries import delete_refusal

        return delete_refusal(entry)

    def delete(self, entry_id: str) -> bool:
        """Delete one entry; False when there was none with this id.

        Raises:
            FileIsSourceError: the entry is indexed from a markdown file. The file is the
                source: a deleted chunk would come back with the next ``index --force``.
        """
        found = self._parts.mirror.get(entry_id) if is_unicode(entry_id) else None
        refusal = self.delete_refusal(found) if found is not None else None
        if refusal is not None:
            raise FileIsSourceError(refusal)
        return self._parts.entries.delete(entry_id)

    def restore(self, entries: Sequence[Entry]) -> None:
        """Put back entries exactly as they were (undo of a delete)."""
        self._parts.entries.restore(entries)

    def prepare_content(
        self, content: str, *, secret_policy: SecretPolicy | None = None, path: str = ""
    ) -> tuple[str, tuple[str, ...]]:
        """Content as it would be stored, and the kinds of secret redacted from it
        (raises as :meth:`add` would); see :func:`engine.services.content.checked_content`."""
        return self._parts.entries.prepare_content(content, secret_policy=secret_policy, path=path)

    def redacted(self, text: str) -> str:
        """``text``, private blocks and secrets replaced (:func:`.content.redacted`)."""
        from engine.services.content import redacted

        return redacted(text, self.config)

    def referenced(self, ids: Sequence[str]) -> tuple[PromoteResult, ...]:
        """Count that these entries were handed to a caller (``count_references``) and,
        with ``auto_promote``, promote those due (:mod:`.references`, for every face)."""
        from engine.services.references import referenced

        return referenced(self, ids)

    def refresh(self, *entries: Entry) -> Refreshed:
        """Refresh the stale ones of ``entries`` (:mod:`.refresh`, for every face)."""
        from engine.services.refresh import refresh

        return refresh(self, entries)

    # --- reads ---------------------------------------------------------------------------

    def get(self, entry_id: str) -> Entry | None:
        """The entry with this id, or None. The id of an entry that was promoted answers
        with the entry now holding its text in the knowledge file (:mod:`.aliases`)."""
        if not is_unicode(entry_id):
            return None
        self._parts.records.refresh_mirror()
        found = self._parts.mirror.get(entry_id)
        if found is not None:
            return found
        from engine.services.aliases import promoted_entry

        return promoted_entry(self.paths.meta_path, self._parts.mirror, entry_id)

    def require(self, entry_id: str) -> Entry:
        """The entry with this id. Raises :class:`NotFoundError` when there is none."""
        return self._parts.entries.require(entry_id)

    def list(
        self,
        *,
        category: Category | str | None = None,
        source: Source | str | None = None,
        limit: int | None = None,
        offset: int = 0,
        sort: str = "recent",
    ) -> builtins.list[Entry]:
        """Entries newest first, optionally filtered by category and source; with
        ``sort="refs"`` the most referenced first (then newest)."""
        return listing.entries(
            self._parts, category=category, source=source, limit=limit, offset=offset, sort=sort
        )

    def listing(
        self,
        *,
        category: Category | str | None = None,
        source: Source | str | None = None,
        limit: int | None = None,
        stale_only: bool = False,
        sort: str = "recent",
    ) -> Listing:
        """The first ``limit`` entries (all with None) that match the filters, with how
        many match in all and why each listed one is stale; with ``stale_only``, only
        the stale ones. See :func:`engine.services.listing.listing`."""
        return listing.listing(
            self._parts,
            category=category,
            source=source,
            limit=limit,
            stale_only=stale_only,
            sort=sort,
        )

    def count(
        self, *, category: Category | str | None = None, source: Source | str | None = None
    ) -> int:
        """Number of entries (optionally of one category, from one source)."""
        return listing.count(self._parts, category=category, source=source)

    def counts(self, *, source: Source | str | None = None) -> Counts:
        """Entries in all, by source, and by category (within ``source`` when given)."""
        return listing.counts(self._parts, source=source)

    def unpromoted_notes(self) -> builtins.list[Entry]:
        """Every personal note (session and manual) not promoted yet, oldest first."""
        from engine.services.references import unpromoted_notes

        return unpromoted_notes(self)

    def stale_reasons(self, ids: Sequence[str]) -> dict[str, str]:
        """Why each of these entries is stale, by id (fresh ones are absent); a failure
        (stale flags are derived data) is logged and reads as "none stale"."""
        return staleness.stale_reasons(self._parts, ids)

    def stale_entries(self) -> builtins.list[tuple[Entry, str]]:
        """Every entry whose cited code changed, with the reason, most recently updated
        first."""
        return staleness.stale_entries(self._parts, self.list())

    def mark_reviewed(self, entries: Sequence[Entry]) -> None:
        """Record what these notes cite as of now: reviewed, they are no longer stale
        (discovery entries are renewed by discovery instead)."""
        staleness.mark_reviewed(self._parts, entries)

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
        self._parts.records.refresh_mirror()
        wanted = parse_source(source) if source is not None else None
        narrow = wanted is not None or stale_only
        response = self._parts.searcher.search(
            text,
            mode=parse_mode(mode) if mode is not None else self.config.search_mode,
            limit=max(limit, NARROWED_OVERFETCH) if narrow else limit,
            category=parse_category(category) if category is not None else None,
            prefix_last=prefix_last,
            wait_for_model=wait_for_model,
            min_score=min_score,
        )
        response = replace(response, results=staleness.marked(self._parts, response.results))
        if not narrow:
            return response
        from engine.search.searcher import narrowed

        return replace(response, results=narrowed(response.results, wanted, stale_only, limit))

    def relevant(self, prompt: str) -> builtins.list[tuple[SearchResult, float]]:
        """Entries worth showing unasked for ``prompt`` (keyword only, no model), each with
        the share of the prompt it covers; stale flags set."""
        found = self._parts.searcher.relevant(prompt.replace("\x00", " "))
        marked = staleness.marked(self._parts, [r for r, _ in found])
        return [(m, c) for m, (_, c) in zip(marked, found, strict=True)]

    def stats(self) -> dict[str, Any]:
        """Counts by category and source, and where things are."""
        return listing.stats(self._parts)
