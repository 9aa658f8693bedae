"""Launch and keystroke-to-results latency of the Textual app on a 10,000-entry memory.

    python -m bench.tui_latency [--entries 10000] [--query "..."]

The memory (``bench/.cache/tui-10k``) holds the SciFact abstracts and, to reach
``--entries``, copies of them with a short suffix. Every vector is a real
all-MiniLM-L6-v2 vector read from the SciFact embedding cache (``python -m bench.scifact``
builds it): a copy reuses its original's vector, which keeps the build to seconds instead
of the ~8 minutes that embedding 5,000 more abstracts takes on two cores. The app then runs
headless with the real model (query embeddings are computed for real) and the script
types a query one key at a time, timing each key until the results for the new query
reach the main screen (drawing them adds a few milliseconds), per mode, once warm. The
figures from a real terminal (tmux) are in the README.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import sqlite3
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bench.scifact import CACHE as SCIFACT_CACHE

ROOT = Path(__file__).resolve().parent / ".cache" / "tui-10k"
COPY = re.compile(r"\n\n\(copy \d+\)$")
CATEGORIES = ("architecture", "component", "domain", "pattern", "gotcha", "general")


class CachedVectors:
    """An embedder that only reads the SciFact cache (a copy gets its original's vector)."""

    model_id = "all-MiniLM-L6-v2"
    dimension = 384
    loaded = True

    def __init__(self, cache: Path) -> None:
        from engine.hashing import content_hash

        self._hash = content_hash
        db = sqlite3.connect(cache)
        rows = db.execute(
            "SELECT content_hash, vector FROM embedding_cache WHERE model_id = ?", (self.model_id,)
        )
        self._vectors = {h: np.frombuffer(v, dtype=np.float32) for h, v in rows}

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return np.stack([self._vectors[self._hash(COPY.sub("", t))] for t in texts])

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        raise RuntimeError("queries are embedded by the real model in the app")


def build(entries: int) -> None:
    """Create the memory unless it already holds ``entries`` entries."""
    from engine.memory import Memory, NewEntry

    if (ROOT / ".claude" / "memory").is_dir():
        with Memory.open(ROOT) as memory:
            if memory.count() == entries:
                return
        shutil.rmtree(ROOT)
    cache = SCIFACT_CACHE / ".claude" / "memory" / "embeddings.sqlite"
    if not cache.exists():
        raise SystemExit("run `python -m bench.scifact` first (it builds the embedding cache)")
    from engine.fts import FtsIndex

    mirror = FtsIndex(SCIFACT_CACHE / ".claude" / "memory" / "fts.sqlite")
    # exactly the texts in the cache (the few longest ones leave room for the suffix)
    docs = sorted(e.content for e in mirror.recent() if len(e.content) < 9_900)
    mirror.close()
    texts = [
        docs[i % len(docs)] + (f"\n\n(copy {i // len(docs)})" if i >= len(docs) else "")
        for i in range(entries)
    ]
    started = time.perf_counter()
    with Memory.open(ROOT, embedder=CachedVectors(cache), cache_embeddings=False) as memory:
        for start in range(0, len(texts), 1000):
            memory.add_many(
                [
                    NewEntry(t, category=CATEGORIES[(start + i) % len(CATEGORIES)])
                    for i, t in enumerate(texts[start : start + 1000])
                ]
            )
        print(f"built {memory.count()} entries in {time.perf_counter() - started:.0f} s")


async def measure(query: str) -> None:
    """Launch the app headless on the memory and time keystrokes per mode."""
    from app.tui.factory import build_app
    from app.tui.messages import ResultsReady
    from app.tui.screens.main import MainScreen

    arrivals: dict[int, float] = {}

    def hook(message: object) -> None:
        if isinstance(message, ResultsReady):
            arrivals.setdefault(message.request.generation, time.perf_counter())

    started = time.perf_counter()
    app = build_app(ROOT)
    async with app.run_test(size=(160, 48), message_hook=hook) as pilot:
        screen = app.screen
        assert isinstance(screen, MainScreen)
        while screen._shown is None or screen.total is None:
            await asyncio.sleep(0.005)
        print(
            f"launch → first screen with entries: {time.perf_counter() - started:.2f} s "
            "(headless, in-process)"
        )
        while screen.model_state != "ready":
            await asyncio.sleep(0.05)
        print(f"launch → model ready: {time.perf_counter() - started:.1f} s")
        for key in ("f3", "f2", "f4"):
            await pilot.press(key)
            await pilot.press(*"warm up")  # the first query of a mode pays for warming
            await _idle(pilot)
            await pilot.press("ctrl+u")
            await _idle(pilot)
            times = []
            for char in query:
                t0 = time.perf_counter()
                await pilot.press(char)
                await asyncio.sleep(0.3)  # a pause, so that each key is timed on its own
                if char != " ":  # a space does not change the query that is searched
                    times.append((arrivals[screen._generation] - t0) * 1000)
            await pilot.press("ctrl+u")
            await _idle(pilot)
            print(
                f"{screen.state.mode.value:>7}: key → results on screen's queue: median "
                f"{statistics.median(times):.0f} ms, max {max(times):.0f} ms ({len(times)} keys)"
            )


async def _idle(pilot: object) -> None:
    app = pilot.app  # type: ignore[attr-defined]
    await asyncio.sleep(0.2)
    await app.workers.wait_for_complete()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--query", default="vitamin d deficiency")
    args = parser.parse_args()
    build(args.entries)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    asyncio.run(measure(args.query))


if __name__ == "__main__":
    main()
