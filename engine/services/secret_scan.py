"""``memory-tui doctor --secrets``: find (and with ``--fix`` redact) secrets that older
versions stored before the guard knew their kind.

The store of record is scanned entry by entry (text, section title, keywords), and the
keyword mirror too (it can hold rows the store no longer has). Fixing redacts the entries
in the store, re-embedding the redacted text, and then removes every derived copy: the
keyword index is rebuilt from the store and vacuumed, the embedding cache forgets the
vectors of the old texts, and the store is compacted so that no old version (and no data
file of one) keeps the secret.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from engine.core.hashing import content_hash
from engine.core.models import Entry
from engine.core.validation import now_iso
from engine.embedding.document import document_key, embed_entries
from engine.guards.privacy import find_secrets, fingerprint, redact_secrets
from engine.services.memory import Memory
from engine.services.parts import parts_of


@dataclass(frozen=True, slots=True)
class Finding:
    """A stored entry holding likely secrets: where, which kinds, and fingerprints (for
    the allow-list), never the secret itself."""

    entry_id: str
    where: str
    kinds: tuple[str, ...]
    fingerprints: tuple[str, ...]


@dataclass(slots=True)
class SecretScan:
    """What the scan found and what the fix did."""

    findings: list[Finding] = field(default_factory=list)
    fixed: int = 0

    @property
    def by_kind(self) -> dict[str, int]:
        """Number of entries holding each kind."""
        return dict(Counter(kind for f in self.findings for kind in f.kinds))


def _secrets_of(entry: Entry, allow: Sequence[str]) -> tuple[list[str], list[str]]:
    kinds: list[str] = []
    prints: list[str] = []
    for text in (entry.content, entry.section_title, *entry.keywords):
        for hit in find_secrets(text, allow, entry.file_path or None):
            kinds.append(hit.kind)
            prints.append(fingerprint(text[hit.start : hit.end]))
    return kinds, prints


def scan_secrets(memory: Memory) -> SecretScan:
    """Every stored entry (store and keyword mirror) that holds a likely secret."""
    parts = parts_of(memory)
    allow = memory.config.secret_allowlist
    scan = SecretScan()
    stored = parts.store().all_entries() if memory.paths.may_have_store() else []
    mirrored = parts.mirror.recent(limit=None)
    for where, entries in (("store", stored), ("keyword index", mirrored)):
        for entry in entries:
            kinds, prints = _secrets_of(entry, allow)
            if kinds:
                finding = Finding(entry.id, where, tuple(dict.fromkeys(kinds)), tuple(prints))
                scan.findings.append(finding)
    return scan


def _redacted(entry: Entry, allow: Sequence[str]) -> Entry:
    def clean(text: str) -> str:
        return redact_secrets(text, find_secrets(text, allow, entry.file_path or None))

    text = clean(entry.content)
    return replace(
        entry,
        content=text,
        content_hash=content_hash(text),
        section_title=clean(entry.section_title),
        keywords=tuple(k for k in entry.keywords if not find_secrets(k, allow)),
        updated_at=now_iso(),
    )


def fix_secrets(memory: Memory) -> SecretScan:
    """Redact every finding in the store, then rebuild what is derived from it."""
    parts = parts_of(memory)
    scan = scan_secrets(memory)
    allow = memory.config.secret_allowlist
    ids = {f.entry_id for f in scan.findings if f.where == "store"}
    with parts.lock.hold():
        old = [e for e in parts.store().all_entries() if e.id in ids] if ids else []
        fixed = [_redacted(e, allow) for e in old]
        if fixed:
            vectors = embed_entries(parts.embedder, fixed)
            parts.records.write(
                lambda s: s.upsert(fixed, vectors),
                lambda db: parts.mirror.upsert(db, fixed),
            )
        parts.records.rebuild_index()  # the mirror anew from the redacted store
        _vacuum(memory.paths.fts_path)
        # Labels (keywords, titles) are embedded too: forget both keys of each old entry,
        # but not the vectors just computed for the redacted ones.
        kept = {document_key(e) for e in fixed}
        old_keys = {k for e in old for k in (e.content_hash, document_key(e))}
        _forget_vectors(memory, sorted(old_keys - kept))
        if memory.paths.may_have_store():
            parts.store().compact()  # no old version keeps a data file with the secret
    scan.fixed = len(fixed)
    return scan


def _vacuum(path: object) -> None:
    db = sqlite3.connect(str(path), timeout=30)
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("VACUUM")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()


def _forget_vectors(memory: Memory, hashes: list[str]) -> None:
    path = memory.paths.embedding_cache_path
    if not hashes or not path.exists():
        return
    db = sqlite3.connect(str(path), timeout=30)
    try:
        db.executemany("DELETE FROM embedding_cache WHERE content_hash = ?", [(h,) for h in hashes])
        db.commit()
        db.execute("VACUUM")
    finally:
        db.close()
