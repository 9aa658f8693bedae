"""Stale-knowledge flags: an entry is stale when the code it cites has changed.

:class:`Freshness` records, for each note about code, the files (and symbols) its text
names, with each file's hash at the time (:mod:`engine.freshness.citations`). An entry is
stale when a cited file is gone, its bytes changed, or a cited symbol is no longer defined
in it. The
check runs when results are read (a stat per cited file, a hash only when the stat changed),
so the flag is always current and nothing has to be re-indexed to clear or raise it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from engine.core.errors import EngineError
from engine.core.models import NOTE_SOURCES, Entry, SearchResult
from engine.freshness.citations import (
    CITATIONS_FILE,
    MAX_CITATIONS,
    Citation,
    CitationDb,
    file_digest,
    mentioned_names,
    mentioned_paths,
)
from engine.guards.files import read_project_bytes

MAX_CODE_BYTES = 5_000_000
"""Largest source file parsed for the names it defines."""
CITING_SOURCES = frozenset(NOTE_SOURCES)
"""Notes whose text is scanned for citations (discovery entries cite their module)."""


class Freshness:
    """Citations and stale flags of one project's memory (thread-safe)."""

    def __init__(self, root: Path, memory_dir: Path) -> None:
        self.root = root
        self.index = CitationDb(memory_dir / CITATIONS_FILE)
        self._lock = threading.Lock()
        self._hashes: dict[str, tuple[tuple[int, int], str | None]] = {}
        self._names: dict[tuple[str, str], set[str] | None] = {}

    def close(self) -> None:
        """Close the citation database."""
        self.index.close()

    # --- the repository today ----------------------------------------------------------

    def current_hash(self, rel: str) -> str | None:
        """SHA-256 of the file now, None when it is missing (cached until its stat changes)."""
        path = self.root / rel
        try:
            st = path.stat()
        except OSError:
            return None
        key = (st.st_mtime_ns, st.st_size)
        with self._lock:
            cached = self._hashes.get(rel)
        if cached is not None and cached[0] == key:
            return cached[1]
        digest = file_digest(path)
        with self._lock:
            self._hashes[rel] = (key, digest)
        return digest

    def names_in(self, rel: str) -> set[str] | None:
        """Names the file defines now (None: unknown language, unreadable or unparsable)."""
        digest = self.current_hash(rel)
        if digest is None:
            return None
        with self._lock:
            if (rel, digest) in self._names:
                return self._names[(rel, digest)]
        # Imported here: only a cited file whose bytes changed is parsed, and the
        # parsers are not the concern of a read that finds nothing stale (the prompt hook).
        from engine.freshness.code_symbols import defined_names

        try:  # through the guard: a regular file inside the project, of a sane size
            data = read_project_bytes(
                self.root, self.root / rel, max_bytes=MAX_CODE_BYTES, allow_hidden=True
            )
            names = defined_names(rel, data)
        except EngineError:
            names = None
        with self._lock:
            self._names[(rel, digest)] = names
        return names

    # --- recording -----------------------------------------------------------------------

    def cite(self, text: str) -> list[Citation]:
        """The citations of a note: files it names, and symbols it names that a named file
        (or, failing that, exactly one file of the last discovery) defines."""
        paths = mentioned_paths(text, self.root, self.index.known_files())
        names = mentioned_names(text)
        pairs: list[tuple[str, str]] = []
        unresolved = []
        for name in names:
            here = [p for p in paths if name in (self.names_in(p) or ())]
            pairs += [(p, name) for p in here]
            if not here:
                unresolved.append(name)
        for name, files in self.index.files_defining(unresolved).items():
            if len(files) == 1:
                pairs.append((files[0], name))
        with_symbol = {p for p, _ in pairs}
        pairs += [(p, "") for p in paths if p not in with_symbol]
        out = []
        for rel, symbol in dict.fromkeys(pairs):
            digest = self.current_hash(rel)
            if digest is not None:
                out.append(Citation(rel, symbol, digest))
        return out[:MAX_CITATIONS]

    def note_citations(self, entries: Iterable[Entry]) -> None:
        """(Re-)record what session and manual notes cite, as of now: the files and symbols
        their text names, and the file they are about (an edited discovery entry)."""
        cited = {
            e.id: self._own_file(e) + self.cite(e.content)
            for e in entries
            if e.source in CITING_SOURCES
        }
        self.index.record(cited)

    def _own_file(self, entry: Entry) -> list[Citation]:
        digest = self.current_hash(entry.file_path) if entry.file_path else None
        return [Citation(entry.file_path, "", digest)] if digest is not None else []

    def record(self, cited: Mapping[str, Sequence[Citation]]) -> None:
        """Record given citations (discovery entries cite the module they describe)."""
        self.index.record(cited)

    # --- checking ------------------------------------------------------------------------

    def reason(self, citation: Citation) -> str | None:
        """Why this citation is out of date, or None while it holds."""
        digest = self.current_hash(citation.path)
        if digest is None:
            return f"{citation.path} no longer exists"
        if digest == citation.file_hash:
            return None
        if citation.symbol:
            names = self.names_in(citation.path)
            if names is not None and citation.symbol not in names:
                return f"{citation.symbol} is no longer defined in {citation.path}"
        return f"{citation.path} changed since this was written"

    def stale(self, ids: Sequence[str]) -> dict[str, str]:
        """Entry id → reason, for those of ``ids`` that are stale."""
        return self._check(self.index.of(list(dict.fromkeys(ids))))

    def all_stale(self, present: Iterable[str] | None = None) -> dict[str, str]:
        """Every stale entry (restricted to ``present`` ids when given) → reason."""
        cited = self.index.all()
        if present is not None:
            keep = set(present)
            cited = {i: c for i, c in cited.items() if i in keep}
        return self._check(cited)

    def _check(self, cited: dict[str, list[Citation]]) -> dict[str, str]:
        out: dict[str, str] = {}
        for entry_id, citations in cited.items():
            for citation in citations:
                why = self.reason(citation)
                if why is not None:
                    out[entry_id] = why
                    break
        return out

    def mark(self, results: Sequence[SearchResult]) -> tuple[SearchResult, ...]:
        """The results with ``stale`` set on those whose entry is stale."""
        if not results or not self.index.path.exists():
            return tuple(results)
        stale = self.stale([r.entry.id for r in results])
        if not stale:
            return tuple(results)
        return tuple(
            replace(r, stale=True, stale_reason=stale[r.entry.id]) if r.entry.id in stale else r
            for r in results
        )
