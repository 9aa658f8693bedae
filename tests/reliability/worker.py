"""A worker process for the reliability tests: one role per run, fake embedder, real files.

    python tests/reliability/worker.py add ROOT TAG COUNT
    python tests/reliability/worker.py search ROOT STOP_FILE
    python tests/reliability/worker.py index ROOT [--force] [--loops N]
    python tests/reliability/worker.py embed ROOT BATCH SECONDS

``add`` prints ``ACK <id>`` (flushed) after each entry is stored, so a test that kills
the worker knows exactly which adds were acknowledged; ``search`` runs searches of
every mode until ``STOP_FILE`` exists and prints a JSON summary; ``index`` prints
``READY`` once the memory is open, runs the indexer (``--loops`` times) and prints each
report as JSON; ``embed`` runs the first phase of indexing, prints ``INDEXED <n>``,
then embeds the backlog ``BATCH`` entries at a time, each batch taking ``SECONDS`` more
(a slow model, so that a test can kill it mid-way). Any exception is printed
as ``ERROR <type>: <message>`` and the exit code is 1.
"""

from __future__ import annotations

import json
import random
import sys
import time
import traceback
from pathlib import Path

from engine.services.parts import parts_of

# tests/ for fakes; the project root too, or tests/engine and tests/app would be found
# as namespace packages named engine and app.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from fakes import FakeEmbedder

from engine.services.memory import Memory


def entry_text(tag: str, n: int) -> str:
    """The content the ``add`` role stores as its ``n``-th entry."""
    return f"{tag} entry {n}: the {tag} writer remembers fact number {n} token{tag}x{n}"


def add(root: Path, tag: str, count: int) -> None:
    """Add ``count`` distinct entries one at a time, acknowledging each on stdout."""
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        for n in range(count):
            result = memory.add(entry_text(tag, n), category="general", keywords=[tag])
            print(f"ACK {result.entry.id} {int(result.created)}", flush=True)


def search(root: Path, stop_file: Path) -> None:
    """Search in every mode until ``stop_file`` appears; report counts of each outcome."""
    rng = random.Random(7)
    words = ["entry", "writer", "remembers", "fact", "number", "alpha", "beta", "gamma"]
    done = failed = results = 0
    failures: list[str] = []
    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        while not stop_file.exists():
            query = " ".join(rng.sample(words, 2))
            mode = ("keyword", "vector", "hybrid")[done % 3]
            try:
                response = memory.search(query, mode=mode, limit=10)
                results += len(response.results)
                memory.count()
                memory.list(limit=5)
            except Exception as exc:
                failed += 1
                failures.append(f"{type(exc).__name__}: {exc}")
            done += 1
    print(json.dumps({"searches": done, "failed": failed, "results": results, "errors": failures}))


def index(root: Path, force: bool, loops: int) -> None:
    """Run the indexer ``loops`` times and print each report."""
    from engine.services.indexing import Indexer

    with Memory.open(root, embedder=FakeEmbedder()) as memory:
        print("READY", flush=True)  # imports done: what follows is the indexing itself
        for _ in range(loops):
            started = time.perf_counter()
            report = Indexer(memory).run(force=force)
            print(
                json.dumps(
                    {
                        "files": report.files_total,
                        "created": report.entries_created,
                        "deleted": report.entries_deleted,
                        "errors": report.errors,
                        "seconds": round(time.perf_counter() - started, 3),
                    }
                ),
                flush=True,
            )


class SlowEmbedder(FakeEmbedder):
    """The fake embedder, ``delay`` seconds slower per call."""

    def __init__(self, delay: float) -> None:
        super().__init__()
        self.delay = delay

    def embed_documents(self, texts):  # type: ignore[no-untyped-def]
        time.sleep(self.delay)
        return super().embed_documents(texts)


def embed(root: Path, batch: int, delay: float) -> None:
    """Both phases of indexing, the second slowly and in small batches."""
    from engine.services.embedding_backlog import EmbeddingBacklog
    from engine.services.indexing import Indexer

    with Memory.open(root, embedder=SlowEmbedder(delay)) as memory:
        report = Indexer(memory).run(embed=False)
        print(f"INDEXED {report.entries_created}", flush=True)
        EmbeddingBacklog(
            parts_of(memory).records, parts_of(memory).embedder, batch_size=batch
        ).run()
        print("EMBEDDED", flush=True)


def main(argv: list[str]) -> int:
    """Dispatch on the role name."""
    role, root = argv[0], Path(argv[1])
    try:
        if role == "add":
            add(root, argv[2], int(argv[3]))
        elif role == "search":
            search(root, Path(argv[2]))
        elif role == "embed":
            embed(root, int(argv[2]), float(argv[3]))
        elif role == "index":
            loops = int(argv[argv.index("--loops") + 1]) if "--loops" in argv else 1
            index(root, "--force" in argv, loops)
        else:
            raise SystemExit(f"unknown role {role}")
    except Exception as exc:
        print(f"ERROR {type(exc).__name__}: {exc}", flush=True)
        traceback.print_exc()
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
