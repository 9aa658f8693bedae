"""The LanceDB table of entries: the store of record, vectors included.

Everything else on disk (the keyword index, the embedding cache, ``meta.json``) can
be rebuilt from this table and the knowledge files; this table cannot. ``lancedb``
and ``pyarrow`` are imported when a store is first opened, not when this module is.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from engine.core.errors import StorageError
from engine.core.models import ENTRY_COLUMNS, Entry
from engine.storage import lance_commits, lance_rows, lance_search, maintenance, remote_table
from engine.storage.lance_errors import is_damage, plain, read_failed, unreadable
from engine.storage.lance_reads import arrow_of
from engine.storage.lance_reads import reads as _reads
from engine.storage.lance_rows import TABLE, entry_to_row, migrate, quote, row_to_entry, schema
from engine.storage.lance_search import Nearest
from engine.storage.remote import RemoteStore, store_error

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

R = TypeVar("R")

ANN_NPROBES = 50
ANN_REFINE = 5
"""IVF partitions probed, and candidates re-ranked with exact vectors per result: recall@10
against exact search 0.97 at 100,000 entries (0.89 with 20 probes and no re-ranking)."""
_ENTRY_COLUMNS = list(ENTRY_COLUMNS)
METADATA_CACHE_BYTES = 4 * 1024 * 1024
"""LanceDB's cache of manifests and fragment metadata (default 1 GiB). Each commit is a
new version whose manifest, deletion files and row-id sequences the cache keeps, and
nearly all of it belongs to versions no read will open again (reads open the latest):
the cache fills at ~18 KiB per commit until its bound. At 32 MiB a server under load
took minutes to fill it and its RSS rose ~0.4 MiB/s all that time (issue 38; at the
1 GiB default it nearly doubled); at 4 MiB it is full within seconds, adds under load
were no slower (4,503 vs 4,302 in 40 s, 6 threads in one process), and the process's
RSS levels off (bench/RESULTS.md, issue 38 "Where the server's memory went")."""
INDEX_CACHE_BYTES = 2 * 1024 * 1024 * 1024
"""LanceDB's cache of ANN index pages (default 6 GiB). It holds only what was read, so a
one-shot process or a small memory uses little of it; a warm process's searches probe
partitions all over the index (70 of one per 1,000 rows), so a bound below the index's
size misses in proportion. The IVF_FLAT index is a copy of every vector (1.5 KB an entry
at 384 dimensions): 2 GiB holds a million entries' (1,471 MiB). At 1,000,000 entries a
512 MiB bound gave warm hybrid p50 42.6–44.6 ms, this one 31.2–33.1 ms, the process's
RSS 0.93 → 1.58 GiB after 200 searches (bench/RESULTS.md, "Session 23")."""


class RecordStore:
    """Entries and their embeddings in one LanceDB table at ``path``, or on object
    storage (``remote``: see :mod:`engine.storage.remote`)."""

    def __init__(self, path: Path, dimension: int, remote: RemoteStore | None = None) -> None:
        self.path = path
        self.remote = remote
        self.where = remote.where if remote is not None else str(path)  # never credentials
        self.dimension = dimension
        self.commits = 0  # one per write: a writer tells its commits from other machines'
        self.uncounted = 0  # compactions, index builds: commits of unknown number
        self._table: Any = None
        self._has_index = False
        self._index_checked_at: int | None = None
        self._db: Any = None
        self._searching: lance_search.SearchTable | None = None
        """The async handle a search reads through (:mod:`.lance_search`), opened by the first."""
        self.cache: Any = None
        """LanceDB's ``Session`` of this store's connection (its caches; ``size_bytes``)."""
        self._writes = 0
        self.compactor: maintenance.Compactor | None = None
        """Compacts in the background (a local store whose owner set one); without one,
        a write that finds compaction due compacts before it returns."""
        self._opened_at: float | None = None  # see remote_table.latest_version
        self.failed = False
        """A call failed in this process (and its error was raised): see lance_errors."""

    # --- opening -------------------------------------------------------------------------

    def exists(self) -> bool:
        """Whether the table has been created on disk (or on the object store)."""
        if self.remote is None:
            return (self.path / f"{TABLE}.lance").is_dir()
        return self.table() is not None  # opening it costs what a listing of tables would

    def _connect(self) -> Any:
        if self._db is None:
            # Lance logs from Rust straight to stderr; keep it to real errors.
            os.environ.setdefault("LANCE_LOG", "error")
            # ``import lancedb`` costs about 1.5 s of CPU, half of it the REST namespace
            # client LanceDB imports eagerly: docs/upstream/lancedb-import.md. Short
            # commands that only read do without it (they read the mirror).
            import lancedb

            remote = self.remote
            self.cache = lancedb.Session(
                index_cache_size_bytes=INDEX_CACHE_BYTES,
                metadata_cache_size_bytes=METADATA_CACHE_BYTES,
            )
            try:
                # interval 0: every read sees other processes' latest commits (on object
                # storage, the table stays on its version between looks: remote_table).
                self._db = lancedb.connect(
                    self.path if remote is None else remote.uri,
                    read_consistency_interval=timedelta(0) if remote is None else None,
                    session=self.cache,
                    storage_options=None if remote is None else dict(remote.options),
                )
            except Exception as exc:
                problem = f"cannot open the vector store at {self.where}: {plain(exc)}"
                raise store_error(self.where, exc, problem) from exc
        return self._db

    def table(self, *, create: bool = False) -> Any:
        """The LanceDB table, opened (and migrated) on first use; ``None`` if absent."""
        if self._table is not None:
            return self._table
        db = self._connect()
        table = remote_table.open_table(self, db)
        if table is None:
            if not create:
                return None
            table, restored = lance_commits.create(db, TABLE, schema(self.dimension), self.where)
            self.uncounted += bool(restored)  # another machine's rows came back
        remote_table.mark_opened(self)
        stored = table.schema.field("vector").type.list_size
        if stored != self.dimension:
            raise StorageError(
                f"the vector store at {self.where} holds {stored}-dimension vectors but the "
                f"embedding model makes {self.dimension}; it was built with another model. "
                "Run `memory-tui doctor --rebuild-store` to re-embed every entry with this one"
            )
        self._table = table
        migrate(self._table)
        return self._table

    def latest_version(self) -> int | None:
        """See :func:`engine.storage.remote_table.latest_version`."""
        return remote_table.latest_version(self)

    @property
    def version(self) -> int:
        """LanceDB's version number of the table (0 when absent)."""
        table = self.table()
        try:
            return 0 if table is None else int(table.version)
        except Exception as exc:  # a remote store: one listing of its versions
            raise read_failed(self, exc) from exc

    # --- writes --------------------------------------------------------------------------

    def add(self, entries: Sequence[Entry], vectors: npt.NDArray[np.float32]) -> None:
        """Append entries with their vectors."""
        if not entries:
            return
        rows = [entry_to_row(e, v) for e, v in zip(entries, vectors.tolist(), strict=True)]
        self._write(lambda t: t.add(rows))

    def upsert(self, entries: Sequence[Entry], vectors: npt.NDArray[np.float32]) -> None:
        """Insert entries or replace those whose id exists."""
        if not entries:
            return
        rows = [entry_to_row(e, v) for e, v in zip(entries, vectors.tolist(), strict=True)]
        self._write(
            lambda t: (
                t.merge_insert("id")
                .when_matched_update_all()
                .when_not_matched_insert_all()
                .execute(rows)
            )
        )

    def set_reference_counts(self, counts: dict[str, int]) -> None:
        """``referenceCount = n`` for each id, in one commit (a partial ``merge_insert``;
        idempotent, so a repeat after a crash is safe)."""
        if not counts or self.table() is None:
            return
        import pyarrow as pa

        field = self.table().schema.field("referenceCount")
        rows = pa.table(
            {
                "id": pa.array(list(counts), pa.string()),
                "referenceCount": pa.array([int(v) for v in counts.values()], field.type),
            }
        )
        self._write(lambda t: t.merge_insert("id").when_matched_update_all().execute(rows))

    def delete(self, ids: Iterable[str]) -> None:
        """Delete entries by id."""
        for part in lance_rows.id_lists(list(ids)):
            self._write(lambda t, part=part: t.delete(f"id IN ({part})"))

    def clear(self) -> None:
        """Delete every entry (the table and its schema stay)."""
        if self.table() is not None:
            self._write(lambda t: t.delete("true"))

    def _write(self, op: Any) -> None:
        created = not self.exists()
        table = self.table(create=True)
        try:
            lance_commits.committed(table, op)
        except Exception as exc:
            problem = (  # a write that read a damaged file: the line a read gives
                unreadable(self.where, exc, local=self.remote is None)
                if is_damage(exc)
                else f"writing to the vector store at {self.where} failed ({plain(exc)}); "
                "run `memory-tui doctor`"
            )
            self.failed = True
            raise store_error(self.where, exc, problem) from exc
        self.commits += 1 + created  # the creation is a commit too
        self._writes += 1
        if self._writes % maintenance.COMPACT_CHECK_EVERY == 0:
            if self.compactor is not None and self.remote is None:
                self.compactor.request()  # the write returns at once (issue 38)
            else:
                self.compact(force=False)

    def compact(self, *, force: bool = True) -> dict[str, int]:
        """See :func:`engine.storage.maintenance.compact` (after a background compaction
        of this process, if one runs)."""
        if self.compactor is not None:
            self.compactor.wait()
        done = maintenance.compact(self, force=force)
        self.uncounted += bool(done)
        return done

    def wait_for_compaction(self) -> None:
        """Wait for this process's background compaction, if one runs (its report to the
        mirror included)."""
        if self.compactor is not None:
            self.compactor.join()

    def close_reads(self) -> None:
        """Stop the thread the searches' reads run on, if one was started."""
        if self._searching is not None:
            self._searching.close()

    def figures(self) -> dict[str, int]:
        """See :func:`engine.storage.maintenance.figures`."""
        return maintenance.figures(self)

    # --- reads ---------------------------------------------------------------------------

    @_reads
    def count(self) -> int:
        """Number of entries (in the latest version: on object storage, one look more)."""
        if self.remote is not None:
            self.latest_version()
        table = self.table()
        return 0 if table is None else int(table.count_rows())

    @_reads
    def get_many(self, ids: Sequence[str]) -> dict[str, Entry]:
        """Entries by id."""
        table = self.table()
        out: dict[str, Entry] = {}
        if table is None:
            return out
        for part in lance_rows.id_lists(ids):
            rows = (
                table.search().where(f"id IN ({part})").select(_ENTRY_COLUMNS).limit(None).to_list()
            )
            out.update((r["id"], row_to_entry(r)) for r in rows)
        return out

    @_reads
    def vectors_for(self, ids: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        """Stored vectors by entry id: one query per 500 ids, through the index of ids
        (``maintenance.ensure_id_index``), the vectors read into one numpy matrix without a
        Python list per row (those were 40 % of the read)."""
        return self._search_reads(None, ids)[1]

    def vectors_started(
        self, ids: Sequence[str]
    ) -> lance_search.Underway[dict[str, npt.NDArray[np.float32]]]:
        """:meth:`vectors_for` under way, as :meth:`nearest_started` is."""
        if not ids:
            return lance_search.Underway.ready({})
        return self._started(
            None, ids, lambda: self.vectors_for(ids), lambda read: self._vectors(read[1])
        )

    @_reads
    def all_entries(self) -> list[Entry]:
        """Every entry (without vectors): the source for rebuilding the keyword index."""
        table = self.table()
        if table is None:
            return []
        rows = table.search().select(_ENTRY_COLUMNS).limit(None).to_list()
        return [row_to_entry(r) for r in rows]

    @_reads
    def ids_and_stamps(self) -> dict[str, str]:
        """id → updatedAt of every entry."""
        table = self.table()
        if table is None:
            return {}
        cols = ["id", "updatedAt", "referenceCount", "promoted"]
        arrow = table.search().select(cols).limit(None).to_arrow()
        columns = [arrow[c].to_pylist() for c in cols]
        # Same text as the mirror's stamps: a v0.1 table may hold referenceCount as a
        # double (2.0) and null strings, which must not read as drift on every repair.
        return {
            i: f"{u or ''}|{int(r or 0)}|{int(bool(p))}"
            for i, u, r, p in zip(*columns, strict=True)
        }

    @_reads
    def all_vectors(self) -> tuple[list[str], list[str], npt.NDArray[np.float32]]:
        """Ids, categories and the (n, dimension) matrix of every stored vector."""
        import numpy as np

        table = self.table()
        if table is None:
            return [], [], np.zeros((0, self.dimension), dtype=np.float32)
        arrow = table.search().select(["id", "category", "vector"]).limit(None).to_arrow()
        matrix = lance_rows.vector_matrix(arrow["vector"], self.dimension)
        return arrow["id"].to_pylist(), arrow["category"].to_pylist(), matrix

    @_reads
    def vector_search(
        self,
        vector: npt.NDArray[np.float32],
        limit: int,
        *,
        where: str | None = None,
        exact: bool = False,
    ) -> list[tuple[Entry, float]]:
        """Nearest entries by cosine similarity, best first: through the ANN index when the
        table has one (see :data:`ANN_MIN_ROWS`) unless ``exact``."""
        ann = None if exact else (ANN_NPROBES, ANN_REFINE)
        query = self._vector_query(vector, limit, where, ann)
        if query is None:
            return []
        rows = query.select([*_ENTRY_COLUMNS, "_distance"]).limit(limit).to_list()
        return [(row_to_entry(r), 1.0 - float(r["_distance"])) for r in rows]

    @_reads
    def nearest(
        self,
        vector: npt.NDArray[np.float32],
        limit: int,
        *,
        where: str | None = None,
        nprobes: int = ANN_NPROBES,
        refine: int = ANN_REFINE,
    ) -> list[tuple[str, float]]:
        """Ids of the nearest entries and their cosine similarity, best first, through the
        ANN index when the table has one (``nprobes`` partitions, ``refine`` times the
        ``limit`` re-ranked; 1: none, IVF_FLAT's distances are exact). Only the ids are
        read: every column of 100 rows was half of a search at 1,000,000 entries."""
        near = Nearest(vector, limit, where, nprobes, refine)
        return self._search_reads(near, ())[0]

    def nearest_started(
        self,
        vector: npt.NDArray[np.float32],
        limit: int,
        *,
        where: str | None = None,
        nprobes: int = ANN_NPROBES,
        refine: int = ANN_REFINE,
    ) -> lance_search.Underway[list[tuple[str, float]]]:
        """:meth:`nearest` under way, for a caller with work of its own meanwhile
        (:class:`~engine.storage.lance_search.Underway`): begun on the async table where
        :func:`lance_search.can_run`, else answered at once. A read that fails is made
        again by :meth:`nearest`, which reads a compacted-away version again or says
        what to run."""

        def again() -> list[tuple[str, float]]:
            return self.nearest(vector, limit, where=where, nprobes=nprobes, refine=refine)

        if limit <= 0 or refine > 1:  # nothing to ask, or a re-ranking: the plain read
            return lance_search.Underway.ready(again())
        near = Nearest(vector, limit, where, nprobes, refine)
        return self._started(near, (), again, lambda read: _hits(read[0]))

    def _started(
        self,
        near: Nearest | None,
        ids: Sequence[str],
        again: Callable[[], R],
        finish: Callable[[tuple[Any, list[Any]]], R],
    ) -> lance_search.Underway[R]:
        """A search's read (``near``'s hits, the vectors of ``ids``) begun on the async
        table where :func:`lance_search.can_run`, its answer made by ``finish``; else
        answered at once by ``again``, the synchronous read, which also makes again a read
        that failed (it reads a compacted-away version again, or says what to run)."""
        searching = self._search_table()
        if searching is None or self.table() is None:
            return lance_search.Underway.ready(again())
        pending = searching.start(near, ids)

        def answer() -> R:
            try:
                return finish(pending.result())
            except (RuntimeError, OSError, ValueError):  # LanceDB's kinds; see again
                return again()

        return lance_search.Underway(answer, pending.close)

    def _search_reads(
        self, near: Nearest | None, ids: Sequence[str]
    ) -> tuple[list[tuple[str, float]], dict[str, npt.NDArray[np.float32]]]:
        """``near``'s hits (none when None) and the vectors of ``ids``: through the async
        table where :func:`lance_search.can_run`, else through the synchronous one."""
        table = self.table()
        if table is None or (near is None and not ids):
            return [], {}
        if near is not None and near.limit <= 0:
            near = None
        if near is not None and near.refine > 1 and not self.has_vector_index():
            near = replace(near, refine=1)  # nothing to re-rank: exact already
        searching = self._search_table()
        if searching is not None:
            arrow, rows = searching.read(near, ids)
        else:
            arrow = None if near is None else self._nearest_arrow(near)
            by_id = [table.search().where(f"id IN ({part})") for part in lance_rows.id_lists(ids)]
            rows = [arrow_of(query.select(["id", "vector"]).limit(None)) for query in by_id]
        return _hits(arrow), self._vectors(rows)

    def _search_table(self) -> lance_search.SearchTable | None:
        """The async handle searches read through, where :func:`lance_search.can_run`
        (a local store); None: the synchronous table."""
        if not lance_search.can_run(self.remote):
            return None
        if self._searching is None:  # through this connection's session: one set of caches
            self._connect()
            self._searching = lance_search.SearchTable(str(self.path), self.cache)
        return self._searching

    def _nearest_arrow(self, near: Nearest) -> Any:
        """``near``'s ``id`` and ``_distance`` through the synchronous table."""
        query = self._vector_query(near.vector, near.limit, near.where, (near.nprobes, near.refine))
        if query is None:
            return None
        return arrow_of(query.select(["id", "_distance"]).limit(near.limit))

    def _vectors(self, reads: list[Any]) -> dict[str, npt.NDArray[np.float32]]:
        """The ``id`` and ``vector`` columns read as vectors by id (one numpy matrix)."""
        if not reads:
            return {}
        import pyarrow as pa

        arrow = pa.concat_tables(reads)
        matrix = lance_rows.vector_matrix(arrow["vector"], self.dimension)
        return dict(zip(arrow["id"].to_pylist(), matrix, strict=True))

    @_reads
    def nearest_each(
        self,
        vectors: npt.NDArray[np.float32],
        limit: int,
        *,
        nprobes: int = ANN_NPROBES,
        refine: int = ANN_REFINE,
    ) -> list[list[tuple[str, float]]]:
        """:meth:`nearest` for each row of ``vectors`` (n, dimension), in one query of the
        store (LanceDB's multi-vector query): an add of n notes looks for their near
        duplicates once, not n times. Read like a search's (:meth:`_search_table`): in a
        server, the writer's check does not queue behind the searches' queries on
        LanceDB's loop thread (issue 49)."""
        hits: list[list[tuple[str, float]]] = [[] for _ in range(len(vectors))]
        if self.table() is None or limit <= 0 or not hits:
            return hits
        if refine > 1 and not self.has_vector_index():
            refine = 1  # nothing to re-rank: exact already
        searching = self._search_table()
        if searching is not None:
            arrow = searching.read_each(Nearest(vectors, limit, None, nprobes, refine))
        else:
            query = self._vector_query(vectors, limit, None, (nprobes, refine))
            arrow = arrow_of(query.select(["id", "_distance"]).limit(limit))
        if "query_index" in arrow.column_names:
            queries = arrow["query_index"].to_pylist()
        else:  # one vector: LanceDB's plain query
            queries = [0] * arrow.num_rows
        rows = zip(queries, arrow["id"].to_pylist(), arrow["_distance"].to_pylist(), strict=True)
        for n, entry_id, distance in rows:
            hits[n].append((entry_id, 1.0 - float(distance)))
        for found in hits:  # nearest first within each query
            found.sort(key=lambda hit: -hit[1])
        return hits

    def _vector_query(
        self,
        vector: npt.NDArray[np.float32],
        limit: int,
        where: str | None,
        ann: tuple[int, int] | None,
    ) -> Any:
        """LanceDB's cosine query for ``vector`` (None when there is nothing to search):
        filtered by ``where`` first, through the ANN index with ``ann`` = (partitions
        probed, refine factor) when the table has one, exact when ``ann`` is None."""
        table = self.table()
        if table is None or limit <= 0:
            return None
        query = table.search(vector.tolist(), vector_column_name="vector").distance_type("cosine")
        if where:
            query = query.where(where, prefilter=True)
        if ann is None:
            return query.bypass_vector_index()
        if self.has_vector_index():
            query = query.nprobes(ann[0])  # refine 1: the index's distances, exact in IVF_FLAT
            query = query.refine_factor(ann[1]) if ann[1] > 1 else query
        return query

    def similarities(self, vector: npt.NDArray[np.float32], ids: Sequence[str]) -> dict[str, float]:
        """Cosine similarity of the query vector to each of the given entries (exact)."""
        if not ids:
            return {}
        part = ", ".join(quote(i) for i in ids)
        hits = self.vector_search(vector, len(ids), where=f"id IN ({part})", exact=True)
        return {entry.id: sim for entry, sim in hits}

    def has_vector_index(self) -> bool:
        """Whether the table has an ANN index on its vectors."""
        table = self.table()
        if table is None:
            return False
        if self._index_checked_at != table.version:
            self._has_index = any("vector" in i.columns for i in table.list_indices())
            self._index_checked_at = table.version
        return self._has_index

    def maintain_vector_index(self) -> str:
        """See :func:`engine.storage.maintenance.maintain_vector_index`."""
        self.uncounted += 1
        return maintenance.maintain_vector_index(self)


def _hits(arrow: Any) -> list[tuple[str, float]]:
    """A nearest query's rows (``id``, ``_distance``) as ids and cosine similarities."""
    if arrow is None:
        return []
    ids, distances = arrow["id"].to_pylist(), arrow["_distance"].to_pylist()
    return [(i, 1.0 - float(d)) for i, d in zip(ids, distances, strict=True)]
