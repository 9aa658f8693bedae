"""A memory a hundred times larger (issue 38) — ``python -m bench.scale [--entries 100000]
[--queries 100] [--adds 50] [--keep DIR]``.

Builds a memory of ``--entries`` synthetic entries and measures what a user of that
memory meets: the one-shot open + keyword search (a fresh process, what the prompt hook
and the CLI pay), warm hybrid and keyword search in a long-lived process (the MCP server,
the TUI), single adds there, the process's RSS, the memory's size on
disk, and the time to build the ANN index (``maintenance.ANN_MIN_ROWS`` rows and more).

Entries are random but shaped like real ones: words drawn from a Zipf-distributed
vocabulary of 30,000 made-up words (so BM25 sees common and rare terms), lengths from a
log-normal distribution around 60 words (a short note to a long section, at most 1,200
words), six categories. The embedder is the tests' deterministic bag-of-words fake at the
real model's 384 dimensions (tests/fakes.py): the model's time is not the point here, and
queries then embed in microseconds, so hybrid figures are the storage's and search's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fakes import _WORD as WORD
from fakes import FakeEmbedder

from bench.metrics import p50_p95, timed_ms
from engine.core.hashing import content_hash
from engine.core.models import Category, Entry
from engine.embedding.document import document_text
from engine.search.query import STOPWORDS
from engine.services.memory import Memory
from engine.services.parts import parts_of

DIMENSION = 384
VOCABULARY = 30_000
CATEGORIES = ("architecture", "component", "domain", "pattern", "gotcha", "general")
ASKS = 200
"""Queries kept with a built memory (``queries.json``), so that a run reusing it needs
none of its texts."""
BATCH = 50_000
"""Entries per write of the build."""
SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in ("a", "e", "i", "o", "u", "ai", "ou")]


def vocabulary(rng: np.random.Generator) -> list[str]:
    """Made-up words of two to four syllables, distinct."""
    words: set[str] = set()
    while len(words) < VOCABULARY:
        size = int(rng.integers(2, 5))
        words.add("".join(SYLLABLES[int(i)] for i in rng.integers(0, len(SYLLABLES), size)))
    return sorted(words)


def texts(count: int, seed: int = 38) -> list[str]:
    """``count`` synthetic entry texts (see the module's docstring)."""
    rng = np.random.default_rng(seed)
    words = vocabulary(rng)
    lengths = np.clip(rng.lognormal(np.log(60), 0.8, count), 5, 1_200).astype(int)
    ranks = rng.zipf(1.15, int(lengths.sum())) - 1
    ranks = np.where(ranks < VOCABULARY, ranks, rng.integers(0, VOCABULARY, ranks.shape))
    out, at = [], 0
    for n, length in enumerate(lengths):
        chosen = ranks[at : at + length]
        at += length
        out.append(f"note {n}: " + " ".join(words[int(r)] for r in chosen))
    return out


class BenchEmbedder(FakeEmbedder):
    """The tests' fake, each word's dimension and sign looked up once (the vocabulary is
    30,000 words: hashing every word of a million texts took minutes). Same vectors."""

    def __init__(self, dimension: int) -> None:
        super().__init__(dimension)
        self._words: dict[str, tuple[int, float]] = {}

    def vector(self, text: str) -> npt.NDArray[np.float32]:
        out = np.zeros(self.dimension, dtype=np.float32)
        words = self._words
        for word in WORD.findall(text.lower()):
            hit = words.get(word)
            if hit is None:
                if word in STOPWORDS:
                    continue
                digest = hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest()
                index = int.from_bytes(digest[:4], "little") % self.dimension
                hit = words[word] = (index, 1.0 if digest[4] & 1 else -1.0)
            out[hit[0]] += hit[1]
        norm = float(np.linalg.norm(out))
        if norm == 0.0:
            out[0] = 1.0
            return out
        return out / norm


def build(root: Path, entries: list[str]) -> dict[str, float]:
    """Write the entries in batches of :data:`BATCH` straight through the engine's write
    path (one ``Records.write`` per batch: the store's ``add`` and the mirror's ``upsert``,
    crash-safe as any write; no near-duplicate check, no embedding cache), then build the
    ANN index."""
    (root / ".claude").mkdir(parents=True, exist_ok=True)
    embedder = BenchEmbedder(DIMENSION)
    started = time.perf_counter()
    stamp = "2026-11-27T00:00:00+00:00"
    with Memory.open(root, embedder=embedder) as memory:
        records = parts_of(memory).records
        for start in range(0, len(entries), BATCH):
            batch = [
                Entry(
                    id=uuid.uuid4().hex,
                    content=text,
                    category=Category(CATEGORIES[(start + i) % 6]),
                    created_at=stamp,
                    updated_at=stamp,
                    content_hash=content_hash(text),
                )
                for i, text in enumerate(entries[start : start + BATCH])
            ]
            vectors = embedder.embed_documents([document_text(e) for e in batch])
            records.write(
                lambda store, b=batch, v=vectors: store.add(b, v),
                lambda db, b=batch: records.mirror.upsert(db, b),
            )
            done = start + len(batch)
            print(f"  {done:,} written, {time.perf_counter() - started:.0f} s", flush=True)
        built = time.perf_counter() - started
        records.store().compact()
        ann_started = time.perf_counter()
        done_ann = records.maintain_vector_index()
        ann = time.perf_counter() - ann_started
    print(f"  build: {built:.0f} s; ANN index: {done_ann or 'none'} in {ann:.1f} s", flush=True)
    return {"build_s": built, "ann_s": ann}


ONE_SHOT = """
import sys, time
sys.path[:0] = {paths!r}
started = time.perf_counter()
from fakes import FakeEmbedder
from engine.services.memory import Memory
with Memory.open({root!r}, embedder=FakeEmbedder({dimension})) as memory:
    opened = time.perf_counter()
    memory.search({query!r}, mode="keyword")
print((opened - started) * 1000, (time.perf_counter() - started) * 1000)
"""


def one_shot(root: Path, query: str) -> tuple[float, float]:
    """A fresh process: ms to import and open the memory, and to open + keyword search."""
    paths = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).parent.parent / "tests")]
    code = ONE_SHOT.format(paths=paths, root=str(root), dimension=DIMENSION, query=query)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    opened, total = (float(x) for x in out.stdout.split())
    return opened, total


