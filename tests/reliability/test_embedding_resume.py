"""kill -9 in the middle of the embedding phase, then resume: every chunk is there once,
none waits, every one is found by vector search (real LanceDB and SQLite, a slow fake
embedder in a worker process)."""

from __future__ import annotations

import random
import signal
import time
from collections import Counter
from pathlib import Path

from cli_support import waiting
from fakes import FakeEmbedder
from read_back import store_alone
from reliability_support import KNOWLEDGE, knowledge_file, spawn

from engine.services.indexing import Indexer
from engine.services.memory import Memory

BATCH = 10


def test_kill_9_mid_embedding_then_resume_leaves_every_chunk_once_with_its_vector(
    tmp_path: Path,
) -> None:
    rng = random.Random(24)
    folder = tmp_path / KNOWLEDGE
    folder.mkdir(parents=True)
    for n in range(12):
        (folder / f"file{n:02}.md").write_text(knowledge_file(rng, 5), encoding="utf-8")

    proc = spawn("embed", tmp_path, BATCH, 0.15)
    try:
        first = proc.stdout.readline() if proc.stdout else ""
        assert first.startswith("INDEXED "), first + (proc.stderr.read() if proc.stderr else "")
        created = int(first.split()[1])
        assert created > 3 * BATCH
        deadline = time.monotonic() + 60
        # Poll until some batches are committed (not all): then kill without warning.
        while not (0 < waiting(tmp_path) <= created - 2 * BATCH):
            assert proc.poll() is None, "the worker finished before it could be killed"
            assert time.monotonic() < deadline, "no batch was committed in 60 s"
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    left = waiting(tmp_path)
    assert 0 < left < created

    embedder = FakeEmbedder()
    with Memory.open(tmp_path, embedder=embedder) as memory:
        report = Indexer(memory).run()  # the next run resumes

        assert report.entries_created == 0 and report.files_skipped == 12
        assert report.pending == 0 and memory.vectors_waiting() == 0
        # Only what was left reaches the model (less the batch the killed process had
        # embedded into the cache but not yet written).
        assert left - BATCH <= embedder.texts_embedded <= left
        entries = memory.list()
        assert len(entries) == created
        with store_alone(memory) as stored:
            ids = [e.id for e in stored.list()]
            assert stored.vectors_waiting() == 0  # no placeholder left
        assert sorted(ids) == sorted(e.id for e in entries)  # store == mirror, no duplicate
        assert not [
            k for k, n in Counter((e.file_path, e.content_hash) for e in entries).items() if n > 1
        ]
        for entry in entries:
            found = memory.search(entry.content, mode="vector", limit=3).results
            assert entry.id in {r.entry.id for r in found}
