"""Checks behind issue 38's search settings at scale, on a memory built by ``bench.scale``
— ``python -m bench.scale_checks ann DIR [--queries 20] [--settings 50:1 ...]`` and
``python -m bench.scale_checks keyword DIR [--queries 60] [--start 100]``.

``ann``: the ANN index's settings (``nprobes:refine``, e.g. ``50:1``), each with its p50
and recall@10 / recall@100 against exact search at hybrid's depth of 100, only ids read.
``keyword``: keyword search with and without the pruning of rows holding only common
terms (:func:`engine.storage.mirror_keyword._pruned`), interleaved per query at depths 10
and 100: whether the rankings are the same (ids and raw ``bm25()``), and each one's p50/p95.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fakes import FakeEmbedder

from bench.metrics import p50_p95
from bench.scale import DIMENSION
from engine.search import keyword as keyword_module
from engine.search.query import Query
from engine.services.memory import Memory
from engine.services.parts import parts_of

DEPTH = 100


def ann(root: Path, asks: list[str], settings: list[str]) -> None:
    with Memory.open(root, embedder=FakeEmbedder(DIMENSION)) as memory:
        store = parts_of(memory).store()
        table = store.table()
        vectors = [parts_of(memory).embedder.embed_query(q) for q in asks]
        exact = [[e.id for e, _ in store.vector_search(v, DEPTH, exact=True)] for v in vectors]
        for setting in settings:
            nprobes, refine = (int(x) for x in setting.split(":"))
            times, at10, at100 = [], [], []
            for vector, best in zip(vectors, exact, strict=True):
                started = time.perf_counter()
                query = table.search(vector.tolist(), vector_column_name="vector")
                query = query.distance_type("cosine").nprobes(nprobes)
                query = query.refine_factor(refine) if refine else query
                ids = query.select(["id", "_distance"]).limit(DEPTH).to_arrow()["id"].to_pylist()
                times.append((time.perf_counter() - started) * 1000)
                at10.append(len(set(ids[:10]) & set(best[:10])) / 10)
                at100.append(len(set(ids) & set(best)) / DEPTH)
            print(
                f"  {setting:>8}  {p50_p95(times)}  recall@10 {statistics.fmean(at10):.3f}"
                f"  recall@100 {statistics.fmean(at100):.3f}",
                flush=True,
            )


def switch(way: object) -> None:
    """The keyword searcher's pruning on (its method) or off (``None``)."""
    off = lambda self, match, query, leave_out: match  # noqa: E731
    keyword_module.KeywordSearcher._with_frequencies = way or off  # type: ignore[assignment,method-assign]


def keyword(root: Path, asks: list[str]) -> None:
    pruning = keyword_module.KeywordSearcher._with_frequencies
    times: dict[str, list[float]] = {}
    same = asked = 0
    with Memory.open(root, embedder=FakeEmbedder(DIMENSION)) as memory:
        searcher = parts_of(memory).searcher.keyword
        for text in asks:
            query = Query.parse(text)
            for depth in (10, DEPTH):
                searcher.search(query, depth)  # the terms' entry counts, for both
                found = []
                for name, way in (("whole", None), ("pruned", pruning)):
                    switch(way)
                    started = time.perf_counter()
                    hits = searcher.search(query, depth)
                    times.setdefault(f"{name} {depth}", []).append(
                        (time.perf_counter() - started) * 1000
                    )
                    found.append([(h.entry.id, h.bm25) for h in hits])
                same += found[0] == found[1]
                asked += 1
    switch(pruning)
    print(f"  same rankings: {same} of {asked}")
    for name, values in times.items():
        print(f"  {name:>10}  {p50_p95(values)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("check", choices=["ann", "keyword"])
    parser.add_argument("root", type=Path, help="a memory built by bench.scale (scale-N)")
    parser.add_argument("--queries", type=int, default=0, help="default: 20 (ann), 60")
    parser.add_argument("--start", type=int, default=100, help="first of queries.json used")
    parser.add_argument(
        "--settings", nargs="+", default=["50:5", "50:1", "30:1", "100:1"], help="ann: n:refine"
    )
    args = parser.parse_args()
    os.environ.setdefault("LANCE_LOG", "error")
    every = json.loads((args.root / "queries.json").read_text())
    count = args.queries or (20 if args.check == "ann" else 60)
    asks = every[args.start : args.start + count]
    if args.check == "ann":
        ann(args.root, asks, args.settings)
    else:
        keyword(args.root, asks)


if __name__ == "__main__":
    main()
