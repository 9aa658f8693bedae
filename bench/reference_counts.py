"""Counting a search's results in the mirror — ``python -m bench.reference_counts [N]``.

Fills a mirror with N entries (default 10,000), then counts 10 of them as one search's
results, 200 times, two ways taken in turn: as a counter (``EntryMirror.count_references``:
one column's UPDATE per entry, what a search does) and as the row rewrite that counting
used to be (read the entries, bump them, DELETE + INSERT each row, so the FTS5 triggers
re-index its text). Prints each one's median time per count and the rows rewritten.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from engine.core.models import Entry
from engine.storage.mirror import EntryMirror

ROUNDS = 200
RESULTS = 10


def main(size: int = 10_000) -> None:
    with tempfile.TemporaryDirectory() as folder:
        mirror = EntryMirror(Path(folder) / "fts.sqlite")
        entries = [
            Entry(id=f"e{i:06d}", content=f"note {i} " + "words about things " * 40)
            for i in range(size)
        ]
        with mirror.transaction() as db:
            mirror.upsert(db, entries)
            db.execute("CREATE TABLE rewrites (n INTEGER)")
            db.execute(
                "CREATE TRIGGER bench_rewrites AFTER DELETE ON entries"
                " BEGIN INSERT INTO rewrites VALUES (1); END"
            )
        ids = [entries[i].id for i in range(0, size, max(1, size // RESULTS))][:RESULTS]

        def rewrite() -> None:
            with mirror.transaction() as db:
                current = mirror.get_many(ids)
                bumped = [
                    replace(e, reference_count=e.reference_count + 1) for e in current.values()
                ]
                mirror.upsert(db, bumped)

        def counter() -> None:
            with mirror.transaction() as db:
                mirror.count_references(db, dict.fromkeys(ids, 1))

        ways: dict[str, Callable[[], None]] = {"counter": counter, "rewrite": rewrite}
        times: dict[str, list[float]] = {name: [] for name in ways}
        rewritten: dict[str, int] = dict.fromkeys(ways, 0)
        for _ in range(ROUNDS):
            for name, way in ways.items():
                before = mirror.read("SELECT count(*) FROM rewrites")[0][0]
                start = time.perf_counter()
                way()
                times[name].append(time.perf_counter() - start)
                rewritten[name] += mirror.read("SELECT count(*) FROM rewrites")[0][0] - before
        for name in ways:
            median = statistics.median(times[name]) * 1000
            print(
                f"{name}: {median:.3f} ms per count of {RESULTS} results at {size} entries "
                f"(median of {ROUNDS}), rows rewritten per count {rewritten[name] / ROUNDS:g}"
            )
        mirror.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