def rss_mib() -> tuple[float, float]:
    """This process's resident memory now and at its peak, MiB."""
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024


def disk_mib(root: Path) -> dict[str, float]:
    memory = root / ".claude" / "memory"
    sizes: dict[str, float] = {}
    for part in sorted(memory.iterdir()):
        files = [part] if part.is_file() else [p for p in part.rglob("*") if p.is_file()]
        sizes[part.name] = sum(p.stat().st_size for p in files) / 2**20
    return sizes


def asks_of(entries: list[str], count: int = ASKS) -> list[str]:
    """Queries: three words of an entry (a known topic), as an agent's searches are."""
    rng = np.random.default_rng(7)
    picks = rng.integers(0, len(entries), count)
    words = [entries[int(i)].split()[2:] for i in picks]
    return [" ".join(w[j] for j in rng.integers(0, len(w), 3)) for w in words]


def measure(root: Path, asks: list[str], queries: int, adds: int) -> None:
    """The figures of a built memory, in a process that holds none of its texts (their
    million strings would be counted in its RSS)."""
    with Memory.open(root, embedder=FakeEmbedder(DIMENSION)) as memory:  # a memory built before
        done = parts_of(memory).records.maintain_vector_index()  # the id index was made
    if done:
        print(f"  maintenance: {done}")
    shots = [one_shot(root, asks[n]) for n in range(5)]
    print(
        f"  one-shot process (import + open; + keyword search), median of 5: "
        f"{statistics.median(s[0] for s in shots):.0f} ms; "
        f"{statistics.median(s[1] for s in shots):.0f} ms"
    )
    started = time.perf_counter()
    memory = Memory.open(root, embedder=FakeEmbedder(DIMENSION))
    opened = (time.perf_counter() - started) * 1000
    try:
        first = time.perf_counter()
        memory.search(asks[0], mode="hybrid")  # loads the vectors, or opens the ANN index
        load = (time.perf_counter() - first) * 1000
        exact = not parts_of(memory).store().has_vector_index()
        how = "no ANN index: a flat search" if exact else "through the ANN index"
        print(f"  long-lived open {opened:.0f} ms; first hybrid search ({how}) {load:.0f} ms")
        hybrid = timed_ms(lambda n: memory.search(asks[n], mode="hybrid"), queries)
        keyword = timed_ms(lambda n: memory.search(asks[n], mode="keyword"), queries)
        run = uuid.uuid4().hex[:8]  # a kept memory measured again gets new notes, not repeats
        add = timed_ms(lambda n: memory.add(f"scale bench note {run} {n} about {asks[n]}"), adds)
        print(f"  warm hybrid search   {p50_p95(hybrid)}")
        print(f"  warm keyword search  {p50_p95(keyword)}")
        print(f"  single add           {p50_p95(add)}")
        now, peak = rss_mib()
        print(f"  RSS of the long-lived process: {now:.0f} MiB now, peak {peak:.0f} MiB")
        if not exact:
            print(f"  vector search recall@10 against exact search: {recall(memory, asks):.3f}")
    finally:
        memory.close()
    sizes = disk_mib(root)
    parts = ", ".join(f"{k} {v:.0f}" for k, v in sizes.items() if v >= 1)
    print(f"  on disk: {sum(sizes.values()):.0f} MiB ({parts})")


