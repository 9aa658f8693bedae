"""The files of one index run as it reads them: a file whose ``os.stat`` is the one
recorded when it was last indexed is unchanged without a byte of it being read; a changed
file is read, hashed and chunked once, however many times the run asks for it.

A stat is recorded only when it was taken before the bytes were read and the file's
modification and change times are at least :data:`RACY_NS` older than that moment (git's
"racily clean" rule): a file written again within the same tick of the file system's
clock, with the same size, cannot then look unchanged. The change time (which no program
can set back, unlike the modification time that ``cp -p`` or ``rsync -t`` keep), the
inode (an editor's save by rename) and the device are compared too.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from engine.core.hashing import content_hash_bytes
from engine.guards.files import read_project_bytes
from engine.services.entries import NewEntry
from engine.storage.meta import IndexMeta

__all__ = ["RACY_NS", "FileRead", "RunFiles", "stat_key"]

RACY_NS = 2_000_000_000
"""A file modified or changed less than this long (ns) before it was read is read again
on the next run whatever its stat says (2 s: the coarsest common file-time granularity,
FAT's)."""


def stat_key(st: os.stat_result) -> tuple[int, ...]:
    """What of a stat tells a file's bytes changed: size, modification and change time,
    inode and device."""
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


@dataclass(slots=True)
class FileRead:
    """One file as this run read it."""

    digest: str
    data: bytes
    stat: tuple[int, ...] | None
    """Its stat taken before the read, when old enough to be recorded (else None)."""
    entries: list[NewEntry] | None = None
    """What it becomes before any page cap, once chunked."""
    warnings: list[tuple[str, str]] = field(default_factory=list)
    """The warnings its chunking gave."""


class RunFiles:
    """One index run's reads, against the ``meta`` of the last run."""

    def __init__(
        self, root: Path, knowledge_dir: Path, max_bytes: int, meta: IndexMeta, rechunk_all: bool
    ) -> None:
        self.root = root
        self.knowledge_dir = knowledge_dir
        self.max_bytes = max_bytes
        self.meta = meta
        self.rechunk_all = rechunk_all
        self.same_settings = True
        """Whether the chunking settings are those of the last run (``--force`` alone
        re-chunks every file)."""
        self.reads: dict[str, FileRead] = {}
        self.learned: dict[str, tuple[int, ...]] = {}
        """Stats of files found unchanged by their hash, to record for the next run."""

    def unchanged_by_stat(self, rel: str, path: Path) -> bool:
        """Whether the file is the one last indexed, by its stat alone (never when every
        file is re-chunked, nor for a file this run has read already)."""
        if self.rechunk_all or rel in self.reads or rel not in self.meta.file_hashes:
            return False
        recorded = self.meta.file_stats.get(rel)
        if recorded is None or recorded[0] > self.max_bytes:
            return False  # (a file now past ``max_file_bytes`` is reported as before)
        try:
            return stat_key(os.stat(path)) == recorded
        except OSError:
            return False  # reading it says what is wrong

    def read(self, rel: str, path: Path) -> FileRead:
        """The file's bytes (read once per run) through the file guard.

        Raises:
            FileRefusedError, NotFoundError: as :func:`read_project_bytes`.
        """
        done = self.reads.get(rel)
        if done is not None:
            return done
        stat = self._recordable_stat(path)
        knowledge = path.is_relative_to(self.knowledge_dir)
        data = read_project_bytes(
            self.knowledge_dir if knowledge else self.root,
            path,
            max_bytes=self.max_bytes,
            allow_hidden=not knowledge,
        )
        done = FileRead(content_hash_bytes(data), data, stat)
        self.reads[rel] = done
        return done

    def recorded_cap(self, rel: str, read: FileRead) -> tuple[bool, int | None]:
        """(whether it is known, the cap) a documentation page was last chunked with
        (``None``: none), known when its bytes and the chunking settings are those of
        then: ``index --force`` then chunks it as before however the memory grew, and its
        entries keep their ids; otherwise the caller works out the page's share now."""
        meta = self.meta
        if not self.same_settings or meta.file_hashes.get(rel) != read.digest:
            return False, None
        return rel in meta.page_caps, meta.page_caps.get(rel)

    def unchanged(self, rel: str, read: FileRead) -> bool:
        """Whether the bytes read are those last indexed (their stat is then kept for the
        next run when it is new)."""
        if self.rechunk_all or self.meta.file_hashes.get(rel) != read.digest:
            return False
        if read.stat is not None and self.meta.file_stats.get(rel) != read.stat:
            self.learned[rel] = read.stat
        return True

    @staticmethod
    def _recordable_stat(path: Path) -> tuple[int, ...] | None:
        try:
            st = os.stat(path)
        except OSError:
            return None
        if max(st.st_mtime_ns, st.st_ctime_ns) > time.time_ns() - RACY_NS:
            return None  # too recent: a write in the same clock tick would look the same
        return stat_key(st)
