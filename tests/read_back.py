"""What a memory holds, read back through its public surface and its files on disk.

The tests of the front door check what a user or a face would see, not the parts behind
it: an entry is *stored* when a fresh process that has only the store of record (the
``vectors`` folder; the keyword index is a derived copy) reads it back, the way a lost
index is rebuilt in life."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fakes import FakeEmbedder

from engine.core.models import Entry
from engine.services.memory import Memory


@contextmanager
def store_alone(memory: Memory, embedder: FakeEmbedder | None = None) -> Iterator[Memory]:
    """A fresh memory on a copy of ``memory``'s store of record alone: its ``vectors``
    folder copied into an empty project and opened, so the keyword index and the marks
    of entries waiting for their vector are rebuilt from the store, as after a lost index.
    Reference counts still waiting in ``memory``'s index are not in the store yet. The
    copy is opened with ``embedder`` (a fresh 256-dimension fake by default)."""
    vectors = memory.paths.vectors_dir
    with tempfile.TemporaryDirectory(prefix="read-back-") as scratch:
        root = Path(scratch)
        if vectors.exists():
            shutil.copytree(vectors, root / vectors.relative_to(memory.paths.root))
        with Memory.open(root, embedder=embedder or FakeEmbedder()) as fresh:
            yield fresh


def from_the_store(memory: Memory, embedder: FakeEmbedder | None = None) -> dict[str, Entry]:
    """Every entry of ``memory``'s store of record, by id (see :func:`store_alone`)."""
    with store_alone(memory, embedder) as fresh:
        return shown(fresh)


def shown(memory: Memory) -> dict[str, Entry]:
    """Every entry ``memory`` lists, by id."""
    return {entry.id: entry for entry in memory.list()}


def assert_shown_as_stored(memory: Memory) -> None:
    """What the memory lists is exactly what its store of record holds, field for field."""
    assert shown(memory) == from_the_store(memory)


def of_file(memory: Memory, file_path: str) -> list[Entry]:
    """The entries ``memory`` lists for one file (a project-relative path), first line
    first."""
    found = [entry for entry in memory.list() if entry.file_path == file_path]
    return sorted(found, key=lambda entry: entry.line_start)
