"""Which ANN index should the store keep, from what size, searched how? (issue 49) —
``python -m bench.ann_index [--sizes 10000 100000 1000000] [--kinds IVF_HNSW_SQ IVF_PQ ...]``.

On the memories ``bench.scale`` builds (built first with ``--build-only`` when absent:
the same texts, the same bag-of-words vectors), or on a table of their vectors only
(``--vectors-only``), copied and opened as the product opens its table (:class:`Store`),
for every index type LanceDB offers: the build time and the index's size on disk, then
for each search setting (partitions probed, refine factor, ``ef`` for HNSW) the time of a
vector search as hybrid search asks it (the nearest :data:`DEPTH` ids and distances, as
``RecordStore.nearest`` reads them) and its recall@10 and recall@100 against exact search
(numpy over every vector), on queries of ``queries.json`` that ``bench.scale_warm`` does
not time. "flat" is LanceDB's exact search with no index, what a memory below
``maintenance.ANN_MIN_ROWS`` pays.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fakes import FakeEmbedder

from bench.metrics import percentile
from bench.scale import DIMENSION
from engine.storage.lance_rows import TABLE
from engine.storage.record_store import INDEX_CACHE_BYTES, METADATA_CACHE_BYTES

DEPTH = 100
"""Nearest entries hybrid search asks of the vector half."""
RERANKED = 500
"""Candidates re-ranked per search for a refine factor of ``RERANKED // DEPTH`` (5)."""

Setting = dict[str, int]
KINDS: dict[str, tuple[dict[str, Any], list[Setting]]] = {
    # kind: (extra create_index parameters, search settings)
    "IVF_FLAT": ({}, [{"nprobes": n, "refine": r} for n in (10, 20, 30, 50) for r in (0, 1)]),
    "IVF_SQ": ({}, [{"nprobes": n, "refine": r} for n in (20, 30, 50) for r in (0, 2, 5)]),
    "IVF_PQ": ({}, [{"nprobes": n, "refine": r} for n in (20, 30, 50) for r in (5, 10)]),
    "IVF_RQ": ({}, [{"nprobes": n, "refine": r} for n in (20, 30, 50) for r in (5, 10)]),
    "IVF_HNSW_SQ": (
        {},
        [
            {"nprobes": n, "refine": r, "ef": e}
            for n in (20, 30, 50)
            for r, e in ((0, 0), (0, 300), (5, 0), (5, 1500))
        ],
    ),
    "IVF_HNSW_PQ": (
        {},
        [{"nprobes": n, "refine": 5, "ef": e} for n in (20, 50) for e in (0, 1500)],
    ),
}
"""Each index type LanceDB 0.40 offers on a vector column (``lancedb.index``), with the
search settings measured on it (0: the setting left at LanceDB's default; HNSW's ``ef``,
default 1.5 × the candidates asked, must be at least ``DEPTH`` × the refine factor)."""


def memory_root(keep: Path, size: int) -> Path:
    """``bench.scale``'s memory of ``size`` entries under ``keep``, built when absent."""
    root = keep / f"scale-{size}"
    if not (root / "built.json").exists():
        command = [sys.executable, "-m", "bench.scale", "--entries", str(size), "--build-only"]
        subprocess.run([*command, "--keep", str(keep)], check=True)
    return root


def vectors_only(keep: Path, size: int) -> Path:
    """A table of ``bench.scale``'s entries' ids and vectors only (the same texts, labels
    and embedder as its build; no keyword index, no other column), made once under
    ``keep``: a minutes-long stand-in for the hour a memory of a million entries takes
    to build, for the index measurements, which read no other column."""
    root = keep / f"vectors-{size}"
    folder = root / ".claude" / "memory" / "vectors"
    if (root / "queries.json").exists():
        return root
    import lancedb
    import pyarrow as pa

    from bench.scale import BATCH, CATEGORIES, BenchEmbedder, asks_of, texts
    from engine.core.models import Category, Entry
    from engine.embedding.document import document_text

    shutil.rmtree(root, ignore_errors=True)
    entries = texts(size)
    embedder = BenchEmbedder(DIMENSION)
    table = None
    kind = pa.list_(pa.float32(), DIMENSION)
    for start in range(0, size, BATCH):
        batch = [
            Entry(
                id=f"{start + i:032x}", content=text, category=Category(CATEGORIES[(start + i) % 6])
            )
            for i, text in enumerate(entries[start : start + BATCH])
        ]
        matrix = embedder.embed_documents([document_text(e) for e in batch])
        data = pa.table(
            {
                "id": [e.id for e in batch],
                "vector": pa.FixedSizeListArray.from_arrays(pa.array(matrix.ravel()), DIMENSION),
            }
        ).cast(pa.schema([("id", pa.string()), ("vector", kind)]))
        if table is None:
            table = lancedb.connect(folder).create_table(TABLE, data)
        else:
            table.add(data)
        print(f"  vectors-{size}: {start + len(batch):,} written", file=sys.stderr, flush=True)
    (root / "queries.json").write_text(json.dumps(asks_of(entries)))
    return root