RECALL_QUERIES = 20
"""Queries whose vector search through the ANN index is compared with exact search (a
scan of every vector: about a second each at 1,000,000 entries)."""


def recall(memory: Memory, asks: list[str], k: int = 10) -> float:
    """Mean share of the exact ``k`` nearest entries that the process's vector search (the
    ANN index) returns, over :data:`RECALL_QUERIES` queries."""
    parts = parts_of(memory)
    found = []
    for text in asks[-RECALL_QUERIES:]:  # not the queries timed above
        qvec = parts.embedder.embed_query(text)
        ann = {e.id for e, _ in parts.searcher.vectors.search(qvec, k)}
        exact = {e.id for e, _ in parts.store().vector_search(qvec, k, exact=True)}
        found.append(len(ann & exact) / max(1, len(exact)))
    return statistics.fmean(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, nargs="+", default=[100_000])
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--adds", type=int, default=50)
    parser.add_argument(
        "--keep",
        type=Path,
        default=Path(tempfile.gettempdir()) / "memory-tui-scale",
        help="build the memories here, or reuse those built (default: %(default)s)",
    )
    parser.add_argument("--fresh", action="store_true", help="build in a new temporary folder")
    parser.add_argument("--build-only", action="store_true", help="build (or find) and stop")
    args = parser.parse_args()
    os.environ.setdefault("LANCE_LOG", "error")
    for count in args.entries:
        print(f"{count:,} entries:", flush=True)
        folder = Path(tempfile.mkdtemp(prefix="scale-")) if args.fresh else args.keep
        root = folder / f"scale-{count}"
        built, asked = root / "built.json", root / "queries.json"
        fresh = not built.exists()
        if fresh or not asked.exists():
            entries = made(count)
            if not built.exists():
                if root.exists():  # an interrupted build
                    shutil.rmtree(root)
                built.parent.mkdir(parents=True)
                built.write_text(json.dumps(build(root, entries)))
            asked.write_text(json.dumps(asks_of(entries)))
            del entries
        figures = json.loads(built.read_text())
        print(f"  {root}: built in {figures['build_s']:.0f} s, ANN index {figures['ann_s']:.1f} s")
        if fresh and not args.build_only:  # measured in a process that never held the texts
            again = ["--entries", str(count), "--keep", str(folder), "--queries", str(args.queries)]
            again += ["--adds", str(args.adds)]
            subprocess.run([sys.executable, "-m", "bench.scale", *again], check=True)
        elif not args.build_only:
            asks = json.loads(asked.read_text())
            measure(root, asks, min(args.queries, len(asks)), min(args.adds, len(asks)))
        if args.fresh:
            shutil.rmtree(folder)


def made(count: int) -> list[str]:
    """The synthetic texts, with their lengths said."""
    started = time.perf_counter()
    entries = texts(count)
    chars = [len(t) for t in entries]
    print(
        f"  texts made in {time.perf_counter() - started:.0f} s: median "
        f"{statistics.median(chars):.0f} characters, p95 {np.percentile(chars, 95):.0f}",
        flush=True,
    )
    return entries


if __name__ == "__main__":
    main()
