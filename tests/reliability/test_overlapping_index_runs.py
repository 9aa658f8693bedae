"""Two index runs of one project never leave chunks of an old version behind (issue 16).

Before, a run started while another was still embedding, after the file had changed
again, planned against the same old chunks: each run added its version, and the chunks of
the one that finished first stayed searchable for ever (10 stale chunks in each of 3
trials). Now runs take turns (``index.lock``), so the second plans against what the first
wrote. The embedder below is slow so that the runs overlap for sure.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from fakes import FakeEmbedder
from read_back import from_the_store, of_file

from engine.services.indexing import Indexer
from engine.services.memory import Memory

TRIALS = 5
SECTIONS = 6


class SlowEmbedder(FakeEmbedder):
    """Announces that a run is embedding, then takes its time."""

    def __init__(self, started: threading.Event) -> None:
        super().__init__()
        self.started = started

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.started.set()
        time.sleep(0.3)
        return super().embed_documents(texts)


def _write(path: Path, version: str) -> None:
    sections = [
        f"## Part {i}\n\nVersion {version} of part {i}: detail {version}{i}.\n"
        for i in range(SECTIONS)
    ]
    path.write_text("# Guide\n\n" + "\n".join(sections), encoding="utf-8")


def _run(root: Path, embedder: FakeEmbedder, errors: list[BaseException]) -> None:
    try:
        with Memory.open(root, embedder=embedder, cache_embeddings=False) as memory:
            Indexer(memory).run()
    except BaseException as exc:  # pragma: no cover - reported below
        errors.append(exc)


@pytest.mark.parametrize("trial", range(TRIALS))
def test_overlapping_runs_after_edits_leave_no_stale_chunk(tmp_path: Path, trial: int) -> None:
    root = tmp_path / "project"
    knowledge = root / ".claude" / "knowledge"
    knowledge.mkdir(parents=True)
    guide = knowledge / "guide.md"
    _write(guide, "one")
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        Indexer(memory).run()
    _write(guide, "two")
    embedding = threading.Event()
    errors: list[BaseException] = []
    first = threading.Thread(target=_run, args=(root, SlowEmbedder(embedding), errors))
    first.start()
    assert embedding.wait(30), "the first run never started embedding"
    _write(guide, "three")  # edited again while the first run embeds version two
    second = threading.Thread(target=_run, args=(root, SlowEmbedder(threading.Event()), errors))
    second.start()
    first.join(60)
    second.join(60)
    assert not errors, errors
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        contents = [e.content for e in of_file(memory, ".claude/knowledge/guide.md")]
        stored = [e.content for e in from_the_store(memory).values()]
    assert not [c for c in stored if "Version two" in c or "Version one" in c]
    assert len(contents) == len(stored) == SECTIONS
    assert all("Version three" in c for c in contents)