class Store:
    """A LanceDB table opened as :class:`engine.storage.record_store.RecordStore` opens
    its own (the same cache bounds, reads of the latest version), without its migration
    (a table of vectors only has none of the entries' columns)."""

    def __init__(self, path: Path) -> None:
        import lancedb

        self.path = path
        session = lancedb.Session(
            index_cache_size_bytes=INDEX_CACHE_BYTES,
            metadata_cache_size_bytes=METADATA_CACHE_BYTES,
        )
        db = lancedb.connect(path, read_consistency_interval=timedelta(0), session=session)
        self._table = db.open_table(TABLE)

    def table(self) -> Any:
        return self._table


def copy_store(root: Path, work: Path) -> Store:
    """A copy of the memory's table with no vector index, opened as the product does."""
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(root / ".claude" / "memory" / "vectors", work)
    store = Store(work)
    table = store.table()
    for index in table.list_indices():
        if "vector" in index.columns:
            table.drop_index(index.name)
    return store


KEPT = 1_000
"""Exact scores kept per query: enough to judge any id a search returns at depth 100."""


class Exact:
    """A query's exact nearest entries: the best :data:`KEPT` ids and their cosine."""

    def __init__(self, ids: list[str], scores: list[float]) -> None:
        self.scores = dict(zip(ids, scores, strict=True))
        self.ids = ids

    def recall(self, found: list[str], k: int) -> float:
        """Share of ``found``'s first ``k`` that belong to the exact ``k`` best, ties
        included: the bag-of-words vectors give many entries the same score, and an
        entry as near as the exact ``k``-th is as right as the one numpy listed."""
        bound = self.scores[self.ids[k - 1]] - 1e-6
        return sum(self.scores.get(i, -2.0) >= bound for i in found[:k]) / k


def exact_nearest(store: Store, queries: np.ndarray) -> list[Exact]:
    """The exact nearest entries of each query (cosine: every vector is unit)."""
    arrow = store.table().to_arrow().select(["id", "vector"])
    ids = arrow["id"].to_pylist()
    matrix = np.asarray(arrow["vector"].combine_chunks().values, dtype=np.float32)
    matrix = matrix.reshape(len(ids), DIMENSION)
    del arrow
    out = []
    kept = min(KEPT, len(ids) - 1)
    for start in range(0, len(queries), 16):
        scores = matrix @ queries[start : start + 16].T
        for column in scores.T:
            top = np.argpartition(-column, kept)[:kept]
            top = top[np.argsort(-column[top], kind="stable")]
            out.append(Exact([ids[i] for i in top], [float(column[i]) for i in top]))
    return out


def search(store: Store, vector: np.ndarray, setting: Setting | None) -> list[str]:
    """The nearest :data:`DEPTH` ids as ``RecordStore.nearest`` reads them: through the
    index with ``setting``, or exact (``None``)."""
    query = store.table().search(vector.tolist(), vector_column_name="vector")
    query = query.distance_type("cosine")
    if setting is None:
        query = query.bypass_vector_index()
    else:
        query = query.nprobes(setting["nprobes"])
        if setting.get("refine"):
            query = query.refine_factor(setting["refine"])
        if setting.get("ef"):
            query = query.ef(setting["ef"])
    arrow = query.select(["id", "_distance"]).limit(DEPTH).to_arrow()
    ids: list[str] = arrow["id"].to_pylist()
    return ids


Stats = tuple[float, float, float, float]


def measured(
    store: Store, vectors: np.ndarray, exact: list[Exact], settings: list[Setting | None], flat: int
) -> list[Stats]:
    """p50 and p95 ms, recall@10 and recall@100 of each setting (``None``: exact search,
    on the first ``flat`` queries only), the settings taking turns query by query so that
    each meets the same load on a shared machine."""
    for setting in settings:
        search(store, vectors[0], setting)  # the index's pages read once
    times: list[list[float]] = [[] for _ in settings]
    at10: list[list[float]] = [[] for _ in settings]
    at100: list[list[float]] = [[] for _ in settings]
    for n, (vector, best) in enumerate(zip(vectors, exact, strict=True)):
        for k, setting in enumerate(settings):
            if setting is None and n >= flat:
                continue
            started = time.perf_counter()
            ids = search(store, vector, setting)
            times[k].append((time.perf_counter() - started) * 1000)
            at10[k].append(best.recall(ids, 10))
            at100[k].append(best.recall(ids, DEPTH))
    return [
        (statistics.median(t), percentile(t, 95), statistics.fmean(a), statistics.fmean(b))
        for t, a, b in zip(times, at10, at100, strict=True)
    ]


