"""``.claude/memory/meta.json``: file hashes for incremental indexing, discovery state.

Derived data: if it is missing or unreadable it is recreated (with a warning), which
only costs a re-scan, because unchanged chunks are found again by content hash.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

META_VERSION = 1


@dataclass(slots=True)
class IndexMeta:
    """The contents of ``meta.json``."""

    file_hashes: dict[str, str] = field(default_factory=dict)
    """Project-relative path → SHA-256 of the file's bytes when it was last indexed."""
    file_stats: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """Project-relative path → what ``os.stat`` said of the file (size, mtime, ctime,
    inode, device) just before the bytes of ``file_hashes`` were read; a file whose stat
    is the same is not read again (see :mod:`engine.services.indexing`)."""
    settings: dict[str, Any] = field(default_factory=dict)
    """Chunking settings and model of the last index run; a change re-chunks every file."""
    last_indexed_at: str = ""
    discovery: dict[str, Any] = field(default_factory=dict)
    aliases: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Id of a promoted entry → (project-relative file, line of its marker); see
    :mod:`engine.services.aliases`."""
    page_caps: dict[str, int | None] = field(default_factory=dict)
    """Project-relative path of a documentation page → the most chunks it was allowed
    when last chunked (``None``: no cap); re-chunked with the same bytes and settings
    (``index --force``), it keeps that cap, so its entries and their ids stay the same
    however the rest of the memory grew (:func:`engine.markdown.pages.page_cap`)."""

    def record_file(
        self, rel: str, digest: str, stat: tuple[int, ...] | None, *, page: bool, cap: int | None
    ) -> None:
        """What an index run learned of ``rel``: its bytes' hash, their stat (none when too
        recent to trust) and, for a documentation page, the cap it was chunked with."""
        self.forget_file(rel)
        self.file_hashes[rel] = digest
        if stat is not None:
            self.file_stats[rel] = stat
        if page:
            self.page_caps[rel] = cap

    def forget_file(self, rel: str) -> None:
        """Nothing recorded of ``rel`` any more (a file deleted, or about to be recorded)."""
        for recorded in (self.file_hashes, self.file_stats, self.page_caps):
            recorded.pop(rel, None)

    @classmethod
    def load(cls, path: Path) -> tuple[IndexMeta, str | None]:
        """Read the file; returns (meta, warning) — a bad file gives an empty meta, and the
        warning says what is wrong with it (the caller names the file)."""
        if not path.exists():
            return cls(), None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or not isinstance(data.get("fileHashes", {}), dict):
                raise ValueError("not a meta.json object")
            return cls(
                file_hashes={str(k): str(v) for k, v in data.get("fileHashes", {}).items()},
                file_stats=_stats(data.get("fileStats", {})),
                settings=dict(data.get("settings", {})),
                last_indexed_at=str(data.get("lastIndexedAt", "")),
                discovery=dict(data.get("discovery", {})),
                aliases=_aliases(data.get("promotedFrom", {})),
                page_caps=_caps(data.get("pageCaps", {})),
            ), None
        except (OSError, UnicodeDecodeError, ValueError, TypeError) as exc:
            return cls(), f"unreadable ({exc}); it is rebuilt now"

    def save(self, path: Path) -> None:
        """Write atomically (a crash leaves the old or the new file, never half of one)."""
        data = {
            "version": META_VERSION,
            "lastIndexedAt": self.last_indexed_at,
            "settings": self.settings,
            "fileHashes": dict(sorted(self.file_hashes.items())),
            "fileStats": {k: list(v) for k, v in sorted(self.file_stats.items())},
            "discovery": self.discovery,
            "promotedFrom": {k: list(v) for k, v in sorted(self.aliases.items())},
            "pageCaps": dict(sorted(self.page_caps.items())),
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".meta-", suffix=".json", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, indent=2)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def _aliases(raw: object) -> dict[str, tuple[str, int]]:
    """``promotedFrom`` as read; malformed items are dropped (the indexer rewrites them)."""
    if not isinstance(raw, dict):
        return {}
    return {
        str(old): (str(where[0]), int(where[1]))
        for old, where in raw.items()
        if isinstance(where, list) and len(where) == 2 and isinstance(where[1], int)
    }


def _stats(raw: object) -> dict[str, tuple[int, ...]]:
    """``fileStats`` as read; a malformed item is dropped (its file is read and hashed)."""
    if not isinstance(raw, dict):
        return {}
    return {
        str(rel): tuple(stat)
        for rel, stat in raw.items()
        if isinstance(stat, list) and stat and all(type(n) is int for n in stat)
    }


def _caps(raw: object) -> dict[str, int | None]:
    """``pageCaps`` as read; a malformed item is dropped (its page's cap is worked out
    again, as before it was recorded)."""
    if not isinstance(raw, dict):
        return {}
    return {
        str(rel): cap for rel, cap in raw.items() if cap is None or (type(cap) is int and cap >= 1)
    }