def build_index(
    store: Store, kind: str, extra: dict[str, Any], per_partition: int
) -> tuple[float, float]:
    """Build (replacing) the vector index of ``kind``: seconds, and MiB of its files."""
    folder = store.path / f"{TABLE}.lance" / "_indices"
    before = set(folder.iterdir()) if folder.exists() else set()
    rows = store.table().count_rows()
    partitions = max(1, rows // per_partition) if per_partition else max(1, int(rows**0.5))
    started = time.perf_counter()
    store.table().create_index(
        metric="cosine",
        vector_column_name="vector",
        index_type=kind,
        num_partitions=partitions,
        replace=True,
        **extra,
    )
    seconds = time.perf_counter() - started
    new = [p for p in folder.iterdir() if p not in before]
    size = sum(f.stat().st_size for p in new for f in p.rglob("*") if f.is_file())
    return seconds, size / 2**20


def _unique(settings: list[Setting]) -> list[Setting]:
    """``settings`` but their ``nprobes``, each once."""
    seen: dict[tuple[tuple[str, int], ...], Setting] = {}
    for s in settings:
        rest = {k: v for k, v in s.items() if k != "nprobes"}
        seen.setdefault(tuple(sorted(rest.items())), rest | {"nprobes": 0})
    return list(seen.values())


def label(setting: Setting) -> str:
    parts = [f"nprobes {setting['nprobes']}"]
    parts.append(f"refine {setting['refine']}" if setting.get("refine") else "no refine")
    if "ef" in setting:
        parts.append(f"ef {setting['ef']}" if setting["ef"] else "ef default")
    return ", ".join(parts)


def run(
    root: Path, size: int, kinds: list[str], count: int, start: int, flat: int, per_partition: int
) -> None:
    work = Path(tempfile.mkdtemp(prefix=f"ann-index-{size}-")) / "vectors"
    store = copy_store(root, work)
    asks = json.loads((root / "queries.json").read_text())[start : start + count]
    embedder = FakeEmbedder(DIMENSION)
    vectors = np.stack([embedder.embed_query(a) for a in asks])
    exact = exact_nearest(store, vectors)
    try:
        for kind in kinds:
            extra, settings = KINDS[kind]
            seconds, mib = build_index(store, kind, extra, per_partition)
            turns: list[Setting | None] = [None, *settings] if flat else list(settings)
            for setting, (p50, p95, r10, r100) in zip(
                turns, measured(store, vectors, exact, turns, flat), strict=True
            ):
                how = (
                    f"flat (no index), beside {kind} | - | - | -"
                    if setting is None
                    else f"{kind} | {seconds:.1f} | {mib:.0f} | {label(setting)}"
                )
                print(
                    f"| {size:,} | {how} | {p50:.1f} | {p95:.1f} | {r10:.3f} | {r100:.3f} |",
                    flush=True,
                )
    finally:
        shutil.rmtree(work.parent, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--kinds", nargs="+", choices=list(KINDS), default=list(KINDS))
    parser.add_argument(
        "--keep",
        type=Path,
        default=Path(tempfile.gettempdir()) / "memory-tui-scale",
        help="bench.scale's memories, built there when absent (default: %(default)s)",
    )
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--start", type=int, default=100, help="first of queries.json used")
    parser.add_argument("--flat-queries", type=int, default=20, help="exact searches timed")
    parser.add_argument(
        "--vectors-only",
        action="store_true",
        help="a table of the same entries' vectors only, no memory around it (see vectors_only)",
    )
    parser.add_argument(
        "--per-partition",
        type=int,
        default=0,
        help="rows per IVF partition (default: as many partitions as the root of the rows)",
    )
    parser.add_argument("--probes", type=int, nargs="+", help="partitions probed (all kinds)")
    args = parser.parse_args()
    if args.probes:
        for _, settings in KINDS.values():
            settings[:] = [s | {"nprobes": n} for s in _unique(settings) for n in args.probes]
    os.environ.setdefault("LANCE_LOG", "error")
    print(
        f"depth {DEPTH}, {args.queries} queries (flat: {args.flat_queries}), "
        "times and recall against numpy's exact search"
    )
    print("| entries | index | build s | MiB | search | p50 ms | p95 ms | recall@10 | recall@100 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for size in args.sizes:
        build = vectors_only if args.vectors_only else memory_root
        root = build(args.keep, size)
        run(root, size, args.kinds, args.queries, args.start, args.flat_queries, args.per_partition)


if __name__ == "__main__":
    main()
